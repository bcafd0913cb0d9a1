// The frontend's calls into Go: the bound services of the generated
// contract (contract.gen.ts, window.go.app), typed by it end to end. Every
// call rejects with an AppError (see errors.ts), never with a raw value.

import {BrowserOpenURL, ClipboardSetText} from '../../wailsjs/runtime/runtime'
import {
  type ApprovalDecision,
  CHAT_EVENTS,
  EventAuthLogin,
  EventMenuCommand,
  EventSessionsChanged,
  type DraftPartDTO,
  type ExportFormat,
  type LoginEventDTO,
  type MenuCommand,
  type PrefsDTO,
  type ProviderId,
  type Services,
  type ThemeChoice,
  type ToolAppDTO,
} from './contract.gen'
import {toAppError} from './errors'
import {on, onEach, type OneOf} from './events'

/** The bound services, looked up at each call (tests install theirs on window.go). */
export const go = (): Services => window.go.app

/** Runs a bound call, turning its rejection into an AppError. */
export async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    throw toAppError(err)
  }
}

export const api = {
  status: () => call(() => go().Settings.Status()),
  keychainStatus: () => call(() => go().Settings.KeychainStatus()),
  listSessions: () => call(() => go().Sessions.List()),
  createSession: (title = '') => call(() => go().Sessions.Create(title)),
  renameSession: (id: string, title: string) => call(() => go().Sessions.Rename(id, title)),
  deleteSession: (id: string) => call(() => go().Sessions.Delete(id)),
  openSession: (id: string) => call(() => go().Sessions.Open(id)),
  /** Opens a session with the pages down to message seq loaded (a search hit), switching to its branch if need be. */
  openSessionAt: (id: string, seq: number) => call(() => go().Sessions.OpenAt(id, seq)),
  /** The page of a session's messages stored before seq before. */
  earlierMessages: (sessionId: string, before: number) => call(() => go().Sessions.EarlierMessages(sessionId, before)),
  /** Sends the user's message with the draft's attachments (files and resources). */
  sendMessage: (sessionId: string, text: string, attachments: DraftPartDTO[] = []) =>
    call(() => go().Chat.SendMessage(sessionId, text, attachments)),
  accounts: () => call(() => go().Accounts.List()),
  signIn: (provider: ProviderId) => call(() => go().Accounts.SignIn(provider)),
  cancelSignIn: (loginId: string) => call(() => go().Accounts.CancelSignIn(loginId)),
  submitSignInCode: (loginId: string, code: string) => call(() => go().Accounts.SubmitSignInCode(loginId, code)),
  /** Opens the sign-in page again; paste: the page that shows a code to paste (Claude). */
  openSignInPage: (loginId: string, {paste = false} = {}) => call(() => go().Accounts.OpenSignInPage(loginId, paste)),
  signOut: (provider: ProviderId) => call(() => go().Accounts.SignOut(provider)),
  setAPIKey: (provider: ProviderId, key: string) => call(() => go().Accounts.SetAPIKey(provider, key)),
  removeAPIKey: (provider: ProviderId) => call(() => go().Accounts.RemoveAPIKey(provider)),
  searchSessions: (query: string) => call(() => go().Sessions.Search(query)),
  exportSession: (sessionId: string, format: ExportFormat) => call(() => go().Sessions.Export(sessionId, format)),
  /** Asks where to save and writes the export; resolves to the path, or '' when cancelled. */
  exportSessionToFile: (sessionId: string, format: ExportFormat) => call(() => go().Sessions.ExportToFile(sessionId, format)),
  /** The bytes a message of the chat names by ref (an attached file), up to 20 MiB. */
  storedFile: (sessionId: string, ref: string) => call(() => go().Sessions.Attachment(sessionId, ref)),
  /** Asks where to save a stored attachment and writes it; resolves to the path, or '' when cancelled. */
  saveStoredFile: (sessionId: string, ref: string, name: string) => call(() => go().Sessions.SaveAttachment(sessionId, ref, name)),
}

/** Subscribes to sessions:changed; returns the unsubscribe function. */
export function onSessionsChanged(cb: () => void): () => void {
  return on(EventSessionsChanged, () => cb())
}

/** Subscribes to auth:login (sign-in progress); returns the unsubscribe function. */
export function onLogin(cb: (ev: LoginEventDTO) => void): () => void {
  return on(EventAuthLogin, (ev) => ev && cb(ev))
}

