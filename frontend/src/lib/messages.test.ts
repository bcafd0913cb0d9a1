import {describe, expect, it} from 'vitest'
import {message} from '../test/fakeBackend'
import {awaitsProvider, messageText, upsertMessage} from './messages'

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
})
