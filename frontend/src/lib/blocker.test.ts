import {describe, expect, it} from 'vitest'
import type {ProviderModels} from '../api/types'
import {chatBlocker} from './blocker'

const list = (patch: Partial<Record<string, Partial<ProviderModels>>> = {}): ProviderModels[] => [
  {provider: 'anthropic', displayName: 'Claude', available: true, source: 'builtin', models: [{id: 'claude-sonnet-4-6', name: 'Claude Sonnet 4.6'}], ...patch.anthropic},
  {provider: 'openai', displayName: 'ChatGPT', available: false, source: 'builtin', models: [{id: 'gpt-5.5', name: 'GPT-5.5'}], ...patch.openai},
]

describe('chatBlocker', () => {
  it('blocks nothing while the models load, or when the chat can get a reply', () => {
    expect(chatBlocker({provider: 'anthropic', model: 'claude-sonnet-4-6'}, undefined)).toBeNull()
    expect(chatBlocker({provider: 'anthropic', model: 'claude-sonnet-4-6'}, list())).toBeNull()
    // No model yet, but a provider can answer: sending picks one.
    expect(chatBlocker({}, list())).toBeNull()
  })

  it('sends to Accounts when no provider can answer', () => {
    const none = list({anthropic: {available: false}})
    expect(chatBlocker({}, none)).toMatchObject({accounts: true, picker: false, text: expect.stringContaining('sign in to a provider')})
  })

  it("says the chat's provider is signed out, with both fixes", () => {
    expect(chatBlocker({provider: 'openai', model: 'gpt-5.5'}, list())).toEqual({
      text: 'This chat uses ChatGPT, which is signed out. Sign in or add an OpenAI API key in Accounts, or choose another model.',
      accounts: true,
      picker: true,
    })
  })

  it('sends to the picker when the model is refused for the account', () => {
    const refused = list({anthropic: {models: [{id: 'claude-sonnet-4-6', name: 'Claude Sonnet 4.6', unavailable: 'model: claude-sonnet-4-6'}]}})
    expect(chatBlocker({provider: 'anthropic', model: 'claude-sonnet-4-6'}, refused)).toMatchObject({accounts: false, picker: true})
  })
})
