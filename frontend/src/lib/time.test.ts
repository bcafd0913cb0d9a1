import {describe, expect, it} from 'vitest'
import {groupByDay, relativeTime} from './time'

const now = new Date(2025, 5, 15, 12, 0, 0).getTime() // 15 Jun 2025, 12:00 local
const min = 60_000
const hour = 60 * min
const day = 24 * hour

describe('relativeTime', () => {
  it('formats compact relative times', () => {
    expect(relativeTime(now - 10_000, now)).toBe('now')
    expect(relativeTime(now - 2 * min, now)).toBe('2m')
    expect(relativeTime(now - 59 * min, now)).toBe('59m')
    expect(relativeTime(now - 3 * hour, now)).toBe('3h')
    expect(relativeTime(now - 2 * day, now)).toBe('2d')
    expect(relativeTime(now - 15 * day, now)).toBe('2w')
  })

  it('falls back to a date for old times', () => {
    expect(relativeTime(new Date(2025, 0, 4).getTime(), now)).toBe('Jan 4')
    expect(relativeTime(new Date(2023, 10, 20).getTime(), now)).toBe('Nov 20, 2023')
  })

  it('treats future times as now and unknown times as blank', () => {
    expect(relativeTime(now + 5 * min, now)).toBe('now')
    expect(relativeTime(0, now)).toBe('')
    expect(relativeTime(Number.NaN, now)).toBe('')
  })
})

describe('groupByDay', () => {
  it('groups by local calendar day and keeps order', () => {
    const items = [
      {id: 'a', t: now - 5 * min},
      {id: 'b', t: new Date(2025, 5, 15, 0, 1).getTime()},
      {id: 'c', t: new Date(2025, 5, 14, 23, 59).getTime()},
      {id: 'd', t: now - 4 * day},
      {id: 'e', t: now - 20 * day},
      {id: 'f', t: now - 400 * day},
    ]
    const groups = groupByDay(items, (i) => i.t, now)
    expect(groups.map((g) => [g.label, g.items.map((i) => i.id)])).toEqual([
      ['Today', ['a', 'b']],
      ['Yesterday', ['c']],
      ['Previous 7 days', ['d']],
      ['Previous 30 days', ['e']],
      ['Older', ['f']],
    ])
  })

  it('drops empty groups', () => {
    expect(groupByDay([], () => 0, now)).toEqual([])
    expect(groupByDay([{t: now}], (i) => i.t, now).map((g) => g.label)).toEqual(['Today'])
  })
})
