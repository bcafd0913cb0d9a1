// Summary nodes in the message list (issue 14). Compaction stores a summary
// as a message of its own (role "summary") after the turn it was made in;
// it stands, in requests only, for every message of the branch up to its
// `through`. The list shows it where it begins to count: right after the
// last message it stands for, as a marker the reader can open.

import type {SummaryDTO} from '../api/contract.gen'

/** What a summary node records (app's SummaryDTO, the agent's chat.Summary). */
export type SummaryFacts = SummaryDTO

interface Row {
  role: string
  seq: number
  summary?: SummaryFacts
}

export type ListRow<M> = {kind: 'message'; message: M} | {kind: 'summary'; message: M}

export function isSummary(m: Row): boolean {
  return m.role === 'summary'
}

/**
 * The list's rows in reading order: each summary node moved to just after
 * the last loaded message it stands for (seq ≤ through), or to the top when
 * those are not loaded (an earlier page). rows is sorted by seq.
 */
export function placeSummaries<M extends Row>(rows: readonly M[]): ListRow<M>[] {
  const out: ListRow<M>[] = []
  const summaries = rows.filter(isSummary)
  if (summaries.length === 0) return rows.map((message) => ({kind: 'message', message}))
  const after = new Map<number, M[]>() // index in the messages → summaries after it (-1: top)
  const messages = rows.filter((m) => !isSummary(m))
  for (const s of summaries) {
    const through = s.summary?.through ?? s.seq
    let at = -1
    for (let i = 0; i < messages.length && messages[i].seq <= through; i++) at = i
    after.set(at, [...(after.get(at) ?? []), s])
  }
  for (const s of after.get(-1) ?? []) out.push({kind: 'summary', message: s})
  messages.forEach((m, i) => {
    out.push({kind: 'message', message: m})
    for (const s of after.get(i) ?? []) out.push({kind: 'summary', message: s})
  })
  return out
}

/** What started a summary, in words for the marker. */
export function summaryReason(reason: string): string {
  switch (reason) {
    case 'manual':
      return 'Compacted by you'
    case 'too_long':
      return 'Compacted after the provider refused the request as too long'
    default:
      return 'Compacted automatically as the context filled up'
  }
}
