// Compact relative times for the sessions list ("now", "2m", "3h", "5d").

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const WEEK = 7 * DAY
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** Formats ms (Unix milliseconds) relative to now. Unknown times give "". */
export function relativeTime(ms: number, now: number = Date.now()): string {
  if (!Number.isFinite(ms) || ms <= 0) return ''
  const diff = now - ms
  if (diff < 45_000) return 'now'
  if (diff < HOUR) return `${Math.max(1, Math.round(diff / MINUTE))}m`
  if (diff < DAY) return `${Math.floor(diff / HOUR)}h`
  if (diff < WEEK) return `${Math.floor(diff / DAY)}d`
  if (diff < 5 * WEEK) return `${Math.floor(diff / WEEK)}w`
  const d = new Date(ms)
  const label = `${MONTHS[d.getMonth()]} ${d.getDate()}`
  return d.getFullYear() === new Date(now).getFullYear() ? label : `${label}, ${d.getFullYear()}`
}

/** A full local date and time for tooltips. */
export function fullTime(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return ''
  return new Date(ms).toLocaleString(undefined, {dateStyle: 'medium', timeStyle: 'short'})
}

function startOfDay(ms: number): number {
  const d = new Date(ms)
  d.setHours(0, 0, 0, 0)
  return d.getTime()
}

export interface Group<T> {
  label: string
  items: T[]
}

/**
 * Splits items (already sorted newest first) into Today, Yesterday,
 * Previous 7 days, Previous 30 days and Older by local calendar day,
 * keeping their order and dropping empty groups.
 */
export function groupByDay<T>(items: readonly T[], time: (item: T) => number, now: number = Date.now()): Group<T>[] {
  const today = startOfDay(now)
  const bounds: [string, number][] = [
    ['Today', today],
    ['Yesterday', today - DAY],
    ['Previous 7 days', today - 7 * DAY],
    ['Previous 30 days', today - 30 * DAY],
    ['Older', -Infinity],
  ]
  const groups: Group<T>[] = bounds.map(([label]) => ({label, items: []}))
  for (const item of items) {
    const t = time(item)
    const i = bounds.findIndex(([, start]) => t >= start)
    groups[i === -1 ? groups.length - 1 : i].items.push(item)
  }
  return groups.filter((g) => g.items.length > 0)
}
