// The only module that talks to the generated Wails bindings. Every call
// rejects with an AppError (see errors.ts), never with a raw value.

import * as Accounts from '../../wailsjs/go/app/Accounts'
import * as Chat from '../../wailsjs/go/app/Chat'
import * as Sessions from '../../wailsjs/go/app/Sessions'
import * as Settings from '../../wailsjs/go/app/Settings'
import * as Win from '../../wailsjs/go/app/Window'
import {BrowserOpenURL, ClipboardSetText, EventsOn} from '../../wailsjs/runtime/runtime'
import {toAppError} from './errors'
import type {
  Account,
  KeychainStatus,
  Login,
  LoginEvent,
  Message,
  MessagePage,
  ProviderId,
  Session,
  SessionView,
  Status,
} from './types'
import type {ApprovalDecision, ExportFormat, ProviderModels, SearchHit, SendResult} from './types'

export const EVENT_SESSIONS_CHANGED = 'sessions:changed'
export const EVENT_AUTH_LOGIN = 'auth:login'
/** A menu item asks the UI for a command (app/menu.go). */
export const EVENT_MENU_COMMAND = 'menu:command'

async function call<T>(fn: () => Promise<unknown>): Promise<T> {
  try {
    return (await fn()) as T
  } catch (err) {
    throw toAppError(err)
  }
}

export const api = {
  status: () => call<Status>(() => Settings.Status()),
  keychainStatus: () => call<KeychainStatus>(() => Settings.KeychainStatus()),
  listSessions: () => call<Session[] | null>(() => Sessions.List()).then((s) => s ?? []),
  createSession: (title = '') => call<Session>(() => Sessions.Create(title)),
  renameSession: (id: string, title: string) => call<Session>(() => Sessions.Rename(id, title)),
  deleteSession: (id: string) => call<void>(() => Sessions.Delete(id)),
  openSession: (id: string) =>
    call<SessionView>(() => Sessions.Open(id)).then((v) => ({...v, messages: v.messages ?? []})),
  /** Opens a session with the pages down to message seq loaded (a search hit), switching to its branch if need be. */
  openSessionAt: (id: string, seq: number) =>
    call<SessionView>(() => Sessions.OpenAt(id, seq)).then((v) => ({...v, messages: v.messages ?? []})),
  /** The page of a session's messages stored before seq before. */
  earlierMessages: (sessionId: string, before: number) =>
    call<MessagePage>(() => Sessions.EarlierMessages(sessionId, before)).then((p) => ({...p, messages: p.messages ?? []})),
  sendMessage: (sessionId: string, text: string) =>
    call<SendResult | Message>(() => Chat.SendMessage(sessionId, text)).then(toSendResult),
  accounts: () => call<Account[] | null>(() => Accounts.List()).then((a) => a ?? []),
  signIn: (provider: ProviderId) => call<Login>(() => Accounts.SignIn(provider)),
  cancelSignIn: (loginId: string) => call<void>(() => Accounts.CancelSignIn(loginId)),
  submitSignInCode: (loginId: string, code: string) => call<void>(() => Accounts.SubmitSignInCode(loginId, code)),
  /** Opens the sign-in page again; paste: the page that shows a code to paste (Claude). */
  openSignInPage: (loginId: string, {paste = false} = {}) => call<void>(() => Accounts.OpenSignInPage(loginId, paste)),
  signOut: (provider: ProviderId) => call<void>(() => Accounts.SignOut(provider)),
  setAPIKey: (provider: ProviderId, key: string) => call<Account>(() => Accounts.SetAPIKey(provider, key)),
  removeAPIKey: (provider: ProviderId) => call<void>(() => Accounts.RemoveAPIKey(provider)),
  searchSessions: (query: string) => call<SearchHit[] | null>(() => Sessions.Search(query)).then((h) => h ?? []),
  exportSession: (sessionId: string, format: ExportFormat) => call<string>(() => Sessions.Export(sessionId, format)),
  /** Asks where to save and writes the export; resolves to the path, or '' when cancelled. */
  exportSessionToFile: (sessionId: string, format: ExportFormat) =>
    call<string>(() => Sessions.ExportToFile(sessionId, format)),
}

function hasRuntime(): boolean {
  return typeof window !== 'undefined' && !!(window as {runtime?: unknown}).runtime
}

/** Subscribes to sessions:changed; returns the unsubscribe function. */
export function onSessionsChanged(cb: () => void): () => void {
  if (!hasRuntime()) return () => {}
  return EventsOn(EVENT_SESSIONS_CHANGED, () => cb())
}

