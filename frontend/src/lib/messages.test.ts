import {describe, expect, it} from 'vitest'
import type {MessageStatus} from '../api/types'
import {message} from '../test/fakeBackend'
import {
  afterEdit,
  awaitsProvider,
  endsMidTurn,
  isBareFailure,
  messageText,
  prependPage,
  reasoningText,
  removeMessage,
  upsertMessage,
  visibleMessages,
} from './messages'

describe('messages', () => {
  it('joins text parts and skips other parts', () => {
    expect(
      messageText({
        parts: [
          {type: 'text', text: 'one'},
          {type: 'reasoning', text: 'hidden'},
          {type: 'tool_call'},
          {type: 'text', text: 'two'},
        ],
      }),
    ).toBe('one\n\ntwo')
  })

  it('knows when a reply is due', () => {
    expect(awaitsProvider([])).toBe(false)
    expect(awaitsProvider([{role: 'user'}])).toBe(true)
    expect(awaitsProvider([{role: 'user'}, {role: 'assistant'}])).toBe(false)
  })

  it('adds a message once, in seq order', () => {
    const a = message('a', 1, 'user', 'x')
    const b = message('b', 2, 'assistant', 'y')
    expect(upsertMessage([b], a).map((m) => m.id)).toEqual(['a', 'b'])
    expect(upsertMessage([a, b], a).map((m) => m.id)).toEqual(['a', 'b'])
  })

  it('puts an older page first, once, in seq order', () => {
    const [a, b, c, d] = [1, 2, 3, 4].map((n) => message(`m${n}`, n, n % 2 ? 'user' : 'assistant', String(n)))
    expect(prependPage([c, d], [a, b]).map((m) => m.seq)).toEqual([1, 2, 3, 4])
    // c also came as an event while the page was on its way.
    expect(prependPage([c, d], [a, b, c]).map((m) => m.seq)).toEqual([1, 2, 3, 4])
    expect(prependPage([c, d], []).map((m) => m.seq)).toEqual([3, 4])
    expect(prependPage([], [a, b]).map((m) => m.seq)).toEqual([1, 2])
  })
})

describe('visible messages', () => {
  const base = {seq: 1, createdAt: 1, parts: [{type: 'text', text: 'x'}]}
  it('leaves out tool messages, superseded attempts and the streaming checkpoint of the live run', () => {
    const list = [
      {...base, id: 'u', role: 'user' as const, status: 'complete' as const},
      {...base, id: 's', role: 'assistant' as const, status: 'superseded' as const},
      {...base, id: 't', role: 'tool' as const, status: 'complete' as const},
      {...base, id: 'c', role: 'assistant' as const, status: 'streaming' as const, runId: 'r1'},
    ]
    expect(visibleMessages(list, 'r1').map((m) => m.id)).toEqual(['u'])
    expect(visibleMessages(list).map((m) => m.id)).toEqual(['u', 'c'])
  })

  it('knows a failure with nothing else to show', () => {
    const fail = {id: 'f', seq: 2, role: 'assistant' as const, status: 'failed' as const, error: 'x', parts: [], createdAt: 1}
    expect(isBareFailure(fail)).toBe(true)
    expect(isBareFailure({...fail, parts: [{type: 'text', text: 'partial'}]})).toBe(false)
    expect(isBareFailure({...fail, status: 'complete' as const})).toBe(false)
  })

  it('reads reasoning and removes by id', () => {
    expect(reasoningText({parts: [{type: 'reasoning', text: 'hmm'}, {type: 'text', text: 'x'}]})).toBe('hmm')
    const a = message('a', 1, 'user', 'x')
    expect(removeMessage([a], 'a')).toEqual([])
  })

  it('after an edit keeps what came before the edited message and the new branch', () => {
    const m = (seq: number) => message(`m${seq}`, seq, seq % 2 ? 'user' : 'assistant', `t${seq}`)
    const cases: {name: string; list: number[]; edited: number; added: number; want: number[]}[] = [
      {name: 'old branch shown', list: [1, 2, 3, 4], edited: 3, added: 5, want: [1, 2, 5]},
      {name: 'new branch already saved', list: [1, 2, 3, 4, 5, 6], edited: 3, added: 5, want: [1, 2, 5, 6]},
      {name: 'first message edited', list: [1, 2, 3, 4], edited: 1, added: 7, want: [7]},
    ]
    for (const c of cases) {
      expect(afterEdit(c.list.map(m), c.edited, m(c.added)).map((x) => x.seq), c.name).toEqual(c.want)
    }
  })
})

describe('a turn left unfinished', () => {
  const m = (id: string, seq: number, role: 'user' | 'assistant' | 'tool', status: MessageStatus, parts: {type: string; text?: string}[] = [{type: 'text', text: id}]) =>
    ({id, seq, role, status, parts, createdAt: seq})
  const user = m('u', 1, 'user', 'complete')
  const calls = m('a', 2, 'assistant', 'complete', [{type: 'tool_call'}])
  const results = m('t', 3, 'tool', 'complete', [{type: 'tool_result'}])
  const reply = m('r', 4, 'assistant', 'complete')
  it.each([
    ['an empty chat', [], false],
    ['a finished turn', [user, calls, results, reply], false],
    ['a user message with no reply', [user], true],
    ['tool calls with no results', [user, calls], true],
    ['tool results with no reply', [user, calls, results], true],
    ['a failed reply (Retry is already offered)', [user, calls, results, m('f', 4, 'assistant', 'failed')], false],
    ['a stopped reply', [user, m('c', 2, 'assistant', 'canceled')], false],
    ['a superseded attempt after the results', [user, calls, results, m('s', 4, 'assistant', 'superseded')], true],
  ])('%s', (_, list, want) => {
    expect(endsMidTurn(list)).toBe(want)
  })
})
