import {describe, expect, it} from 'vitest'
import {describeRunError, resetLabel, untilLabel} from './runError'

const now = new Date(2025, 5, 15, 12, 0, 0).getTime()

describe('describeRunError', () => {
  it('points to Accounts when signing in would help', () => {
    const v = describeRunError({kind: 'auth_required', message: 'Sign in to Gemini in Accounts or add an API key'}, now)
    expect(v).toMatchObject({title: 'Sign-in needed', detail: 'Sign in to Gemini in Accounts or add an API key.', accounts: true})
    // The words never decide: a message that mentions signing in, without
    // the kind, is just a failure (replies stored before kinds were kept).
    expect(describeRunError({message: 'anthropic: 401 unauthorized, sign in again'}, now)).toMatchObject({title: 'The reply failed', accounts: false})
  })

  it('explains limits with the reset time', () => {
    const v = describeRunError({kind: 'unavailable', message: 'usage limit reached', retryAt: now + 12 * 60_000}, now)
    expect(v.title).toBe('Usage limit reached')
    expect(v.reset).toMatch(/^Resets at .+ \(in 12 min\)$/)
    expect(v.accounts).toBe(false)
  })

  it('says a reply cut by a crash was interrupted', () => {
    const v = describeRunError({kind: 'interrupted', message: 'Maestro closed before this reply finished. Retry the turn to continue.'}, now)
    expect(v).toMatchObject({title: 'The reply was interrupted', accounts: false})
  })

  it('words other failures plainly', () => {
    expect(describeRunError({kind: 'internal', message: 'stream cut off'}, now)).toMatchObject({
      title: 'The reply failed', detail: 'Stream cut off.',
    })
    expect(describeRunError({kind: 'unavailable', message: 'the provider is overloaded.'}, now).title).toBe('The provider is unavailable')
    expect(describeRunError({message: ''}, now).detail).toBe('The reply stopped because of an error.')
  })

  it('gives each refusal a provider states precisely its own card', () => {
    const gate = describeRunError(
      {kind: 'unavailable', message: 'anthropic: entitlement (HTTP 400) third_party_gate: Third-party apps now draw from your extra usage',
        provider: 'anthropic', reason: 'entitlement', code: 'third_party_gate', detail: 'Third-party apps now draw from your extra usage, not your plan limits.'},
      now,
    )
    expect(gate).toMatchObject({title: "Your Claude plan doesn't cover Maestro", apiKeyFor: 'anthropic', accounts: false,
      quote: 'Third-party apps now draw from your extra usage, not your plan limits.'})
    expect(gate.detail).toMatch(/add an Anthropic API key, or turn on extra usage/)
    expect(describeRunError({message: 'x', provider: 'anthropic', reason: 'entitlement', code: 'extra_usage_exhausted'}, now).title)
      .toBe('Your Claude extra usage is used up')
    const model = describeRunError({message: 'x', provider: 'openai', reason: 'model_unavailable', detail: "The 'gpt-5' model is not supported when using Codex with a ChatGPT account."}, now)
    expect(model).toMatchObject({title: "This model isn't available to your account", chooseModel: true})
    expect(model.apiKeyFor).toBeUndefined()
    for (const code of ['instructions_not_valid', 'system_messages_not_allowed']) {
      expect(describeRunError({message: 'x', provider: 'openai', reason: 'invalid_request', code}, now))
        .toMatchObject({title: 'ChatGPT refused the instructions', apiKeyFor: 'openai'})
    }
    expect(describeRunError({message: 'x', provider: 'openai', reason: 'forbidden', code: 'originator_rejected'}, now))
      .toMatchObject({title: 'ChatGPT refused this app', apiKeyFor: 'openai'})
    // A card keeps the reset time of a limit.
    expect(describeRunError({message: 'x', provider: 'openai', reason: 'entitlement', retryAt: now + 60 * 60_000}, now).reset)
      .toMatch(/in 1 h/)
  })

  it('labels waits', () => {
    expect(untilLabel(now + 20_000, now)).toBe('in a moment')
    expect(untilLabel(now + 125 * 60_000, now)).toBe('in 2 h 5 min')
    expect(untilLabel(now + 120 * 60_000, now)).toBe('in 2 h')
    expect(resetLabel(now - 60_000, now)).toMatch(/^The limit reset at /)
  })
})
