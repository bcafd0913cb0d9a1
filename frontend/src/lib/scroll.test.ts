import {describe, expect, it} from 'vitest'
import {
  distanceFromBottom,
  isNearBottom,
  keepFromBottom,
  LOAD_EARLIER_MARGIN,
  nearTop,
  nextStuck,
  showJumpPill,
  STICK_THRESHOLD,
} from './scroll'

const at = (scrollTop: number, scrollHeight = 2000, clientHeight = 500) => ({scrollTop, scrollHeight, clientHeight})

describe('auto-scroll', () => {
  it('measures the distance to the bottom', () => {
    expect(distanceFromBottom(at(1500))).toBe(0)
    expect(distanceFromBottom(at(1400))).toBe(100)
    expect(distanceFromBottom({scrollTop: 0, scrollHeight: 300, clientHeight: 500})).toBe(0)
  })

  it('counts a little slack as the bottom', () => {
    expect(isNearBottom(at(1500 - STICK_THRESHOLD))).toBe(true)
    expect(isNearBottom(at(1500 - STICK_THRESHOLD - 1))).toBe(false)
  })

  it('unsticks when the reader scrolls up, and sticks again at the bottom', () => {
    expect(nextStuck(true, 1500, at(1200))).toBe(false)
    expect(nextStuck(false, 1200, at(1300))).toBe(false)
    expect(nextStuck(false, 1300, at(1490))).toBe(true)
  })

  it('stays stuck when the page, not the reader, moved the view up', () => {
    // A row above the view measured smaller: the list keeps its place and scrollTop drops.
    expect(nextStuck(true, 1500, at(1400), false)).toBe(true)
    expect(nextStuck(true, 1500, at(1400), true)).toBe(false)
  })

  it('stays stuck while content grows under a view that did not move up', () => {
    // New content made the page taller; scrollTop did not change.
    expect(nextStuck(true, 1500, at(1500, 2600))).toBe(true)
    // A smooth jump to the bottom passes through the middle going down.
    expect(nextStuck(true, 800, at(1000))).toBe(true)
  })

  it('shows the jump pill only when unstuck and away from the bottom', () => {
    expect(showJumpPill(false, at(1000))).toBe(true)
    expect(showJumpPill(true, at(1000))).toBe(false)
    expect(showJumpPill(false, at(1500))).toBe(false)
  })
})

describe('loading earlier messages', () => {
  it('asks for the page before once the reader is within the margin of the top', () => {
    expect(nearTop(at(LOAD_EARLIER_MARGIN))).toBe(true)
    expect(nearTop(at(LOAD_EARLIER_MARGIN + 1))).toBe(false)
    expect(nearTop(at(0))).toBe(true)
    // Rows that do not fill the view: load until they do.
    expect(nearTop({scrollTop: 0, scrollHeight: 300, clientHeight: 500})).toBe(true)
  })

  it('never asks while the view is not laid out', () => {
    expect(nearTop({scrollTop: 0, scrollHeight: 0, clientHeight: 0})).toBe(false)
  })

  it('keeps the rows on screen in place when a page is put above them', () => {
    // 100 px from the top of 3,000 px: 2,900 from the bottom; 3,000 px were added.
    expect(keepFromBottom(6000, 3000 - 100)).toBe(3100)
    expect(keepFromBottom(500, 900)).toBe(0)
  })
})
