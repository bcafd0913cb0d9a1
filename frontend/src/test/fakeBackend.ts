// An in-memory stand-in for the Go side, installed where the generated
// bindings look for it: window.go.app.App and window.runtime.

import {vi} from 'vitest'
import type {KeychainStatus, Message, Session, Status} from '../api/types'
import {resetAppInit, useAppStore} from '../stores/app'
import {useChat} from '../stores/chat'
import {useSessions} from '../stores/sessions'
import {useToasts} from '../stores/toasts'
import {useUI} from '../stores/ui'

export const NOW = Date.now()

export function session(id: string, title: string, minutesAgo = 0): Session {
  const t = NOW - minutesAgo * 60_000
  return {id, title, provider: '', model: '', createdAt: t, updatedAt: t}
}

export function message(id: string, seq: number, role: Message['role'], text: string): Message {
  return {id, seq, role, status: 'complete', parts: [{type: 'text', text}], createdAt: NOW}
}

export interface FakeOptions {
  sessions?: Session[]
  messages?: Record<string, Message[]>
  status?: Partial<Status>
  keychain?: KeychainStatus
}

type Listener = (...data: unknown[]) => void

const notFound = (id: string) => Promise.reject({kind: 'not_found', message: `session ${id} not found`})

export function installFakeBackend(opts: FakeOptions = {}) {
  const state = {
    sessions: [...(opts.sessions ?? [])],
    messages: structuredClone(opts.messages ?? {}) as Record<string, Message[]>,
    lastSessionId: opts.status?.lastSessionId ?? '',
  }
  const listeners = new Map<string, Set<Listener>>()
  let nextId = 1
  const find = (id: string) => state.sessions.find((s) => s.id === id)

  const App = {
    Status: vi.fn(
      async (): Promise<Status> => ({
        version: '0.1.0-test',
        dataDir: '/home/ada/.local/share/maestro',
        dataFile: '/home/ada/.local/share/maestro/maestro.db',
        ...opts.status,
        lastSessionId: state.lastSessionId,
      }),
    ),
    ListSessions: vi.fn(async () => [...state.sessions].sort((a, b) => b.updatedAt - a.updatedAt)),
    CreateSession: vi.fn(async (title: string) => {
      const s = {...session(`new-${nextId++}`, title.trim() || 'New chat'), updatedAt: Date.now() + nextId}
      state.sessions.push(s)
      return s
    }),
    RenameSession: vi.fn(async (id: string, title: string) => {
      const s = find(id)
      if (!s) return notFound(id)
      s.title = title
      return {...s}
    }),
    DeleteSession: vi.fn(async (id: string) => {
      if (!find(id)) return notFound(id)
      state.sessions = state.sessions.filter((s) => s.id !== id)
      delete state.messages[id]
    }),
    OpenSession: vi.fn(async (id: string) => {
      const s = find(id)
      if (!s) return notFound(id)
      state.lastSessionId = id
      return {session: {...s}, messages: [...(state.messages[id] ?? [])]}
    }),
    SendMessage: vi.fn(async (id: string, text: string) => {
      if (!find(id)) return notFound(id)
      const list = (state.messages[id] ??= [])
      const m = message(`m-${nextId++}`, list.length + 1, 'user', text)
      list.push(m)
      return {runId: '', message: m}
    }),
    KeychainStatus: vi.fn(async () => opts.keychain ?? {available: true, message: 'The system keychain is available.'}),
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

  const w = window as unknown as {go: unknown; runtime: unknown}
  w.go = {app: {App}}
  w.runtime = runtime

  return {
    App,
    runtime,
    state,
    /** Fires an event as Go would. */
    emit: (name: string) => listeners.get(name)?.forEach((cb) => cb()),
    listenerCount: (name: string) => listeners.get(name)?.size ?? 0,
  }
}

export type FakeBackend = ReturnType<typeof installFakeBackend>

/** Puts every store back to its first state. */
export function resetStores(): void {
  for (const store of [useAppStore, useChat, useSessions, useToasts, useUI]) {
    ;(store as {setState: (s: unknown, replace: true) => void}).setState(store.getInitialState(), true)
  }
  resetAppInit()
}
