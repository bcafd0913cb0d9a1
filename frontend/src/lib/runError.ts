// A failed turn in plain words.

import type {ErrorKind} from '../api/errors'

export interface RunErrorInfo {
  kind?: ErrorKind | string
  message: string
  /** Unix ms when a rate or usage limit resets. */
  retryAt?: number
  /** Set when a provider refused the request (see AppError). */
  provider?: string
  reason?: string
  code?: string
  detail?: string
}

export interface RunErrorView {
  title: string
  detail: string
  /** The provider's own words, when the card explains them in Maestro's. */
  quote?: string
  /** "Resets at 3:45 PM (in 12 min)", when a limit ended the turn. */
  reset?: string
  /** Whether signing in (Accounts) would fix it. */
  accounts: boolean
  /** Offer this provider's API-key form: its subscription sign-in cannot do this. */
  apiKeyFor?: string
  /** Offer the model picker: another model will work. */
  chooseModel?: boolean
}

/** How each provider's owner names its API key, with its article. */
export const API_KEY_NAMES: Record<string, string> = {
  anthropic: 'an Anthropic API key',
  openai: 'an OpenAI API key',
  gemini: 'a Gemini API key',
}

/**
 * Cards for the refusals a provider states precisely (docs/providers/): the
 * provider, the reason (what to do about it) and its code pick the card.
 */
function providerCard(e: RunErrorInfo): Omit<RunErrorView, 'reset'> | undefined {
  const quote = e.detail?.trim() || undefined
  const sub = e.provider === 'anthropic' ? 'Claude' : e.provider === 'openai' ? 'ChatGPT' : 'Gemini'
  const key = API_KEY_NAMES[e.provider ?? ''] ?? 'an API key'
  switch (e.reason) {
    case 'entitlement':
      if (e.code === 'extra_usage_exhausted')
        return {
          title: 'Your Claude extra usage is used up',
          detail: `Anthropic bills third-party apps such as Maestro from your plan's extra usage, and none is left. Add ${key}, or add extra usage to your Claude plan.`,
          quote, accounts: false, apiKeyFor: e.provider,
        }
      if (e.provider === 'anthropic')
        return {
          title: "Your Claude plan doesn't cover Maestro",
          detail: `Anthropic now bills third-party apps from your plan's extra usage rather than its limits. To go on, add ${key}, or turn on extra usage for your Claude plan.`,
          quote, accounts: false, apiKeyFor: e.provider,
        }
      return {
        title: `Your ${sub} plan doesn't include this`,
        detail: `Your plan does not cover this use. Add ${key}, or change your plan.`,
        quote, accounts: false, apiKeyFor: e.provider,
      }
    case 'model_unavailable':
      return {
        title: "This model isn't available to your account",
        detail: `${sub} does not serve this model to your account. Choose another model for this chat, then retry.`,
        quote, accounts: false, chooseModel: true,
      }
  }
  if (e.provider === 'openai' && (e.code === 'instructions_not_valid' || e.code === 'system_messages_not_allowed'))
    return {
      title: 'ChatGPT refused the instructions',
      detail: `The ChatGPT sign-in accepts only the instructions OpenAI's own apps send. Remove this chat's system prompt, or use ${key}.`,
      quote, accounts: false, apiKeyFor: e.provider,
    }
  if (e.provider === 'openai' && e.code === 'originator_rejected')
    return {
      title: 'ChatGPT refused this app',
      detail: `The ChatGPT sign-in is accepted only from OpenAI's own apps right now. Use ${key} instead.`,
      quote, accounts: false, apiKeyFor: e.provider,
    }
  return undefined
}

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
  const reset = e.retryAt ? resetLabel(e.retryAt, now) : undefined
  const card = providerCard(e)
  if (card) return {...card, reset}
  // The kind, reason and reset time were classified when the turn failed
  // (and are stored with it): the title never depends on the message's words.
  const message = e.message.trim() || 'The reply stopped because of an error.'
  const accounts = e.kind === 'auth_required'
  let title = 'The reply failed'
  if (accounts) title = 'Sign-in needed'
  else if (e.retryAt) title = 'Usage limit reached'
  else if (e.kind === 'unavailable') title = 'The provider is unavailable'
  else if (e.kind === 'invalid') title = "The request couldn't be sent"
  else if (e.kind === 'interrupted') title = 'The reply was interrupted'
  const detail = message.charAt(0).toUpperCase() + message.slice(1)
  return {
    title,
    detail: /[.!?]$/.test(detail) ? detail : `${detail}.`,
    reset,
    accounts,
  }
}
