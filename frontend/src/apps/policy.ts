/**
 * What an MCP App's view may ask of Maestro, and the answer (docs/APPS.md).
 * Everything stays under the user's control: a message becomes the
 * composer's draft (sent only by the user), a link is opened only after
 * the user says so, a tool call goes through the same approvals as a
 * model's (the backend's agent.AppCall), and a model-context update is
 * shown on the card. These functions check and cap what the view sent;
 * the component acts on the result.
 */

/** Caps on what a view may hand over. */
export const MAX_DRAFT = 32 * 1024
export const MAX_CONTEXT = 16 * 1024
export const MAX_URL = 2048

export type DisplayMode = 'inline' | 'fullscreen' | 'pip'
/** The modes Maestro offers: inline in the card, or the expanded panel. */
export const HOST_DISPLAY_MODES: DisplayMode[] = ['inline', 'fullscreen']

export type Verdict<T> = {ok: true; value: T} | {ok: false; reason: string}

const fail = <T>(reason: string): Verdict<T> => ({ok: false, reason})

interface Block {
  type?: unknown
  text?: unknown
}

function textOf(content: unknown): string | null {
  const blocks = Array.isArray(content) ? content : content && typeof content === 'object' ? [content] : []
  const texts: string[] = []
  for (const b of blocks as Block[]) {
    if (b && b.type === 'text' && typeof b.text === 'string') texts.push(b.text)
  }
  return texts.length ? texts.join('\n\n') : null
}

/** ui/message: the user's draft, never sent by the app. */
export function messageDraft(params: {role?: unknown; content?: unknown}): Verdict<string> {
  if (params.role !== 'user') return fail('only user messages are supported')
  const text = textOf(params.content)
  if (text === null || !text.trim()) return fail('the message has no text')
  if (text.length > MAX_DRAFT) return fail(`the message is over ${MAX_DRAFT / 1024} KiB`)
  return {ok: true, value: text}
}

/** ui/open-link: a web or mail link the user is asked to open. */
export function linkToOpen(params: {url?: unknown}): Verdict<string> {
  const raw = params.url
  if (typeof raw !== 'string' || raw.length > MAX_URL) return fail('Invalid URL')
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    return fail('Invalid URL')
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:' && u.protocol !== 'mailto:') return fail('Policy violation')
  if (u.username || u.password) return fail('Policy violation')
  return {ok: true, value: u.href}
}

/** What a view's ui/update-model-context says, as the card shows it. */
export interface ModelContext {
  text: string
  structured?: string
}

/** ui/update-model-context: shown on the card, capped. */
export function modelContext(params: {content?: unknown; structuredContent?: unknown}): Verdict<ModelContext> {
  const text = textOf(params.content) ?? ''
  let structured: string | undefined
  if (params.structuredContent !== undefined) {
    try {
      structured = JSON.stringify(params.structuredContent)
    } catch {
      return fail('Invalid content format')
    }
  }
  if (!text && !structured) return fail('Invalid content format')
  if (text.length + (structured?.length ?? 0) > MAX_CONTEXT) return fail(`Context update over ${MAX_CONTEXT / 1024} KiB`)
  return {ok: true, value: {text, structured}}
}

/**
 * ui/request-display-mode: the mode the view gets. A mode the host or the
 * view does not offer leaves the current one (the spec's rule).
 */
export function displayModeFor(requested: unknown, current: DisplayMode, appModes?: readonly string[]): DisplayMode {
  if (typeof requested !== 'string' || !HOST_DISPLAY_MODES.includes(requested as DisplayMode)) return current
  if (appModes && !appModes.includes(requested)) return current
  return requested as DisplayMode
}

/** tools/call from the view: a tool name and an object of arguments, checked before the backend decides. */
export function toolCallOf(params: {name?: unknown; arguments?: unknown}): Verdict<{name: string; args: Record<string, unknown>}> {
  if (typeof params.name !== 'string' || !params.name || params.name.length > 128) return fail('Invalid tool name')
  const args = params.arguments ?? {}
  if (typeof args !== 'object' || Array.isArray(args) || args === null) return fail('Arguments must be an object')
  return {ok: true, value: {name: params.name, args: args as Record<string, unknown>}}
}
