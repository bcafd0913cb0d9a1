import {describe, expect, it} from 'vitest'
import type {Message} from '../api/types'
import {answerSpan, canRegenerate, turnBranches} from './turns'

const m = (seq: number, role: Message['role'], runId?: string, extra: Partial<Message> = {}): Message => ({
  id: `m${seq}`,
  seq,
  role,
  status: 'complete',
  parts: [],
  createdAt: 0,
  runId,
  ...extra,
})

describe('turnBranches', () => {
  it("takes the branch of each turn's first answer", () => {
    const b1 = {index: 1, count: 2, prev: 2, next: 0}
    const got = turnBranches([
      m(1, 'user', 'r1', {branch: {index: 0, count: 2, prev: 0, next: 9}}),
      m(5, 'assistant', 'r2', {branch: b1}),
      m(6, 'assistant', 'r2', {branch: {index: 0, count: 3, prev: 0, next: 1}}),
      m(7, 'assistant', 'r3'),
    ])
    expect([...got.entries()]).toEqual([['r2', b1]])
  })
})

describe('canRegenerate', () => {
  it.each([
    ['a complete answer', m(2, 'assistant', 'r1'), undefined, true],
    ['a stopped answer', m(2, 'assistant', 'r1', {status: 'canceled'}), undefined, true],
    ['a failed answer', m(2, 'assistant', 'r1', {status: 'failed'}), undefined, true],
    ['a user message', m(1, 'user', 'r1'), undefined, false],
    ['the answer being written', m(2, 'assistant', 'r1'), 'r1', false],
    ['a checkpoint', m(2, 'assistant', 'r1', {status: 'streaming'}), undefined, false],
  ])('%s', (_, msg, active, want) => expect(canRegenerate(msg, active)).toBe(want))
})

describe('answerSpan', () => {
  const msgs = [
    m(1, 'user', 'r1'),
    m(2, 'assistant', 'r1'),
    m(3, 'user', 'r2'),
    m(4, 'summary', 'r2'),
    m(5, 'assistant', 'r2'),
    m(6, 'tool', 'r2'),
    m(7, 'assistant', 'r2'),
  ]
  it.each([
    ['the last answer, named by its last reply', 7, {from: 5, to: 7}],
    ['the last answer, named by its first reply', 5, {from: 5, to: 7}],
    ['an earlier answer: the later turns go too', 2, {from: 2, to: 7}],
    ['a user message', 3, undefined],
    ['a message not loaded', 99, undefined],
  ])('%s', (_, seq, want) => expect(answerSpan(msgs, seq)).toEqual(want))
})
