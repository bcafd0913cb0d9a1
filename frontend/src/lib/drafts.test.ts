import {describe, expect, it} from 'vitest'
import {canSend, getDraft, removeDraft, setDraft} from './drafts'

describe('drafts', () => {
  it('keeps text per session', () => {
    let d = setDraft({}, 's1', 'hello')
    d = setDraft(d, 's2', 'other')
    expect(getDraft(d, 's1')).toBe('hello')
    expect(getDraft(d, 's2')).toBe('other')
    expect(getDraft(d, 's3')).toBe('')
    expect(getDraft(d, null)).toBe('')
  })

  it('removes a session when its text is cleared', () => {
    const d = setDraft(setDraft({}, 's1', 'x'), 's1', '')
    expect(d).toEqual({})
    expect(removeDraft({s1: 'a', s2: 'b'}, 's1')).toEqual({s2: 'b'})
  })

  it('returns the same object when nothing changes', () => {
    const d = {s1: 'a'}
    expect(setDraft(d, 's1', 'a')).toBe(d)
    expect(removeDraft(d, 'zz')).toBe(d)
    expect(setDraft(d, 'zz', '')).toBe(d)
  })

  it('does not send blank text', () => {
    expect(canSend('')).toBe(false)
    expect(canSend('  \n\t ')).toBe(false)
    expect(canSend(' hi ')).toBe(true)
  })
})
