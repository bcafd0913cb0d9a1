import type {Branch, Message} from '../api/types'
import type {SummaryFacts} from './summaries'
import type {TokenUsage} from './usage'

/**
 * A message as the list reads it: the stored message with the token usage
 * its provider reported and, on a summary node, what the summary stands for
 * (issue 14).
 */
export type ShownMessage = Message & {usage?: TokenUsage; summary?: SummaryFacts; tokens?: number}

/**
 * The branch of each turn's answer, keyed by run id: a regenerated answer
 * is a sibling of the old one's first message, so the turn's first message
 * carries the versions, and the switcher goes in the action bar under the
 * turn's last message.
 */
export function turnBranches(rows: readonly Message[]): Map<string, Branch> {
  const out = new Map<string, Branch>()
  for (const m of rows) {
    if (m.role === 'assistant' && m.runId && m.branch && !out.has(m.runId)) out.set(m.runId, m.branch)
  }
  return out
}

/** Whether an answer can be regenerated: an assistant reply that is done (complete, stopped or failed). */
export function canRegenerate(m: Message, activeRunId?: string): boolean {
  return m.role === 'assistant' && m.status !== 'streaming' && !(activeRunId && m.runId === activeRunId)
}
