import {describe, expect, it} from 'vitest'
import {type ContextUse, formatTokens, meterLevel, percent, shares, turnUsages, usageParts, usageTitle} from './usage'

describe('formatTokens', () => {
  it.each([
    [0, '0'],
    [950, '950'],
    [1000, '1k'],
    [1234, '1.2k'],
    [9960, '10k'],
    [34_499, '34k'],
    [999_600, '1M'],
    [1_100_000, '1.1M'],
    [-5, '0'],
  ])('%d → %s', (n, want) => expect(formatTokens(n)).toBe(want))
})

describe('percent', () => {
  it.each([
    [0, '0 %'],
    [0.001, '1 %'],
    [0.345, '35 %'],
    [1, '100 %'],
    [Number.NaN, '0 %'],
  ])('%d → %s', (n, want) => expect(percent(n)).toBe(want))
})

describe('usage line', () => {
  it('shows cached tokens only where the provider reported them', () => {
    expect(usageParts({inputTokens: 1234, outputTokens: 56})).toEqual(['1.2k in', '56 out'])
    expect(usageParts({inputTokens: 12_000, outputTokens: 300, cacheReadTokens: 10_000})).toEqual(['12k in', '300 out', '10k cached'])
    expect(usageTitle({inputTokens: 12_000, outputTokens: 300, cacheReadTokens: 10_000, reasoningTokens: 120})).toBe(
      'Input: 12,000 tokens\nOutput: 300 tokens\nof which reasoning: 120\nRead from the cache: 10,000',
    )
  })

  it('sums a turn over its steps and skips what reported nothing', () => {
    const got = turnUsages([
      {role: 'user', runId: 'r1'},
      {role: 'assistant', runId: 'r1', usage: {inputTokens: 100, outputTokens: 10}},
      {role: 'tool', runId: 'r1', usage: {inputTokens: 999}},
      {role: 'assistant', runId: 'r1', usage: {inputTokens: 150, outputTokens: 20, cacheReadTokens: 90}},
      {role: 'assistant', runId: 'r2'},
      {role: 'assistant', usage: {inputTokens: 5}},
    ])
    expect([...got.keys()]).toEqual(['r1'])
    expect(got.get('r1')).toMatchObject({inputTokens: 250, outputTokens: 30, cacheReadTokens: 90})
  })
})

describe('context meter', () => {
  const use = (tokens: number, over: Partial<ContextUse> = {}): ContextUse => ({
    provider: 'anthropic',
    model: 'claude',
    tokens,
    toolTokens: 20_000,
    systemTokens: 1_000,
    window: 200_000,
    reserve: 50_000,
    limit: 150_000,
    threshold: 120_000,
    reported: false,
    ...over,
  })

  it.each([
    [50_000, 'ok'],
    [120_000, 'ok'],
    [120_001, 'near'],
    [150_001, 'full'],
  ] as const)('%d tokens read %s', (tokens, want) => expect(meterLevel(use(tokens))).toBe(want))

  it('gives the shares of the window', () => {
    expect(shares(use(50_000))).toEqual({used: 0.25, tools: 0.1, threshold: 0.6})
    expect(shares(use(300_000)).used).toBe(1)
    expect(shares(use(10, {window: 0}))).toEqual({used: 0, tools: 0, threshold: 0})
  })
})
