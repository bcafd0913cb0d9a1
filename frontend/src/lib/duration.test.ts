import {describe, expect, it} from 'vitest'
import {formatDuration, thoughtLabel} from './duration'

describe('formatDuration', () => {
  it('picks a unit by size', () => {
    expect(formatDuration(0)).toBe('0 ms')
    expect(formatDuration(820)).toBe('820 ms')
    expect(formatDuration(1440)).toBe('1.4 s')
    expect(formatDuration(12_400)).toBe('12 s')
    expect(formatDuration(125_000)).toBe('2m 05s')
    expect(formatDuration(3_900_000)).toBe('1h 05m')
  })

  it('is blank for unknown values', () => {
    expect(formatDuration(undefined)).toBe('')
    expect(formatDuration(-5)).toBe('')
    expect(formatDuration(Number.NaN)).toBe('')
  })
})

describe('thoughtLabel', () => {
  it('rounds to whole seconds, at least one', () => {
    expect(thoughtLabel(200)).toBe('Thought for 1s')
    expect(thoughtLabel(12_400)).toBe('Thought for 12s')
    expect(thoughtLabel(75_000)).toBe('Thought for 1m 15s')
    expect(thoughtLabel(undefined)).toBe('Thoughts')
  })
})
