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

/**
 * The seqs a regenerated answer takes out of the view: from the answer's
 * first reply (the first message after its user message that is not a
 * summary) up to the newest message loaded, i.e. the old branch from there
 * on. Taken before the call, so messages of the new answer (newer seqs)
 * are never caught. undefined when seq is not a loaded reply.
 */
export function answerSpan(messages: readonly Message[], seq: number): {from: number; to: number} | undefined {
  const at = messages.findIndex((m) => m.seq === seq)
  if (at < 0 || messages[at].role === 'user') return undefined
  let user = at
  while (user >= 0 && messages[user].role !== 'user') user--
  let first = user + 1
  while (first < at && messages[first].role === 'summary') first++
  return {from: messages[first].seq, to: messages[messages.length - 1].seq}
}
