// The only module that talks to the generated Wails bindings. Every call
// rejects with an AppError (see errors.ts), never with a raw value.

import * as App from '../../wailsjs/go/app/App'
import {ClipboardSetText, EventsOn} from '../../wailsjs/runtime/runtime'
import {toAppError} from './errors'
import type {KeychainStatus, Message, Session, SessionView, Status} from './types'

export const EVENT_SESSIONS_CHANGED = 'sessions:changed'

async function call<T>(fn: () => Promise<unknown>): Promise<T> {
  try {
    return (await fn()) as T
  } catch (err) {
    throw toAppError(err)
  }
}

export const api = {
  status: () => call<Status>(() => App.Status()),
  keychainStatus: () => call<KeychainStatus>(() => App.KeychainStatus()),
  listSessions: () => call<Session[] | null>(() => App.ListSessions()).then((s) => s ?? []),
  createSession: (title = '') => call<Session>(() => App.CreateSession(title)),
  renameSession: (id: string, title: string) => call<Session>(() => App.RenameSession(id, title)),
  deleteSession: (id: string) => call<void>(() => App.DeleteSession(id)),
  openSession: (id: string) =>
    call<SessionView>(() => App.OpenSession(id)).then((v) => ({...v, messages: v.messages ?? []})),
  sendMessage: (sessionId: string, text: string) =>
    call<{runId: string; message: Message}>(() => App.SendMessage(sessionId, text)).then((r) => r.message),
}

function hasRuntime(): boolean {
  return typeof window !== 'undefined' && !!(window as {runtime?: unknown}).runtime
}

/** Subscribes to sessions:changed; returns the unsubscribe function. */
export function onSessionsChanged(cb: () => void): () => void {
  if (!hasRuntime()) return () => {}
  return EventsOn(EVENT_SESSIONS_CHANGED, () => cb())
}

/** Puts text on the system clipboard. */
export async function copyText(text: string): Promise<void> {
  if (hasRuntime()) {
    try {
      if (await ClipboardSetText(text)) return
    } catch {
      // Fall through to the browser clipboard.
    }
  }
  try {
    await navigator.clipboard.writeText(text)
  } catch (err) {
    throw toAppError(err)
  }
}