/** Subscribes to auth:login (sign-in progress); returns the unsubscribe function. */
export function onLogin(cb: (ev: LoginEvent) => void): () => void {
  if (!hasRuntime()) return () => {}
  return EventsOn(EVENT_AUTH_LOGIN, (ev: LoginEvent) => cb(ev))
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

// Chat runs (see the chat contract) ------------------------------------------

/** SendMessage resolves with {runId, message}; an older backend sent the message alone. */
function toSendResult(r: SendResult | Message): SendResult {
  return 'message' in r && r.message ? r : {runId: '', message: r as Message}
}

export const chatApi = {
  stopRun: (runId: string) => call<void>(() => Chat.StopRun(runId)),
  applyNow: (runId: string) => call<boolean>(() => Chat.ApplyNow(runId)),
  retryTurn: (sessionId: string) => call<string>(() => Chat.RetryTurn(sessionId)),
  answerApproval: (requestId: string, decision: ApprovalDecision) =>
    call<void>(() => Chat.AnswerApproval(requestId, decision)),
  /** The model new chats start on; provider "" means the one last used. */
  defaultModel: () => call<{provider: string; model: string}>(() => Settings.DefaultModel()),
  setDefaultModel: (provider: string, model: string) =>
    call<{provider: string; model: string}>(() => Settings.SetDefaultModel(provider, model)),
  setSessionModel: (sessionId: string, provider: string, model: string) =>
    call<Session>(() => Chat.SetSessionModel(sessionId, provider, model)),
  listModels: () => call<ProviderModels[] | null>(() => Chat.ListModels()).then((p) => p ?? []),
  /** Asks the provider for the account's models again; models:changed follows. */
  refreshModels: (provider: string) => call<void>(() => Chat.RefreshModels(provider)),
  activeRun: (sessionId: string) => call<string>(() => Chat.ActiveRun(sessionId)).then((id) => id || ''),
  /** Sends text as a new version of the user message seq; the old one stays on its own branch. */
  editAndResend: (sessionId: string, seq: number, text: string) =>
    call<SendResult>(() => Chat.EditAndResend(sessionId, seq, text)),
  /** Shows the branch through the message seq (one version of an edited message). */
  switchBranch: (sessionId: string, seq: number) =>
    call<SessionView>(() => Chat.SwitchBranch(sessionId, seq)).then((v) => ({...v, messages: v.messages ?? []})),
}

/** The events of a chat run, plus models:changed (credentials or catalog changed). */
export const CHAT_EVENTS = [
  'run:started',
  'run:step',
  'chat:delta',
  'run:retrying',
  'tool:started',
  'tool:args',
  'approval:needed',
  'tool:running',
  'tool:progress',
  'tool:log',
  'tool:finished',
  'message:saved',
  'run:finished',
  'models:changed',
] as const

export type ChatEventName = (typeof CHAT_EVENTS)[number]

/** Subscribes cb to every chat event; returns the unsubscribe function. */
export function onChatEvents(cb: (name: ChatEventName, payload: unknown) => void): () => void {
  if (!hasRuntime()) return () => {}
  const offs = CHAT_EVENTS.map((name) => EventsOn(name, (payload: unknown) => cb(name, payload)))
  return () => offs.forEach((off) => off())
}

/** Opens an http(s) or mailto link in the system browser, never in the app window. */
export function openExternal(url: string): void {
  if (!/^(https?:|mailto:)/i.test(url)) return
  if (hasRuntime()) {
    try {
      BrowserOpenURL(url)
      return
    } catch {
      // Fall through to the browser.
    }
  }
  window.open(url, '_blank', 'noopener,noreferrer')
}

// The window and the settings it reads -------------------------------------

/** The window's own calls (app/window.go). */
export const windowApi = {
  quit: () => call<void>(() => Win.Quit()),
  toggleFullscreen: () => call<void>(() => Win.ToggleFullscreen()),
  /** Saves the window's size and place now (after a resize, on blur). */
  remember: () => call<void>(() => Win.Remember()),
  /** The theme shown is dark (or not): the window background follows, now and at the next launch. */
  setDark: (dark: boolean) => call<void>(() => Win.SetDark(dark)),
}

export type ThemeChoice = 'system' | 'light' | 'dark'

export const settingsApi = {
  theme: () => call<ThemeChoice>(() => Settings.Theme()),
  setTheme: (theme: ThemeChoice) => call<ThemeChoice>(() => Settings.SetTheme(theme)),
}

/** Subscribes to the menu's commands; returns the unsubscribe function. */
export function onMenuCommand(cb: (command: unknown) => void): () => void {
  if (!hasRuntime()) return () => {}
  return EventsOn(EVENT_MENU_COMMAND, (command: unknown) => cb(command))
}
