// The shapes of the run lifecycle state (see runReducer.ts).

import type {ToolAppDTO} from '../api/contract.gen'
import type {ErrorKind} from '../api/errors'
import type {ToolResult} from '../api/types'
import type {ToolStatus} from '../lib/toolCards'
import type {DefinitionChange, ToolHints} from '../lib/trust'

export interface LogLine {
  level: string
  text: string
}

/** A tool call as its card shows it while the run is live. */
export interface ToolLive {
  callId: string
  runId: string
  /** Canonical "server.tool". */
  name: string
  server: string
  /** JSON text; grows fragment by fragment while preparing. */
  args: string
  status: ToolStatus
  progress?: {progress: number; total?: number; message?: string}
  logs: LogLine[]
  result?: ToolResult
  durationMs?: number
  /** Unix ms when it started running (for the elapsed time). */
  startedAt?: number
  /** The tool's annotations, as the approval request carried them. */
  hints?: ToolHints
  /** The tool's MCP App, drawn while the call runs (tool:running), before its result. */
  app?: ToolAppDTO
}

export interface RunDraft {
  runId: string
  sessionId: string
  /** The reply of the current step so far (Markdown). */
  text: string
  reasoning: string
  reasoningStart?: number
  reasoningMs?: number
  /** Tool calls of this run, in the order they started. */
  calls: string[]
  finished: boolean
  stopping: boolean
  step?: number
  provider?: string
  model?: string
  toolsRevision?: number
  retrying?: {attempt: number; delayMs: number; reason: string}
}

/** A request that needs the user; elicitation and sampling join later. */
export interface ApprovalRequest {
  kind: 'approval'
  requestId: string
  runId: string
  sessionId: string
  callId: string
  name: string
  server: string
  arguments: string
  /** The server claims the tool only reads. */
  readOnlyHint?: boolean
  /** The tool's annotations (the server's claims), and whether the protocol reads them as "may destroy". */
  hints?: ToolHints
  destructive?: boolean
  /** Set when the tool's definition changed since the user allowed it: the dialog asks again with the diff. */
  change?: DefinitionChange
  /** "app" when an MCP App in a tool card asked for the call (docs/APPS.md). */
  requestedBy?: string
}

export type PendingRequest = ApprovalRequest

export interface RunFailure {
  runId: string
  kind: ErrorKind | string
  message: string
  retryAt?: number
  provider?: string
  reason?: string
  code?: string
  detail?: string
}

export interface RunsData {
  /** sessionId → its running run. */
  active: Record<string, string>
  runs: Record<string, RunDraft>
  tools: Record<string, ToolLive>
  /** Oldest first; the dialog host shows the first. */
  requests: PendingRequest[]
  /** sessionId → how its last run failed (until the next run starts). */
  failures: Record<string, RunFailure>
  /** messageId → how long the model thought before that reply. */
  thoughtMs: Record<string, number>
}
