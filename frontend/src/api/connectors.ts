// The MCP connectors and a session's tools: calls to the generated
// bindings and the events Go sends about them. Every call rejects with an
// AppError (see errors.ts). Shapes mirror app/connectors_dto.go.

import * as Connectors from '../../wailsjs/go/app/Connectors'
import {EventsOn} from '../../wailsjs/runtime/runtime'
import {toAppError} from './errors'

export type Transport = 'stdio' | 'http' | 'sse'
export type ConnectorState = 'starting' | 'ready' | 'error' | 'restarting' | 'stopped'

/** An env variable or header; the value stays in Go, hint shows it masked. */
export interface KeyHint {
  key: string
  hint: string
}

export interface Connector {
  id: string
  name: string
  transport: Transport | string
  /** False when turned off everywhere. */
  enabled: boolean
  command?: string
  /** Never a secret: a secret part is kept in the keychain and shown as ${secret:N}. */
  args: string[]
  env: KeyHint[]
  cwd?: string
  url?: string
  headers: KeyHint[]
  oauth?: {clientId: string; hasClientSecret: boolean; scopes: string[]}
  /** The user chose to run the tools this server marks read-only without asking. */
  trustReadOnlyHints?: boolean
  /** Switched on in every new chat. */
  newChats?: boolean
  state: ConnectorState | string
  toolCount: number
  error?: string
  stderrTail: string[]
  needsSignIn: boolean
  /** Unix ms of the next automatic retry, 0 or absent when none. */
  nextRetry?: number
  restarts?: number
  server?: string
  protocol?: string
  since?: number
  createdAt?: number
  /** Counts the connector's state changes: the higher of two copies is the newer. */
  version?: number
}

/** A form row; keep keeps the value stored for key. */
export interface KeyValueInput {
  key: string
  value: string
  keep?: boolean
}

/** The connector form: one shape per transport; id is empty for a new connector. */
export interface ConnectorInput {
  id?: string
  name: string
  transport: Transport
  command?: string
  /** May keep the ${secret:N} references of the stored arguments. */
  args?: string[]
  /** Indexes of args whose secret part goes to the keychain. */
  secretArgs?: number[]
  env?: KeyValueInput[]
  cwd?: string
  url?: string
  headers?: KeyValueInput[]
  oauth?: {clientId?: string; clientSecret?: string; keepClientSecret?: boolean; scopes?: string[]}
  trustReadOnlyHints?: boolean
  /** Switched on in every new chat. */
  newChats?: boolean
}

export interface TestTool {
  name: string
  title?: string
  description?: string
  readOnly: boolean
}

export interface TestResult {
  ok: boolean
  state: string
  tools: TestTool[]
  error?: string
  stderrTail: string[]
  needsSignIn: boolean
  server?: string
  protocol?: string
  durationMs: number
}

export interface LogLine {
  /** Unix ms. */
  time: number
  /** stderr, server (notifications/message) or maestro (the supervisor's notes). */
  source: 'stderr' | 'server' | 'maestro' | string
  level?: string
  logger?: string
  text: string
}

export interface ConnectorLogEvent {
  id: string
  line: LogLine
}

export interface ImportEntry {
  name: string
  imported: boolean
  connectorId?: string
  reason?: string
  notes: string[]
  ignored: string[]
}

export interface ImportReport {
  summary: string
  imported: number
  entries: ImportEntry[]
}

export interface SessionTool {
  /** server.tool: the name toggles use. */
  canonical: string
  name: string
  title?: string
  description?: string
  enabled: boolean
  readOnly: boolean
}

export interface SessionConnector {
  id: string
  name: string
  state: ConnectorState | string
  toolCount: number
  error?: string
  /** False when the connector is turned off everywhere. */
  available: boolean
  enabledInSession: boolean
  tools: SessionTool[]
}

export interface SessionTools {
  sessionId: string
  revision: number
  connectors: SessionConnector[]
  roots: string[]
}

export interface ToolsChangedEvent {
  sessionId: string
  revision: number
}

export const EVENT_CONNECTOR_STATE = 'connector:state'
export const EVENT_CONNECTOR_LOG = 'connector:log'
export const EVENT_TOOLS_CHANGED = 'tools:changed'

async function call<T>(fn: () => Promise<unknown>): Promise<T> {
  try {
    return (await fn()) as T
  } catch (err) {
    throw toAppError(err)
  }
}

