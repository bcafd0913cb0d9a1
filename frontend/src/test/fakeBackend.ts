// An in-memory stand-in for the Go side, installed where the generated
// bindings look for it: window.go.app.<service> and window.runtime.

import {vi} from 'vitest'
import type {PrefsDTO} from '../api/contract.gen'
import type {Account, KeychainStatus, LoginEvent, Message, ProviderId, ProviderModels, Session, Status, StoredFile} from '../api/types'
import {resetAccountsModule, useAccounts} from '../stores/accounts'
import {resetAppInit, useAppStore} from '../stores/app'
import {useChat} from '../stores/chat'
import {useModels} from '../stores/models'
import {useRuns} from '../stores/runs'
import {useSessions} from '../stores/sessions'
import {useTheme} from '../stores/theme'
import {useContextStore} from '../stores/context'
import {useToasts} from '../stores/toasts'
import {useUI} from '../stores/ui'

export const NOW = Date.now()

export function session(id: string, title: string, minutesAgo = 0): Session {
  const t = NOW - minutesAgo * 60_000
  return {id, title, provider: '', model: '', createdAt: t, updatedAt: t, toolsRevision: 0}
}

export function message(id: string, seq: number, role: Message['role'], text: string): Message {
  return {id, seq, role, status: 'complete', parts: [{type: 'text', text}], createdAt: NOW}
}

export interface FakeOptions {
  sessions?: Session[]
  messages?: Record<string, Message[]>
  status?: Partial<Status>
  keychain?: KeychainStatus
  accounts?: Account[]
  /** The model catalog ListModels returns (default: DEFAULT_MODELS). */
  models?: ProviderModels[]
  /** When set, SendMessage starts a run (run-1, run-2, …) that tests drive with emit. */
  runs?: boolean
  /** sessionId → the run ActiveRun reports. */
  activeRuns?: Record<string, string>
  /**
   * sessionId → seq of a version of an edited message → the messages
   * SwitchBranch(seq) shows. EditAndResend adds the branch it leaves.
   */
  branches?: Record<string, Record<number, Message[]>>
  /** Messages per OpenSession / EarlierMessages page, as Go pages them (default: all at once). */
  pageSize?: number
  /** Stored attachments Attachment reads, by "sessionId/ref" (others are not_found, as in Go). */
  files?: Record<string, StoredFile>
}

