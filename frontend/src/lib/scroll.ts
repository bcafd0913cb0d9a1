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
 * A scroll up (scrollTop decreased) away from the bottom unsticks when the
 * reader made it (byUser: a wheel, a key, a touch, the scroll bar); one the
 * page made (a row above measured smaller and the list keeping its place,
 * an app card resizing) does not. Reaching the bottom again sticks. Growth
 * of the content alone never unsticks.
 */
export function nextStuck(wasStuck: boolean, prevTop: number, m: ScrollMetrics, byUser = true, threshold = STICK_THRESHOLD): boolean {
  if (isNearBottom(m, threshold)) return true
  if (byUser && m.scrollTop < prevTop) return false
  return wasStuck
}

/** Whether to show the "jump to latest" pill. */
export function showJumpPill(stuck: boolean, m: ScrollMetrics, threshold = STICK_THRESHOLD): boolean {
  return !stuck && !isNearBottom(m, threshold)
}

/**
 * How close (px) to the top of the loaded rows the reader may come before
 * the page before them is fetched: about a screen, so it is usually there
 * before they reach the top.
 */
export const LOAD_EARLIER_MARGIN = 800

/**
 * Whether to fetch the messages before the loaded ones: the view is laid
 * out (a zero height means it is not, e.g. hidden or in a test DOM) and its
 * top is within the margin, by scrolling up or because the rows do not fill it.
 */
export function nearTop(m: ScrollMetrics, margin = LOAD_EARLIER_MARGIN): boolean {
  return m.clientHeight > 0 && m.scrollTop <= margin
}

/**
 * The scrollTop that keeps what the reader sees in place after rows were
 * put above it: the same distance from the bottom as before.
 */
export function keepFromBottom(scrollHeight: number, fromBottom: number): number {
  return Math.max(0, scrollHeight - fromBottom)
}
