import {describe, expect, it} from 'vitest'
import {placeSummaries, summaryReason} from './summaries'

const msg = (seq: number, role = seq % 2 ? 'user' : 'assistant') => ({seq, role})
const summary = (seq: number, through: number) => ({seq, role: 'summary', summary: {through, messages: through, reason: 'threshold'}})
const order = (rows: ReturnType<typeof placeSummaries>) => rows.map((r) => (r.kind === 'summary' ? `S${r.message.seq}` : r.message.seq))

describe('placeSummaries', () => {
  it.each([
    ['no summary', [msg(1), msg(2), msg(3)], [1, 2, 3]],
    ['after the last message it stands for', [msg(1), msg(2), msg(3), msg(4), msg(5), summary(6, 2), msg(7)], [1, 2, 'S6', 3, 4, 5, 7]],
    ['its span not loaded: at the top', [msg(5), msg(6), summary(7, 2), msg(8)], ['S7', 5, 6, 8]],
    ['through a message with no row (a tool result)', [msg(1), msg(2), msg(5), summary(6, 4)], [1, 2, 'S6', 5]],
    ['two summaries', [msg(1), msg(2), msg(3), summary(4, 1), msg(5), summary(6, 3), msg(7)], [1, 'S4', 2, 3, 'S6', 5, 7]],
  ])('%s', (_, rows, want) => expect(order(placeSummaries(rows))).toEqual(want))
})

describe('summaryReason', () => {
  it.each([
    ['manual', 'Compacted by you'],
    ['too_long', 'Compacted after the provider refused the request as too long'],
    ['threshold', 'Compacted automatically as the context filled up'],
  ])('%s', (reason, want) => expect(summaryReason(reason)).toBe(want))
})