const list = <T>(v: T[] | null | undefined): T[] => v ?? []

function normalizeConnector(c: Connector): Connector {
  return {...c, args: list(c.args), env: list(c.env), headers: list(c.headers), stderrTail: list(c.stderrTail)}
}

export const connectorsApi = {
  list: () => call<Connector[] | null>(() => Connectors.List()).then((l) => list(l).map(normalizeConnector)),
  save: (input: ConnectorInput) =>
    call<Connector>(() => Connectors.Save(input as unknown as Parameters<typeof Connectors.Save>[0])).then(normalizeConnector),
  remove: (id: string) => call<void>(() => Connectors.Delete(id)),
  setEnabled: (id: string, on: boolean) => call<Connector>(() => Connectors.SetEnabled(id, on)).then(normalizeConnector),
  restart: (id: string) => call<void>(() => Connectors.Restart(id)),
  test: (input: ConnectorInput) =>
    call<TestResult>(() => Connectors.Test(input as unknown as Parameters<typeof Connectors.Test>[0])).then((r) => ({
      ...r,
      tools: list(r.tools),
      stderrTail: list(r.stderrTail),
    })),
  logs: (id: string) => call<LogLine[] | null>(() => Connectors.Logs(id)).then(list),
  suggestSecretArgs: (args: string[]) => call<number[] | null>(() => Connectors.SuggestSecretArgs(args)).then(list),
  pickImportFile: () => call<string>(() => Connectors.PickImportFile()),
  pickExportFile: () => call<string>(() => Connectors.PickExportFile()),
  importFile: (path: string) =>
    call<ImportReport>(() => Connectors.Import(path)).then((r) => ({
      ...r,
      entries: list(r.entries).map((e) => ({...e, notes: list(e.notes), ignored: list(e.ignored)})),
    })),
  exportFile: (path: string) => call<number>(() => Connectors.Export(path)),
  signIn: (id: string) => call<void>(() => Connectors.SignIn(id)),
  cancelSignIn: (id: string) => call<void>(() => Connectors.CancelSignIn(id)),
  signOut: (id: string) => call<void>(() => Connectors.SignOut(id)),
}

export const toolsApi = {
  sessionTools: (sessionId: string) =>
    call<SessionTools>(() => Connectors.SessionTools(sessionId)).then((t) => ({
      ...t,
      roots: list(t.roots),
      connectors: list(t.connectors).map((c) => ({...c, tools: list(c.tools)})),
    })),
  setConnector: (sessionId: string, connectorId: string, on: boolean) =>
    call<number>(() => Connectors.SetSessionConnector(sessionId, connectorId, on)),
  setTool: (sessionId: string, canonical: string, on: boolean) =>
    call<number>(() => Connectors.SetSessionTool(sessionId, canonical, on)),
  setRoots: (sessionId: string, roots: string[]) =>
    call<string[] | null>(() => Connectors.SetSessionRoots(sessionId, roots)).then(list),
  pickFolder: () => call<string>(() => Connectors.PickFolder()),
}

function hasRuntime(): boolean {
  return typeof window !== 'undefined' && !!(window as {runtime?: unknown}).runtime
}

/** Subscribes to connector:state and connector:log; returns the unsubscribe. */
export function onConnectorEvents(handlers: {
  state?: (c: Connector) => void
  log?: (ev: ConnectorLogEvent) => void
}): () => void {
  if (!hasRuntime()) return () => {}
  const offs: (() => void)[] = []
  if (handlers.state) {
    const cb = handlers.state
    offs.push(EventsOn(EVENT_CONNECTOR_STATE, (c: Connector) => c && cb(normalizeConnector(c))))
  }
  if (handlers.log) {
    const cb = handlers.log
    offs.push(EventsOn(EVENT_CONNECTOR_LOG, (ev: ConnectorLogEvent) => ev && cb(ev)))
  }
  return () => offs.forEach((off) => off())
}

/** Subscribes to tools:changed; returns the unsubscribe. */
export function onToolsChanged(cb: (ev: ToolsChangedEvent) => void): () => void {
  if (!hasRuntime()) return () => {}
  return EventsOn(EVENT_TOOLS_CHANGED, (ev: ToolsChangedEvent) => ev && cb(ev))
}
