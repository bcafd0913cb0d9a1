// Trust you can see (issue 16): the shapes the Go side sends for tool
// annotations, approval policies, pinned-definition diffs, the audit log,
// MCP tasks, URL elicitation consent and icons (names for the generated
// contract's types, never copies), and the pure helpers the components
// under components/trust use.

import type * as C from '../api/contract.gen'

/** A tool's annotations: the server's claims, never guarantees (chat.ToolHints). Unset = not stated. */
export type ToolHints = C.ToolHints

/** How a connector's tool calls are approved (chat.ToolPolicy). */
export type ToolPolicy = C.ApprovalPolicy

export const POLICIES: readonly ToolPolicy[] = ['ask', 'read_only', 'all']

export const POLICY_LABEL: Record<ToolPolicy, string> = {
  ask: 'Ask every time',
  read_only: 'Allow read-only tools',
  all: 'Allow everything',
}

export const POLICY_HELP: Record<ToolPolicy, string> = {
  ask: 'Every call asks you first. What the server claims about its tools grants nothing.',
  read_only:
    'Tools this server marks read-only run without asking; the rest ask. You choose to believe this server’s claims.',
  all: 'Every tool runs without asking, except those that may destroy something: they ask unless you allowed that tool.',
}

/** One line of a readable diff (chat.DiffLine): op is " " kept, "-" removed, "+" added. */
export type DiffLine = C.DiffLine

/** What changed in a tool's definition since the user allowed it (chat.DefinitionChange). */
export type DefinitionChange = C.DefinitionChange

/** "Always allow": in this chat, or in every chat. */
export type AllowScope = 'chat' | 'all_chats'

/** One audit record (chat.AuditRecord); arguments are JSON with secrets redacted. */
export type AuditRecord = C.AuditRecord

export const HOW_LABEL: Record<string, string> = {
  allow_once: 'Allowed once',
  always_this_chat: 'Always allowed in this chat',
  always_all_chats: 'Always allowed in every chat',
  denied: 'Denied',
  session_allow_all: 'Chat allows all',
  session_deny_all: 'Chat denies all',
  connector_read_only: 'Read-only policy',
  connector_all: 'Allow-everything policy',
  no_one_to_ask: 'No one to ask',
}

export const APPROVED_BY_LABEL: Record<string, string> = {
  user: 'You, asked',
  grant: 'Your earlier “always allow”',
  policy: 'Policy',
}

/** A tool call running as an MCP task (mcp.Task). */
export type TaskView = C.Task

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled' | 'lost' | string

export const TASK_STATUS_LABEL: Record<string, string> = {
  working: 'Working',
  input_required: 'Needs your input',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  lost: 'Lost',
}

export function taskEnded(s: TaskStatus): boolean {
  return s === 'completed' || s === 'failed' || s === 'cancelled' || s === 'lost'
}

/**
 * A task's progress as the supervisor reports it in its status message
 * (taskProgress: "status: message"); a leading "N%" or "N/M" gives a
 * fraction for the bar, else the bar is indeterminate.
 */
export function taskFraction(message: string | undefined): number | undefined {
  if (!message) return undefined
  const pct = /(\d{1,3}(?:\.\d+)?)\s*%/.exec(message)
  if (pct) return Math.min(1, Number(pct[1]) / 100)
  const of = /\b(\d+)\s*(?:\/|of)\s*(\d+)\b/.exec(message)
  if (of && Number(of[2]) > 0) return Math.min(1, Number(of[1]) / Number(of[2]))
  return undefined
}

/** A URL elicitation awaiting consent (mcp.ElicitationRequest, URL mode). */
export interface UrlConsentRequest {
  requestId: string
  /** The connector's name as the user gave it. */
  connector: string
  /** The server's own name and version, as it says. */
  server?: string
  message: string
  url: string
  /** The URL's host, lower case. */
  domain?: string
  /** A label of the domain is Punycode (xn--): a look-alike can hide there. */
  punycode?: boolean
}

/** The host of url, lower case, or "" when it is not a URL. */
export function urlDomain(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase()
  } catch {
    return ''
  }
}

/** Whether a label of domain is Punycode. */
export function isPunycode(domain: string): boolean {
  return domain
    .toLowerCase()
    .split('.')
    .some((l) => l.startsWith('xn--'))
}