/** Puts text on the system clipboard. */
export async function copyText(text: string): Promise<void> {
  if (typeof window !== 'undefined' && (window as {runtime?: unknown}).runtime) {
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

// Chat runs ------------------------------------------------------------------

export const chatApi = {
  stopRun: (runId: string) => call(() => go().Chat.StopRun(runId)),
  applyNow: (runId: string) => call(() => go().Chat.ApplyNow(runId)),
  retryTurn: (sessionId: string) => call(() => go().Chat.RetryTurn(sessionId)),
  answerApproval: (requestId: string, decision: ApprovalDecision) => call(() => go().Chat.AnswerApproval(requestId, decision)),
  /** A tools/call an MCP App asked for, through the approvals (docs/APPS.md); resolves with the result's JSON. */
  appCallTool: (sessionId: string, app: ToolAppDTO, tool: string, argsJson: string) =>
    call(() => go().Chat.AppCallTool(sessionId, app, tool, argsJson)),
  /** What a tool card's MCP App said with ui/update-model-context: the chat's next message carries it (docs/APPS.md). */
  setAppContext: (sessionId: string, callId: string, app: ToolAppDTO, text: string, structured: string) =>
    call(() => go().Chat.SetAppContext(sessionId, callId, app, text, structured)),
  /** An MCP App's UI resource, for a tool card. */
  appResource: (connectorId: string, uri: string) => call(() => go().Connectors.AppResource(connectorId, uri)),
  /** The model new chats start on; provider "" means the one last used. */
  defaultModel: () => call(() => go().Settings.DefaultModel()),
  setDefaultModel: (provider: string, model: string) => call(() => go().Settings.SetDefaultModel(provider, model)),
  setSessionModel: (sessionId: string, provider: string, model: string) =>
    call(() => go().Chat.SetSessionModel(sessionId, provider, model)),
  listModels: () => call(() => go().Chat.ListModels()),
  /** Asks the provider for the account's models again; models:changed follows. */
  refreshModels: (provider: string) => call(() => go().Chat.RefreshModels(provider)),
  activeRun: (sessionId: string) => call(() => go().Chat.ActiveRun(sessionId)),
  /** Sends text as a new version of the user message seq; the old one stays on its own branch. */
  editAndResend: (sessionId: string, seq: number, text: string) => call(() => go().Chat.EditAndResend(sessionId, seq, text)),
  /** Shows the branch through the message seq (one version of an edited message). */
  switchBranch: (sessionId: string, seq: number) => call(() => go().Chat.SwitchBranch(sessionId, seq)),
  /** Answers the turn of the assistant message seq again, as a new branch; resolves to the run's id. */
  regenerate: (sessionId: string, seq: number) => call(() => go().Chat.Regenerate(sessionId, seq)),
  /** How full the session's next request is (the header's context meter). */
  contextUse: (sessionId: string) => call(() => go().Chat.ContextUse(sessionId)),
  /** Summarises the conversation before its latest turn now; resolves to the run's id (StopRun stops it). */
  compactNow: (sessionId: string) => call(() => go().Chat.CompactNow(sessionId)),
}

/** A chat event: a run's, or models:changed (credentials or catalog changed). */
export type ChatEvent = OneOf<typeof CHAT_EVENTS>

/** Subscribes cb to every chat event; returns the unsubscribe function. */
export function onChatEvents(cb: (e: ChatEvent) => void): () => void {
  return onEach(CHAT_EVENTS, cb)
}

/** Opens an http(s) or mailto link in the system browser, never in the app window. */
export function openExternal(url: string): void {
  if (!/^(https?:|mailto:)/i.test(url)) return
  if ((window as {runtime?: unknown}).runtime) {
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
  quit: () => call(() => go().Window.Quit()),
  toggleFullscreen: () => call(() => go().Window.ToggleFullscreen()),
  /** Saves the window's size and place now (after a resize, on blur). */
  remember: () => call(() => go().Window.Remember()),
  /** The theme shown is dark (or not): the window background follows, now and at the next launch. */
  setDark: (dark: boolean) => call(() => go().Window.SetDark(dark)),
}

export const settingsApi = {
  /** Go answers one of ThemeChoiceValues, "system" for anything else it finds stored. */
  theme: () => call(() => go().Settings.Theme()),
  setTheme: (theme: ThemeChoice) => call(() => go().Settings.SetTheme(theme)),
  /** The rows of backend/prefs (docs/SETTINGS.md). */
  prefs: () => call(() => go().Settings.Prefs()),
  /**
   * Saves the rows in patch over the stored ones (read first, so a row
   * changed elsewhere meanwhile, the theme by the menu, is not put back).
   */
  savePrefs: async (patch: Partial<PrefsDTO>) => {
    const cur = await call(() => go().Settings.Prefs())
    return call(() => go().Settings.SavePrefs({...cur, ...patch}))
  },
  /** The bug-report text, secrets removed by Go. */
  diagnostics: () => call(() => go().Settings.Diagnostics()),
  /** A chat's own instructions (its system prompt). */
  instructions: (sessionId: string) => call(() => go().Sessions.Instructions(sessionId)),
  setInstructions: (sessionId: string, text: string) => call(() => go().Sessions.SetInstructions(sessionId, text)),
}

/** Subscribes to the menu's commands; returns the unsubscribe function. */
export function onMenuCommand(cb: (command: MenuCommand) => void): () => void {
  return on(EventMenuCommand, (command) => cb(command))
}
