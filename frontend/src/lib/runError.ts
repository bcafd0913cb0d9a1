// A failed turn in plain words.

import type {ErrorKind} from '../api/errors'

export interface RunErrorInfo {
  kind?: ErrorKind | string
  message: string
  /** Unix ms when a rate or usage limit resets. */
  retryAt?: number
}

export interface RunErrorView {
  title: string
  detail: string
  /** "Resets at 3:45 PM (in 12 min)", when a limit ended the turn. */
  reset?: string
  /** Whether signing in (Accounts) would fix it. */
  accounts: boolean
}

// The error agent.Recover stores on a reply whose process died mid-stream.
const INTERRUPTED_HINT = /^Maestro closed before/

const ACCOUNT_HINT = /\b(sign in|signed in|accounts?|api key|credentials?|unauthori[sz]ed|401)\b/i

function clockTime(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, {hour: 'numeric', minute: '2-digit'})
}

/** "in 12 min", "in 2 h 5 min", "in a moment". */
export function untilLabel(ms: number, now: number): string {
  const min = Math.round((ms - now) / 60_000)
  if (min < 1) return 'in a moment'
  if (min < 60) return `in ${min} min`
  const h = Math.floor(min / 60)
  return min % 60 ? `in ${h} h ${min % 60} min` : `in ${h} h`
}

export function resetLabel(retryAt: number, now: number): string {
  const d = new Date(retryAt)
  const sameDay = d.toDateString() === new Date(now).toDateString()
  const when = sameDay
    ? clockTime(retryAt)
    : d.toLocaleString(undefined, {weekday: 'short', hour: 'numeric', minute: '2-digit'})
  return retryAt > now ? `Resets at ${when} (${untilLabel(retryAt, now)})` : `The limit reset at ${when}`
}

export function describeRunError(e: RunErrorInfo, now: number = Date.now()): RunErrorView {
  const message = e.message.trim() || 'The reply stopped because of an error.'
  const accounts = e.kind === 'auth_required' || ACCOUNT_HINT.test(message)
  let title = 'The reply failed'
  if (e.kind === 'auth_required' || (accounts && !e.kind)) title = 'Sign-in needed'
  else if (e.retryAt) title = 'Usage limit reached'
  else if (e.kind === 'unavailable') title = 'The provider is unavailable'
  else if (e.kind === 'invalid') title = "The request couldn't be sent"
  else if (e.kind === 'interrupted' || INTERRUPTED_HINT.test(message)) title = 'The reply was interrupted'
  const detail = message.charAt(0).toUpperCase() + message.slice(1)
  return {
    title,
    detail: /[.!?]$/.test(detail) ? detail : `${detail}.`,
    reset: e.retryAt ? resetLabel(e.retryAt, now) : undefined,
    accounts,
  }
}
