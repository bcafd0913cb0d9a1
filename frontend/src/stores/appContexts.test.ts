import {beforeEach, describe, expect, it} from 'vitest'
import {appContextState, useAppContexts} from './appContexts'

describe('app contexts', () => {
  beforeEach(() => useAppContexts.setState({byCall: {}}))

  it('waits until the chat sends, then says it was sent; other chats are untouched', () => {
    const s = useAppContexts.getState()
    s.keep('s1', 'call-1')
    s.keep('s2', 'call-9')
    expect(appContextState(useAppContexts.getState(), 's1', 'call-1')).toBe('waiting')
    expect(appContextState(useAppContexts.getState(), 's1', 'call-2')).toBeUndefined()
    s.sent('s1')
    expect(appContextState(useAppContexts.getState(), 's1', 'call-1')).toBe('sent')
    expect(appContextState(useAppContexts.getState(), 's2', 'call-9')).toBe('waiting')
    s.keep('s1', 'call-1') // a newer update waits again
    expect(appContextState(useAppContexts.getState(), 's1', 'call-1')).toBe('waiting')
  })

  it('a send in a chat with nothing waiting changes nothing', () => {
    const before = useAppContexts.getState().byCall
    useAppContexts.getState().sent('s1')
    expect(useAppContexts.getState().byCall).toBe(before)
  })
})
