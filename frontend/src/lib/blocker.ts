// Whether a chat can get a reply at all, and if not, why and what fixes it.
// The composer shows it instead of letting a message go into a dead end, and
// Retry is not offered while it holds (it could not help).

import type {ProviderModels} from '../api/types'

export interface ChatBlocker {
  /** What is wrong, in a sentence. */
  text: string
  /** Signing in or adding a key in Accounts fixes it. */
  accounts: boolean
  /** Another model (the picker) fixes it. */
  picker: boolean
}

const KEY_NAMES: Record<string, string> = {anthropic: 'an Anthropic', openai: 'an OpenAI', gemini: 'a Gemini'}

/**
 * providers is the model picker's list (undefined while it loads: nothing
 * is blocked until it is known). A chat with no model yet is not blocked
 * when some provider can answer: sending picks the starting model.
 */
export function chatBlocker(session: {provider?: string; model?: string} | undefined, providers: readonly ProviderModels[] | undefined): ChatBlocker | null {
  if (!session || !providers || providers.length === 0) return null
  if (!providers.some((p) => p.available)) {
    return {text: 'To get replies, sign in to a provider or add an API key in Accounts.', accounts: true, picker: false}
  }
  if (!session.provider || !session.model) return null
  const p = providers.find((x) => x.provider === session.provider)
  if (!p) return null
  if (!p.available) {
    return {
      text: `This chat uses ${p.displayName}, which is signed out. Sign in or add ${KEY_NAMES[p.provider] ?? 'an'} API key in Accounts, or choose another model.`,
      accounts: true,
      picker: true,
    }
  }
  const m = p.models.find((x) => x.id === session.model)
  if (m?.unavailable) {
    return {text: `${p.displayName} does not serve this chat's model to your account. Choose another model.`, accounts: false, picker: true}
  }
  return null
}
