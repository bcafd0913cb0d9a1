// Plain shapes of what the Go side sends. Components and stores use these
// rather than the generated classes in wailsjs/go/models.ts.

import type {AppError} from './errors'

export interface Status {
  version: string
  dataDir: string
  dataFile: string
  /** Set when the data file could not be opened; nothing else works then. */
  storeError?: AppError
  /** The session to reopen at launch, or "". */
  lastSessionId: string
}

export interface Session {
  id: string
  title: string
  provider: string
  model: string
  /** Unix milliseconds. */
  createdAt: number
  /** Unix milliseconds; the list is sorted by this, newest first. */
  updatedAt: number
  /** Bumped when the session's tool set changes (connectors toggled). */
  toolsRevision?: number
}

export type Role = 'user' | 'assistant' | 'tool'

export type MessageStatus = 'complete' | 'streaming' | 'canceled' | 'failed' | 'superseded'

/**
 * An image, audio clip or resource returned by a tool. data is base64. An
 * attachment Maestro left out (too large) has no data and text says why; a
 * downscaled image has a text note too.
 */
export interface Attachment {
  type: 'image' | 'audio' | 'resource' | string
  mimeType?: string
  data?: string
  uri?: string
  text?: string
  name?: string
}

/** A tool result envelope; data and raw are JSON text. */
export interface ToolResult {
  successful: boolean
  data?: string
  error?: string
  /** Some copy was cut (the model's, the stored one, the window's); size is the size before. */
  truncated?: boolean
  size?: number
  durationMs?: number
  attachments?: Attachment[]
  raw?: string
}

/**
 * One part of a message; which fields are set depends on type: text and
 * reasoning carry text; tool_call carries callId, name (canonical
 * "server.tool"), server and arguments (JSON text); tool_result carries
 * callId, name and the envelope, either nested as result or flat on the
 * part (see lib/toolCards.ts); file carries name and mimeType.
 */
export interface Part extends Partial<ToolResult> {
  type: 'text' | 'reasoning' | 'tool_call' | 'tool_result' | 'file' | string
  text?: string
  callId?: string
  name?: string
  server?: string
  arguments?: string
  result?: ToolResult & {callId?: string; name?: string}
  mimeType?: string
}

/** A failed turn's classification as stored: an AppError whose kind may also be "interrupted". */
export type StoredFailure = Omit<AppError, 'kind'> & {kind: AppError['kind'] | 'interrupted' | string}

export interface Message {
  id: string
  seq: number
  role: Role
  status: MessageStatus | string
  error?: string
  /** How the turn failed, classified when it happened (replies stored since Maestro keeps it). */
  failure?: StoredFailure
  parts: Part[]
  /** Unix milliseconds. */
  createdAt: number
  provider?: string
  model?: string
  runId?: string
  /** Set when the message has other versions (it was edited and sent again). */
  branch?: Branch
}

/**
 * Where a message sits among its versions, oldest first. index is 0-based;
 * prev and next are the seq of the versions either side (0 at the ends).
 */
export interface Branch {
  index: number
  count: number
  prev: number
  next: number
}

/** A session and its latest messages (OpenSession). */
export interface SessionView {
  session: Session
  messages: Message[]
  /** When not 0, the seq to pass to EarlierMessages for the messages before these. */
  earlierBefore?: number
}

/** A page of older messages (EarlierMessages). */
export interface MessagePage {
  messages: Message[]
  /** As in SessionView: 0 when these start the session. */
  earlierBefore?: number
}

export interface KeychainStatus {
  available: boolean
  message: string
}

/** Provider names as Go spells them (chat.Provider*). */
export type ProviderId = 'gemini' | 'anthropic' | 'openai'

/** A provider's credentials as the Accounts page shows them; never a secret. */
export interface Account {
  provider: ProviderId
  /** "oauth": signed in with the provider's account; "apikey": an API key. */
  method: 'oauth' | 'apikey'
  email?: string
  plan?: string
  accountId?: string
  project?: string
  /** Unix milliseconds; absent when unknown. */
  expiresAt?: number
  /** The API key masked by Go, e.g. "sk-…abcd". */
  keyHint?: string
}

/** A started browser sign-in. */
export interface Login {
  loginId: string
  provider: ProviderId
  /** The page the browser was sent to. */
  authUrl: string
  /** True when the provider also accepts a pasted code (Claude). */
  manual: boolean
  /** Why no browser could be opened on authUrl; absent when one was. */
  browserError?: string
}

export type LoginStatus = 'waiting' | 'exchanging' | 'signed_in' | 'failed' | 'canceled'

/** The payload of an auth:login event. */
export interface LoginEvent {
  loginId: string
  provider: ProviderId
  status: LoginStatus
  error?: AppError
  account?: Account
}

// Chat runs (see the chat contract). ------------------------------------

/** What SendMessage resolves with: the stored user message and its run. */
export interface SendResult {
  runId: string
  message: Message
}

export interface ModelInfo {
  id: string
  name: string
  /** Tokens; absent when unknown. */
  contextWindow?: number
  maxOutputTokens?: number
  reasoning?: boolean
  preview?: boolean
  /** The provider's message when it refused this model for the account. */
  unavailable?: string
}

/** One provider in the model picker. */
export interface ProviderModels {
  provider: string
  displayName: string
  /** Whether Maestro has credentials for it. */
  available: boolean
  models: ModelInfo[]
  /** "service": the provider's own list for this account; "builtin": Maestro's list (not fetched yet). */
  source?: 'service' | 'builtin' | string
  /** Unix ms when the service list was fetched. */
  fetchedAt?: number
  /** Why the last refresh of the list failed. */
  error?: string
}

export type ApprovalDecision = 'allow_once' | 'always_allow' | 'deny'

export interface RunStartedEvent {
  runId: string
  sessionId: string
}

export interface RunStepEvent {
  runId: string
  sessionId: string
  step: number
  attempt: number
  provider: string
  model: string
  toolsRevision: number
  toolCount: number
}

export interface DeltaEvent {
  runId: string
  kind: 'text' | 'reasoning'
  text: string
}

export interface RetryingEvent {
  runId: string
  attempt: number
  delayMs: number
  reason: string
}

/** Every tool:* event; which fields are set depends on the event. */
export interface ToolEvent {
  runId: string
  callId: string
  name?: string
  server?: string
  fragment?: string
  arguments?: string
  progress?: number
  total?: number
  message?: string
  level?: string
  text?: string
  result?: ToolResult
  durationMs?: number
}

export interface ApprovalEvent {
  runId: string
  requestId: string
  callId: string
  name: string
  server: string
  arguments: string
  /** The tool's server claims it only reads: a claim the dialog attributes to the server. */
  readOnlyHint?: boolean
}

export interface MessageSavedEvent {
  runId: string
  sessionId: string
  message: Message
}

export interface RunFinishedEvent {
  runId: string
  sessionId: string
  canceled: boolean
  error?: AppError
  retryAt?: number
  usage?: {inputTokens: number; outputTokens: number}
}

/** One session matching a sidebar search (SearchHitDTO). */
export interface SearchHit {
  sessionId: string
  title: string
  /** The match with some context around it. */
  snippet: string
  /** The matching message; 0 when only the title matched. */
  seq: number
  updatedAt: number
}

export type ExportFormat = 'markdown' | 'json'
