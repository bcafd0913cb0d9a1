// Token counts as the chat shows them (issue 14's context meter, issue 18's
// usage line): what a provider reported per answer, summed per turn and per
// chat, and how full the context of the next request is.

import type {ContextUseDTO, UsageDTO} from '../api/contract.gen'

/** Tokens one request (or a sum of them) used, as the provider reported them; cacheReadTokens is "cached". */
export type TokenUsage = Partial<UsageDTO>

/**
 * How full the context of the chat's next request is (the agent's
 * ContextUse, app/context.go): estimated tokens against the model's window.
 */
export type ContextUse = Omit<ContextUseDTO, 'sessionId'>

const SUFFIXES: [number, string][] = [
  [1e6, 'M'],
  [1e3, 'k'],
]

/** A token count in a few characters: 950, 1.2k, 34k, 1.1M. */
export function formatTokens(n: number): string {
  const v = Math.max(0, Math.round(n))
  for (const [size, suffix] of SUFFIXES) {
    if (v >= size) {
      const x = v / size
      const text = x >= 10 ? String(Math.round(x)) : (Math.round(x * 10) / 10).toString()
      return text === '1000' && suffix === 'k' ? '1M' : `${text}${suffix}`
    }
  }
  return String(v)
}

/** A count with thousands separators, for tooltips. */
export function exactTokens(n: number): string {
  return Math.round(n).toLocaleString('en-US')
}

/** A share as a whole percentage: 0.345 → "35 %"; a share above 0 never shows as 0. */
export function percent(share: number): string {
  if (!Number.isFinite(share) || share <= 0) return '0 %'
  return `${Math.max(1, Math.round(share * 100))} %`
}

export function isZeroUsage(u?: TokenUsage): boolean {
  return !u || (!u.inputTokens && !u.outputTokens && !u.cacheReadTokens && !u.cacheWriteTokens && !u.reasoningTokens)
}

export function addUsage(a: TokenUsage | undefined, b: TokenUsage | undefined): TokenUsage {
  return {
    inputTokens: (a?.inputTokens ?? 0) + (b?.inputTokens ?? 0),
    outputTokens: (a?.outputTokens ?? 0) + (b?.outputTokens ?? 0),
    reasoningTokens: (a?.reasoningTokens ?? 0) + (b?.reasoningTokens ?? 0),
    cacheReadTokens: (a?.cacheReadTokens ?? 0) + (b?.cacheReadTokens ?? 0),
    cacheWriteTokens: (a?.cacheWriteTokens ?? 0) + (b?.cacheWriteTokens ?? 0),
  }
}

/** The pieces of a usage line: "1.2k in", "340 out", "1k cached" (cached only where reported). */
export function usageParts(u: TokenUsage): string[] {
  const out = [`${formatTokens(u.inputTokens ?? 0)} in`, `${formatTokens(u.outputTokens ?? 0)} out`]
  if (u.cacheReadTokens) out.push(`${formatTokens(u.cacheReadTokens)} cached`)
  return out
}

/** The same with exact numbers, for the line's tooltip. */
export function usageTitle(u: TokenUsage): string {
  const lines = [`Input: ${exactTokens(u.inputTokens ?? 0)} tokens`, `Output: ${exactTokens(u.outputTokens ?? 0)} tokens`]
  if (u.reasoningTokens) lines.push(`of which reasoning: ${exactTokens(u.reasoningTokens)}`)
  if (u.cacheReadTokens) lines.push(`Read from the cache: ${exactTokens(u.cacheReadTokens)}`)
  if (u.cacheWriteTokens) lines.push(`Written to the cache: ${exactTokens(u.cacheWriteTokens)}`)
  return lines.join('\n')
}

interface Counted {
  role: string
  runId?: string
  usage?: TokenUsage
}

/**
 * The usage of each turn (a run: one or more stored answers, a step per
 * tool round), keyed by run id: the usage line goes under the turn's last
 * answer and counts all its steps.
 */
export function turnUsages(rows: readonly Counted[]): Map<string, TokenUsage> {
  const out = new Map<string, TokenUsage>()
  for (const m of rows) {
    if (m.role !== 'assistant' || !m.runId || isZeroUsage(m.usage)) continue
    out.set(m.runId, addUsage(out.get(m.runId), m.usage))
  }
  return out
}

export type MeterLevel = 'ok' | 'near' | 'full'

/** How the meter reads: past the compaction threshold is "near", past the limit "full". */
export function meterLevel(use: ContextUse): MeterLevel {
  if (use.limit > 0 && use.tokens > use.limit) return 'full'
  if (use.threshold > 0 && use.tokens > use.threshold) return 'near'
  return 'ok'
}

/** tokens as a share of the window, and the part of it tool declarations take (0 to 1). */
export function shares(use: ContextUse): {used: number; tools: number; threshold: number} {
  if (use.window <= 0) return {used: 0, tools: 0, threshold: 0}
  const clamp = (x: number) => Math.min(1, Math.max(0, x))
  return {
    used: clamp(use.tokens / use.window),
    tools: clamp(use.toolTokens / use.window),
    threshold: clamp(use.threshold / use.window),
  }
}
