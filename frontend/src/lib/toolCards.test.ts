import {describe, expect, it} from 'vitest'
import type {Message} from '../api/types'
import {
  attachmentSrc,
  pairToolResults,
  progressFraction,
  splitToolName,
  statusOfResult,
  storedCallIds,
  toolResultOf,
} from './toolCards'

const msg = (id: string, role: Message['role'], parts: Message['parts']): Message => ({
  id, seq: 1, role, status: 'complete', parts, createdAt: 1,
})

describe('tool cards', () => {
  it('reads the result of a tool_result part', () => {
    expect(toolResultOf({type: 'tool_result', callId: 'c1', result: {callId: 'c1', name: 'fs.read', successful: true, data: '{"a":1}', durationMs: 40}})).toEqual({
      successful: true, data: '{"a":1}', error: undefined, truncated: undefined, durationMs: 40, attachments: undefined, raw: undefined,
    })
    expect(toolResultOf({type: 'tool_result', callId: 'c1'})).toMatchObject({successful: false, error: undefined})
    expect(toolResultOf({type: 'text', text: 'x'})).toBeNull()
  })

  it('pairs results with calls by call id across messages', () => {
    const messages = [
      msg('a', 'assistant', [{type: 'tool_call', callId: 'c1', name: 'fs.read'}, {type: 'tool_call', callId: 'c2', name: 'fs.list'}]),
      msg('t', 'tool', [{type: 'tool_result', callId: 'c2', result: {callId: 'c2', name: 'fs.list', successful: true}}]),
    ]
    const results = pairToolResults(messages)
    expect([...results.keys()]).toEqual(['c2'])
    expect([...storedCallIds(messages)]).toEqual(['c1', 'c2'])
  })

  it('tells stopped and denied calls from failures', () => {
    expect(statusOfResult({successful: true})).toBe('succeeded')
    expect(statusOfResult({successful: false, error: 'the user stopped the turn before this tool call finished'})).toBe('stopped')
    expect(statusOfResult({successful: false, error: 'the user denied this tool call'})).toBe('denied')
    expect(statusOfResult({successful: false, error: 'ENOENT: no such file'})).toBe('failed')
  })

  it('splits canonical names', () => {
    expect(splitToolName('travel.search_flights', 'travel')).toEqual({tool: 'search_flights', server: 'travel'})
    expect(splitToolName('travel.search_flights')).toEqual({tool: 'search_flights', server: 'travel'})
    expect(splitToolName('search', 'web')).toEqual({tool: 'search', server: 'web'})
  })

  it('is indeterminate without a total', () => {
    expect(progressFraction(3)).toBeNull()
    expect(progressFraction(3, 0)).toBeNull()
    expect(progressFraction(3, 4)).toBe(0.75)
    expect(progressFraction(9, 4)).toBe(1)
  })

  it('makes data URLs from base64', () => {
    expect(attachmentSrc({type: 'image', mimeType: 'image/jpeg', data: 'AAA\nBBB'})).toBe('data:image/jpeg;base64,AAABBB')
    expect(attachmentSrc({type: 'image', data: 'AAA'})).toBe('data:image/png;base64,AAA')
    expect(attachmentSrc({type: 'image', mimeType: 'image/png"><script>', data: 'AAA'})).toBe('data:image/png;base64,AAA')
    expect(attachmentSrc({type: 'image', uri: 'https://x/y.png'})).toBeNull()
  })
})
