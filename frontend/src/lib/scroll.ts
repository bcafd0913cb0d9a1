// Auto-scroll rules for the conversation: follow new content while the
// reader is at the bottom; once they scroll up, stay put and offer a
// "jump to latest" pill instead.

export interface ScrollMetrics {
  scrollTop: number
  scrollHeight: number
  clientHeight: number
}

/** How close (px) to the bottom still counts as "at the bottom". */
export const STICK_THRESHOLD = 48

export function distanceFromBottom(m: ScrollMetrics): number {
  return Math.max(0, m.scrollHeight - m.clientHeight - m.scrollTop)
}

export function isNearBottom(m: ScrollMetrics, threshold = STICK_THRESHOLD): boolean {
  return distanceFromBottom(m) <= threshold
}

/**
 * Whether the view should stay glued to the bottom after a scroll event.
 * A scroll up (scrollTop decreased) away from the bottom unsticks; reaching
 * the bottom again sticks. Growth of the content alone never unsticks.
 */
export function nextStuck(wasStuck: boolean, prevTop: number, m: ScrollMetrics, threshold = STICK_THRESHOLD): boolean {
  if (isNearBottom(m, threshold)) return true
  if (m.scrollTop < prevTop) return false
  return wasStuck
}

/** Whether to show the "jump to latest" pill. */
export function showJumpPill(stuck: boolean, m: ScrollMetrics, threshold = STICK_THRESHOLD): boolean {
  return !stuck && !isNearBottom(m, threshold)
}
