// Tool calls as cards: statuses, result envelopes from stored parts,
// progress and attachments.

import type {Attachment, Message, Part, ToolResult} from '../api/types'

/**
 * preparing: the model is still streaming the arguments; pending: waiting
 * for the user's approval; the rest are what they say.
 */
export type ToolStatus = 'preparing' | 'pending' | 'running' | 'succeeded' | 'failed' | 'denied' | 'stopped'

export const TOOL_STATUS_LABEL: Record<ToolStatus, string> = {
  preparing: 'Preparing',
  pending: 'Needs approval',
  running: 'Running',
  succeeded: 'Done',
  failed: 'Failed',
  denied: 'Denied',
  stopped: 'Stopped',
}

export function isToolActive(s: ToolStatus): boolean {
  return s === 'preparing' || s === 'pending' || s === 'running'
}

/** The envelope of a tool_result part. */
export function toolResultOf(part: Part): ToolResult | null {
  if (part.type !== 'tool_result') return null
  const r: Partial<ToolResult> = part.result ?? {}
  return {
    successful: !!r.successful,
    data: r.data || undefined,
    error: r.error || undefined,
    truncated: r.truncated || undefined,
    size: r.size || undefined,
    durationMs: r.durationMs || undefined,
    attachments: r.attachments?.length ? r.attachments : undefined,
    raw: r.raw || undefined,
  }
}

/** Every tool result in messages, by call id. */
export function pairToolResults(messages: readonly Message[]): Map<string, ToolResult> {
  const out = new Map<string, ToolResult>()
  for (const m of messages) {
    for (const p of m.parts ?? []) {
      const r = p.callId ? toolResultOf(p) : null
      if (r) out.set(p.callId!, r)
    }
  }
  return out
}

/** The call ids of every stored tool_call part. */
export function storedCallIds(messages: readonly Message[]): Set<string> {
  const out = new Set<string>()
  for (const m of messages) for (const p of m.parts ?? []) if (p.type === 'tool_call' && p.callId) out.add(p.callId)
  return out
}

/** The final status a result stands for. */
export function statusOfResult(r: ToolResult): ToolStatus {
  if (r.successful) return 'succeeded'
  const e = (r.error ?? '').toLowerCase()
  if (/\b(user stopped|stopped the turn)\b/.test(e)) return 'stopped'
  if (/\b(user denied|denied by the user|deny all)\b/.test(e)) return 'denied'
  return 'failed'
}

/** "server.tool" → {tool: "tool", server: "server"}; a bare name keeps the given server. */
export function splitToolName(name: string, server?: string): {tool: string; server: string} {
  const n = name || 'tool'
  if (server && n.startsWith(server + '.')) return {tool: n.slice(server.length + 1), server}
  const dot = n.indexOf('.')
  if (!server && dot > 0) return {tool: n.slice(dot + 1), server: n.slice(0, dot)}
  return {tool: n, server: server ?? ''}
}

/** progress/total as 0..1, or null when the total is unknown (indeterminate). */
export function progressFraction(progress: number, total?: number): number | null {
  if (!total || !Number.isFinite(total) || total <= 0 || !Number.isFinite(progress)) return null
  return Math.min(1, Math.max(0, progress / total))
}

/** A data: URL for an attachment's base64 data, or null when it has none. */
export function attachmentSrc(a: Attachment): string | null {
  if (!a.data) return null
  const fallback = a.type === 'audio' ? 'audio/wav' : a.type === 'image' ? 'image/png' : 'application/octet-stream'
  const mime = a.mimeType && /^[\w.+-]+\/[\w.+-]+$/.test(a.mimeType) ? a.mimeType : fallback
  return `data:${mime};base64,${a.data.replace(/\s+/g, '')}`
}