export const DEFAULT_MODELS: ProviderModels[] = [
  {provider: 'gemini', displayName: 'Gemini', available: true, source: 'builtin', models: [{id: 'gemini-2.5-pro', name: 'Gemini 2.5 Pro'}, {id: 'gemini-2.5-flash', name: 'Gemini 2.5 Flash'}]},
  {provider: 'anthropic', displayName: 'Claude', available: true, source: 'builtin', models: [{id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5'}]},
  {provider: 'openai', displayName: 'ChatGPT', available: false, source: 'builtin', models: [{id: 'gpt-5', name: 'GPT-5'}]},
]

type Listener = (...data: unknown[]) => void

const notFound = (id: string) => Promise.reject({kind: 'not_found', message: `session ${id} not found`})
const conflict = {kind: 'conflict', message: 'a reply is still running in this chat; stop it first'}

export function installFakeBackend(opts: FakeOptions = {}) {
  const state = {
    sessions: [...(opts.sessions ?? [])],
    messages: structuredClone(opts.messages ?? {}) as Record<string, Message[]>,
    lastSessionId: opts.status?.lastSessionId ?? '',
    accounts: [...(opts.accounts ?? [])],
    /** Running sign-ins: login id → provider. */
    logins: new Map<string, ProviderId>(),
    /** sessionId → its running run. */
    activeRuns: {...(opts.activeRuns ?? {})} as Record<string, string>,
    branches: structuredClone(opts.branches ?? {}) as Record<string, Record<number, Message[]>>,
    theme: 'system',
    prefs: {
      theme: 'system',
      defaultModel: {provider: '', model: ''},
      instructions: '',
      approval: 'ask',
      compactPercent: 80,
      logLevel: 'info',
      baseUrls: {},
      baseUrlsFromEnv: [],
    } as PrefsDTO,
    /** sessionId → its instructions. */
    instructions: {} as Record<string, string>,
  }
  const listeners = new Map<string, Set<Listener>>()
  let nextId = 1
  const find = (id: string) => state.sessions.find((s) => s.id === id)
  // The last pageSize messages below seq before, as app.messagePage returns them.
  const page = (id: string, before: number) => {
    const older = (state.messages[id] ?? []).filter((m) => m.seq < before)
    const messages = older.slice(Math.max(0, older.length - (opts.pageSize ?? Infinity)))
    return {messages, earlierBefore: messages.length < older.length ? messages[0].seq : 0}
  }

  // app.Sessions
  const Sessions = {
    Attachment: vi.fn(async (id: string, ref: string) =>
      opts.files?.[`${id}/${ref}`] ?? Promise.reject({kind: 'not_found', message: 'this attachment is no longer stored in this chat'})),
    SaveAttachment: vi.fn(async (_id: string, _ref: string, name: string) => `/home/me/${name}`),
    Instructions: vi.fn(async (id: string) => state.instructions[id] ?? ''),
    SetInstructions: vi.fn(async (id: string, text: string) => (state.instructions[id] = text.trim())),
    List: vi.fn(async () => [...state.sessions].sort((a, b) => b.updatedAt - a.updatedAt)),
    Create: vi.fn(async (title: string) => {
      const s = {...session(`new-${nextId++}`, title.trim() || 'New chat'), updatedAt: Date.now() + nextId}
      state.sessions.push(s)
      state.instructions[s.id] = state.prefs.instructions
      return s
    }),
    Rename: vi.fn(async (id: string, title: string) => {
      const s = find(id)
      if (!s) return notFound(id)
      s.title = title
      return {...s}
    }),
    Delete: vi.fn(async (id: string) => {
      if (!find(id)) return notFound(id)
      state.sessions = state.sessions.filter((s) => s.id !== id)
      delete state.messages[id]
    }),
    Open: vi.fn(async (id: string) => {
      const s = find(id)
      if (!s) return notFound(id)
      state.lastSessionId = id
      return {session: {...s}, ...page(id, Infinity)}
    }),
    OpenAt: vi.fn(async (id: string, _seq: number) => {
      const s = find(id)
      if (!s) return notFound(id)
      state.lastSessionId = id
      return {session: {...s}, ...page(id, Infinity)}
    }),
    EarlierMessages: vi.fn(async (id: string, before: number) => {
      if (!find(id)) return notFound(id)
      return page(id, before)
    }),
    Search: vi.fn(async (query: string) => {
      const q = query.trim().toLowerCase()
      if (!q) return []
      const hits = []
      for (const s of [...state.sessions].sort((a, b) => b.updatedAt - a.updatedAt)) {
        const titleMatch = s.title.toLowerCase().includes(q)
        const m = [...(state.messages[s.id] ?? [])]
          .reverse()
          .find((m) => m.parts.some((p) => p.type === 'text' && (p.text ?? '').toLowerCase().includes(q)))
        if (!titleMatch && !m) continue
        const text = m?.parts.find((p) => p.type === 'text')?.text ?? s.title
        hits.push({sessionId: s.id, title: s.title, snippet: text, seq: m?.seq ?? 0, updatedAt: s.updatedAt, titleMatch})
      }
      hits.sort((a, b) => Number(b.titleMatch) - Number(a.titleMatch))
      return hits.map(({titleMatch: _t, ...h}) => h)
    }),
    Export: vi.fn(async (id: string, format: string) => `${format}:${id}`),
    ExportToFile: vi.fn(async (id: string, format: string) => `/home/me/${id}.${format === 'json' ? 'json' : 'md'}`),
  }

  // app.Chat
  const Chat = {
    SendMessage: vi.fn(async (id: string, text: string) => {
      if (!find(id)) return notFound(id)
      const list = (state.messages[id] ??= [])
      const m = message(`m-${nextId++}`, list.length + 1, 'user', text)
      list.push(m)
      const runId = opts.runs ? `run-${nextId++}` : ''
      if (runId) state.activeRuns[id] = runId
      return {runId, message: m}
    }),
    // The new version goes right after the edited one: version index+1 of count+1.
    EditAndResend: vi.fn(async (id: string, seq: number, text: string) => {
      if (!find(id)) return notFound(id)
      if (state.activeRuns[id]) return Promise.reject(conflict)
      const list = state.messages[id] ?? []
      const i = list.findIndex((m) => m.seq === seq)
      if (i < 0) return Promise.reject({kind: 'not_found', message: `message ${seq} not found`})
      if (list[i].role !== 'user') return Promise.reject({kind: 'invalid', message: 'only your own messages can be edited'})
      const seen = [list, ...Object.values(state.branches[id] ?? {})].flat().map((m) => m.seq)
      const was = list[i].branch ?? {index: 0, count: 1, prev: 0, next: 0}
      const m: Message = {
        ...message(`m-${nextId++}`, Math.max(...seen) + 1, 'user', text),
        branch: {index: was.index + 1, count: was.count + 1, prev: seq, next: 0},
      }
      const left = list.map((x, j) => (j === i ? {...x, branch: {...was, count: was.count + 1, next: m.seq}} : x))
      state.branches[id] = {...state.branches[id], [seq]: left}
      state.messages[id] = [...list.slice(0, i), m]
      const runId = opts.runs ? `run-${nextId++}` : ''
      if (runId) state.activeRuns[id] = runId
      return {runId, message: m}
    }),
    SwitchBranch: vi.fn(async (id: string, seq: number) => {
      const s = find(id)
      if (!s) return notFound(id)
      if (state.activeRuns[id]) return Promise.reject(conflict)
      const view = state.branches[id]?.[seq]
      if (!view) return Promise.reject({kind: 'not_found', message: `message ${seq} not found`})
      // Keep the branch left behind, under the version shown where seq is.
      const shown = (state.messages[id] ?? [])[view.findIndex((m) => m.seq === seq)]
      if (shown) state.branches[id] = {...state.branches[id], [shown.seq]: state.messages[id]}
      state.messages[id] = view
      return {session: {...s}, messages: [...view]}
    }),
    StopRun: vi.fn(async (runId: string) => {
      if (!Object.values(state.activeRuns).includes(runId))
        return Promise.reject({kind: 'not_found', message: 'that reply has already finished'})
    }),
    ApplyNow: vi.fn(async () => true),
    RetryTurn: vi.fn(async (id: string) => {
      if (!find(id)) return notFound(id)
      const runId = `run-${nextId++}`
      state.activeRuns[id] = runId
      return runId
    }),
    AnswerApproval: vi.fn(async (_requestId: string, _decision: string) => {}),
    SetSessionModel: vi.fn(async (id: string, provider: string, model: string) => {
      const s = find(id)
      if (!s) return notFound(id)
      s.provider = provider
      s.model = model
      return {...s}
    }),
    ListModels: vi.fn(async () => structuredClone(opts.models ?? DEFAULT_MODELS)),
    RefreshModels: vi.fn(async () => {}),
    ActiveRun: vi.fn(async (id: string) => state.activeRuns[id] ?? ''),
    Regenerate: vi.fn(async (id: string, _seq: number) => {
      if (!find(id)) return notFound(id)
      const runId = `run-${nextId++}`
      state.activeRuns[id] = runId
      return runId
    }),
    CompactNow: vi.fn(async (id: string) => {
      if (!find(id)) return notFound(id)
      const runId = `run-${nextId++}`
      state.activeRuns[id] = runId
      return runId
    }),
    // A chat with a model measures 12k tokens of a 200k window (2k of them tools).
    ContextUse: vi.fn(async (id: string) => {
      const s = find(id)
      if (!s) return notFound(id)
      const window = s.model ? 200_000 : 0
      return {sessionId: id, provider: s.provider, model: s.model, tokens: s.model ? 12_000 : 0, toolTokens: s.model ? 2_000 : 0,
        systemTokens: 0, window, reserve: window / 4, limit: (window * 3) / 4, threshold: (window * 3) / 5, reported: false}
    }),
  }

  // app.Accounts
  const Accounts = {
    List: vi.fn(async () => state.accounts.map((a) => ({...a}))),
    SignIn: vi.fn(async (provider: ProviderId) => {
      const loginId = `login-${nextId++}`
      state.logins.set(loginId, provider)
      return {loginId, provider, authUrl: `https://auth.example/${provider}/authorize?state=${loginId}`, manual: provider === 'anthropic'}
    }),
    CancelSignIn: vi.fn(async (loginId: string) => {
      const provider = state.logins.get(loginId)
      if (!provider) return Promise.reject({kind: 'not_found', message: 'this sign-in has already ended'})
      state.logins.delete(loginId)
      emitLogin({loginId, provider, status: 'canceled'})
    }),
    SubmitSignInCode: vi.fn(async (loginId: string) => {
      if (!state.logins.has(loginId)) return Promise.reject({kind: 'not_found', message: 'this sign-in has already ended'})
    }),
    OpenSignInPage: vi.fn(async (loginId: string) => {
      if (!state.logins.has(loginId)) return Promise.reject({kind: 'not_found', message: 'this sign-in has already ended'})
    }),
    SignOut: vi.fn(async (provider: ProviderId) => {
      state.accounts = state.accounts.filter((a) => !(a.provider === provider && a.method === 'oauth'))
    }),
    SetAPIKey: vi.fn(async (provider: ProviderId, key: string): Promise<Account> => {
      const k = key.trim()
      const acc: Account = {provider, method: 'apikey', keyHint: `${k.startsWith('sk-') ? 'sk-' : ''}…${k.slice(-4)}`}
      state.accounts = [...state.accounts.filter((a) => a.provider !== provider), acc]
      return {...acc}
    }),
    RemoveAPIKey: vi.fn(async (provider: ProviderId) => {
      state.accounts = state.accounts.filter((a) => !(a.provider === provider && a.method === 'apikey'))
    }),
  }

  // app.Settings
  const Settings = {
    Status: vi.fn(
      async (): Promise<Status> => ({
        version: '0.1.0-test',
        dataDir: '/home/ada/.local/share/maestro',
        dataFile: '/home/ada/.local/share/maestro/maestro.db',
        ...opts.status,
        lastSessionId: state.lastSessionId,
      }),
    ),
    KeychainStatus: vi.fn(async () => opts.keychain ?? {available: true, message: 'The system keychain is available.'}),
    DefaultModel: vi.fn(async () => ({provider: '', model: ''})),
    Theme: vi.fn(async () => state.theme),
    SetTheme: vi.fn(async (theme: string) => {
      if (!['system', 'light', 'dark'].includes(theme)) return Promise.reject({kind: 'invalid', message: `the theme is system, light or dark, not "${theme}"`})
      state.theme = theme
      return theme
    }),
    SetDefaultModel: vi.fn(async (provider: string, model: string) => ({provider, model})),
    Prefs: vi.fn(async (): Promise<PrefsDTO> => ({...state.prefs, theme: state.theme as PrefsDTO['theme']})),
    SavePrefs: vi.fn(async (p: PrefsDTO): Promise<PrefsDTO> => {
      if (p.compactPercent < 30 || p.compactPercent > 95)
        return Promise.reject({kind: 'invalid', message: `compact at 30% to 95% of the context window, not ${p.compactPercent}%`})
      state.prefs = {...p, instructions: p.instructions.trim()}
      return {...state.prefs}
    }),
    Diagnostics: vi.fn(async () => 'Maestro diagnostics\n\nMaestro:   0.1.0-test\nKeychain:  The system keychain is available.'),
  }

  // app.Connectors
  const Connectors = {
    // No connectors unless installFakeConnectors sets some up.
    List: vi.fn(async () => []),
  }

  /** Fires an auth:login event as Go would, ending the fake login on a terminal status. */
  function emitLogin(ev: LoginEvent) {
    if (ev.status === 'signed_in' || ev.status === 'failed' || ev.status === 'canceled') {
      state.logins.delete(ev.loginId)
      if (ev.account) state.accounts = [...state.accounts.filter((a) => a.provider !== ev.provider), ev.account]
    }
    listeners.get('auth:login')?.forEach((cb) => cb(ev))
  }

  const runtime = {
    EventsOnMultiple: vi.fn((name: string, cb: Listener) => {
      if (!listeners.has(name)) listeners.set(name, new Set())
      listeners.get(name)!.add(cb)
      return () => listeners.get(name)?.delete(cb)
    }),
    EventsOff: vi.fn((name: string) => listeners.delete(name)),
    EventsOffAll: vi.fn(() => listeners.clear()),
    EventsEmit: vi.fn((name: string, ...data: unknown[]) => listeners.get(name)?.forEach((cb) => cb(...data))),
    ClipboardSetText: vi.fn(async () => true),
  }

  // app.Window, the window's own service.
  const Window = {
    Quit: vi.fn(async () => {}),
    ToggleFullscreen: vi.fn(async () => {}),
    Remember: vi.fn(async () => {}),
    SetDark: vi.fn(async (_dark: boolean) => {}),
  }

  const w = window as unknown as {go: unknown; runtime: unknown}
  w.go = {app: {Sessions, Chat, Accounts, Settings, Connectors, Window}}
  w.runtime = runtime

  return {
    Sessions,
    Chat,
    Accounts,
    Settings,
    Connectors,
    Window,
    runtime,
    state,
    /** Fires an event as Go would. */
    emit: (name: string, ...data: unknown[]) => listeners.get(name)?.forEach((cb) => cb(...data)),
    emitLogin,
    listenerCount: (name: string) => listeners.get(name)?.size ?? 0,
  }
}

export type FakeBackend = ReturnType<typeof installFakeBackend>

/** Puts every store back to its first state. */
export function resetStores(): void {
  for (const store of [useAppStore, useAccounts, useChat, useModels, useRuns, useSessions, useToasts, useUI, useTheme, useContextStore]) {
    ;(store as {setState: (s: unknown, replace: true) => void}).setState(store.getInitialState(), true)
  }
  resetAppInit()
  resetAccountsModule()
  delete document.documentElement.dataset.theme
  localStorage.clear()
}
