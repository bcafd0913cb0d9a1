import {beforeEach, describe, expect, it} from 'vitest'
import type {ContextUse} from '../lib/usage'
import {useContextStore as useContext} from './context'

const use = (tokens: number): ContextUse => ({
  provider: 'anthropic',
  model: 'claude',
  tokens,
  toolTokens: 0,
  systemTokens: 0,
  window: 1000,
  reserve: 250,
  limit: 750,
  threshold: 600,
  reported: false,
})

beforeEach(() => useContext.setState({use: {}, totals: {}, compacting: {}}))

describe('the context store', () => {
  it('keeps the latest measurement per session', () => {
    const s = useContext.getState()
    s.measured('a', use(100))
    s.measured('b', use(200))
    s.measured('a', use(300))
    expect(useContext.getState().use).toEqual({a: use(300), b: use(200)})
  })

  it('follows a compaction from start through progress to its end, by run id', () => {
    const s = useContext.getState()
    s.started('a', {runId: 'r1', reason: 'manual', messages: 40, tokens: 9000, requests: 3})
    s.progress('other', 1, 3)
    expect(useContext.getState().compacting.a).toMatchObject({done: 0, requests: 3})
    s.progress('r1', 2, 3)
    s.stopping('a')
    expect(useContext.getState().compacting.a).toMatchObject({done: 2, requests: 3, stopping: true})
    s.ended('other')
    expect(useContext.getState().compacting.a).toBeDefined()
    s.ended('r1')
    expect(useContext.getState().compacting).toEqual({})
  })

  it('forgets a session', () => {
    const s = useContext.getState()
    s.measured('a', use(1))
    s.setTotals('a', {inputTokens: 5})
    s.started('a', {runId: 'r', reason: 'manual', messages: 1, tokens: 1, requests: 1})
    s.forget('a')
    expect(useContext.getState()).toMatchObject({use: {}, totals: {}, compacting: {}})
  })
})
