// The connector and session-tools methods of the Go side, in memory, added
// to a fake backend (installFakeBackend) for the Connectors page and the
// Tools panel tests.

import {vi} from 'vitest'
import type {Connector, ConnectorInput, ImportReport, SessionConnector, SessionTools, TestResult} from '../api/connectors'
import {useConnectors} from '../stores/connectors'
import {useTools} from '../stores/tools'
import type {FakeBackend} from './fakeBackend'

export function connector(id: string, name: string, patch: Partial<Connector> = {}): Connector {
  return {
    id,
    name,
    transport: 'stdio',
    enabled: true,
    command: 'node',
    args: ['server.js'],
    env: [],
    headers: [],
    state: 'ready',
    toolCount: 3,
    stderrTail: [],
    needsSignIn: false,
    trustReadOnlyHints: false,
    newChats: false,
    apps: true,
    version: 0,
    ...patch,
  }
}

export function sessionConnector(id: string, name: string, patch: Partial<SessionConnector> = {}): SessionConnector {
  return {
    id,
    name,
    state: 'ready',
    toolCount: 2,
    available: true,
    enabledInSession: false,
    approval: 'ask',
    tools: [
      {canonical: `${name.toLowerCase()}.read`, name: 'read', description: 'Read a file', enabled: true, readOnly: true},
      {canonical: `${name.toLowerCase()}.write`, name: 'write', description: 'Write a file', enabled: true, readOnly: false},
    ],
    ...patch,
  }
}

export interface FakeConnectorOptions {
  connectors?: Connector[]
  /** sessionId → its Tools panel. */
  tools?: Record<string, Omit<SessionTools, 'sessionId'>>
  test?: TestResult
}

export function installFakeConnectors(backend: FakeBackend, opts: FakeConnectorOptions = {}) {
  const state = {
    connectors: [...(opts.connectors ?? [])],
    tools: structuredClone(opts.tools ?? {}) as Record<string, Omit<SessionTools, 'sessionId'>>,
  }
  let nextId = 1
  const notFound = (what: string) => Promise.reject({kind: 'not_found', message: `no ${what}`})
  const panel = (sid: string) => (state.tools[sid] ??= {revision: 0, connectors: [], roots: []})

  const methods = {
    List: vi.fn(async () => structuredClone(state.connectors)),
    Save: vi.fn(async (input: ConnectorInput) => {
      if (!input.name?.trim()) return Promise.reject({kind: 'invalid', message: 'A name is required'})
      // As Go does: a secret argument's value goes to the keychain and the
      // argument keeps a reference (the whole argument here, for brevity).
      const secret = new Set(input.secretArgs ?? [])
      let n = (input.args ?? []).filter((a) => /\$\{secret:\d+\}/.test(a)).length
      const base: Connector = connector(input.id || `c-${nextId++}`, input.name.trim(), {
        transport: input.transport,
        command: input.command,
        args: (input.args ?? []).map((a, i) => (secret.has(i) ? a.replace(/=.*$|^[^=]*$/, (m) => (m.startsWith('=') ? '=' : '') + `\${secret:${++n}}`) : a)),
        trustReadOnlyHints: !!input.trustReadOnlyHints,
        env: (input.env ?? []).map((e) => ({key: e.key, hint: '…'})),
        cwd: input.cwd,
        url: input.url,
        headers: (input.headers ?? []).map((h) => ({key: h.key, hint: '…'})),
        state: 'starting',
        toolCount: 0,
      })
      state.connectors = [...state.connectors.filter((c) => c.id !== base.id), base]
      return structuredClone(base)
    }),
    Delete: vi.fn(async (id: string) => {
      if (!state.connectors.some((c) => c.id === id)) return notFound(`connector ${id}`)
      state.connectors = state.connectors.filter((c) => c.id !== id)
    }),
    SetEnabled: vi.fn(async (id: string, on: boolean) => {
      const c = state.connectors.find((x) => x.id === id)
      if (!c) return notFound(`connector ${id}`)
      c.enabled = on
      c.state = on ? 'starting' : 'stopped'
      return structuredClone(c)
    }),
    SetNewChats: vi.fn(async (id: string, on: boolean) => {
      const c = state.connectors.find((x) => x.id === id)
      if (!c) return notFound(`connector ${id}`)
      c.newChats = on
      return structuredClone(c)
    }),
    Restart: vi.fn(async (_id: string) => {}),
    Test: vi.fn(
      async (_input: ConnectorInput): Promise<TestResult> =>
        opts.test ?? {ok: true, state: 'ready', tools: [{name: 'echo', readOnly: false}], stderrTail: [], needsSignIn: false, durationMs: 42},
    ),
    Logs: vi.fn(async (_id: string) => [{time: Date.now(), source: 'stderr', text: 'server started'}]),
    // Go's SuggestSecretArgs, roughly: tokens by prefix and --token=….
    SuggestSecretArgs: vi.fn(async (args: string[]) => args.flatMap((a, i) => (/^--token=.|^ghp_|^sk-/.test(a) ? [i] : []))),
    PickImportFile: vi.fn(async () => ''),
    PickExportFile: vi.fn(async () => ''),
    Import: vi.fn(async (_path: string): Promise<ImportReport> => ({summary: '', imported: 0, entries: []})),
    Export: vi.fn(async (_path: string) => state.connectors.length),
    SignIn: vi.fn(async (_id: string) => {}),
    CancelSignIn: vi.fn(async (_id: string) => {}),
    SignOut: vi.fn(async (_id: string) => {}),
    SessionTools: vi.fn(async (sid: string) => ({sessionId: sid, ...structuredClone(panel(sid))})),
    SetSessionConnector: vi.fn(async (sid: string, id: string, on: boolean) => {
      const p = panel(sid)
      const c = p.connectors.find((x) => x.id === id)
      if (!c) return notFound(`connector ${id}`)
      if (c.enabledInSession !== on) {
        c.enabledInSession = on
        p.revision++
      }
      return p.revision
    }),
    SetSessionTool: vi.fn(async (sid: string, canonical: string, on: boolean) => {
      const p = panel(sid)
      for (const c of p.connectors)
        for (const t of c.tools)
          if (t.canonical === canonical && t.enabled !== on) {
            t.enabled = on
            p.revision++
          }
      return p.revision
    }),
    SetSessionApproval: vi.fn(async (sid: string, id: string, policy: string) => {
      const c = panel(sid).connectors.find((x) => x.id === id)
      if (!c) return notFound(`connector ${id}`)
      c.chatApproval = (policy || undefined) as SessionConnector['chatApproval']
    }),
    SetSessionRoots: vi.fn(async (sid: string, roots: string[]) => {
      panel(sid).roots = [...roots]
      return [...roots]
    }),
    PickFolder: vi.fn(async () => '/home/ada/projects'),
  }
  Object.assign(backend.Connectors, methods)
  useConnectors.setState(useConnectors.getInitialState(), true)
  useTools.setState(useTools.getInitialState(), true)
  return {
    ...methods,
    state,
    /** Fires connector:state with the connector's stored config plus patch. */
    emitState: (id: string, patch: Partial<Connector>) => {
      const c = state.connectors.find((x) => x.id === id)
      if (c) Object.assign(c, patch)
      backend.emit('connector:state', {...(c ?? connector(id, id)), ...patch})
    },
  }
}