/** An icon of a server or tool (tools.Icon). */
export type Icon = C.Icon

/** The largest data: URI shown (tools.MaxIconBytes). */
export const MAX_ICON_BYTES = 64 << 10

const ICON_TYPES = /^data:image\/(png|jpeg|gif|webp|svg\+xml|x-icon|vnd\.microsoft\.icon)[;,]/i

/**
 * Whether src may be shown: a data: image URI within MAX_ICON_BYTES, or an
 * https: URL without credentials. The backend filters icons already
 * (SafeIcons); the window checks again, since an img loads what it gets.
 */
export function safeIconSrc(src: string): boolean {
  const s = src.trim()
  if (/^data:/i.test(s)) return s.length <= MAX_ICON_BYTES && ICON_TYPES.test(s)
  if (!/^https:\/\//i.test(s) || s.length > 2048) return false
  try {
    const u = new URL(s)
    return u.protocol === 'https:' && !u.username && !u.password
  } catch {
    return false
  }
}

/**
 * The icon to draw at px on a theme: safe ones only, the theme's first
 * (or one without a theme), preferring a declared size at least px, then
 * "any".
 */
export function pickIcon(icons: readonly Icon[] | undefined, theme: 'light' | 'dark', px: number): Icon | undefined {
  const safe = (icons ?? []).filter((i) => safeIconSrc(i.src))
  const themed = safe.filter((i) => !i.theme || i.theme === theme)
  const pool = themed.length ? themed : safe
  const size = (i: Icon): number => {
    let best = 0
    for (const s of i.sizes ?? []) {
      if (s === 'any') return Number.MAX_SAFE_INTEGER
      const n = Number(s.split('x')[0])
      if (n > best) best = n
    }
    return best
  }
  const fits = pool.filter((i) => size(i) >= px).sort((a, b) => size(a) - size(b))
  return fits[0] ?? pool[0]
}

/** One annotation badge: what the server claims, in words. */
export interface HintBadge {
  key: 'read-only' | 'destructive' | 'idempotent' | 'open-world'
  label: string
  title: string
}

/**
 * The badges for a tool's annotations: only what the server stated, except
 * destructive, which the protocol presumes for a tool that is not marked
 * read-only (chat.ToolHints.MayDestroy) and is shown when stated or
 * presumed, saying which.
 */
export function hintBadges(h: ToolHints | undefined, opts: {presumeDestructive?: boolean} = {}): HintBadge[] {
  const out: HintBadge[] = []
  const claim = 'The server’s claim: Maestro cannot check it.'
  if (h?.readOnlyHint) out.push({key: 'read-only', label: 'Read-only', title: `Only reads, changes nothing. ${claim}`})
  if (!h?.readOnlyHint) {
    if (h?.destructiveHint === true)
      out.push({key: 'destructive', label: 'Destructive', title: `May delete or overwrite things. ${claim}`})
    else if (h?.destructiveHint === undefined && opts.presumeDestructive)
      out.push({
        key: 'destructive',
        label: 'May destroy',
        title: 'The server does not say this tool is read-only or harmless, so the protocol presumes it may destroy.',
      })
  }
  if (h?.idempotentHint) out.push({key: 'idempotent', label: 'Idempotent', title: `Calling it again with the same arguments does nothing more. ${claim}`})
  if (h?.openWorldHint) out.push({key: 'open-world', label: 'Open world', title: `Reaches outside this computer (the web, other services). ${claim}`})
  return out
}

/** Whether the protocol reads the hints as "may destroy" (chat.ToolHints.MayDestroy). */
export function mayDestroy(h: ToolHints | undefined): boolean {
  if (h?.readOnlyHint) return false
  return h?.destructiveHint === undefined || h.destructiveHint
}

/** The audit records as JSON Lines, one compact record a line (mcp.AuditLog.Export). */
export function toJsonLines(records: readonly AuditRecord[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : '')
}

/** The MCP protocol revisions Maestro speaks, newest first, and what the connector card says of each. */
export const MODERN_PROTOCOL = '2026-07-28'

/** Whether version is of the stateless era (2026-07-28 and later, like mcp.IsModern). */
export function isModernProtocol(version: string | undefined): boolean {
  return !!version && /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= MODERN_PROTOCOL
}
