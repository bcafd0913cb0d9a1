import {describe, expect, it} from 'vitest'
import type {Account, Login} from '../api/types'
import {installFakeBackend} from '../test/fakeBackend'
import {syncAccounts, useAccounts} from './accounts'
import {useToasts} from './toasts'

const chatgpt: Account = {provider: 'openai', method: 'oauth', email: 'ada@example.com', plan: 'plus', accountId: 'acc-1'}

const st = () => useAccounts.getState()

function deferred<T>() {
  let resolve!: (v: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return {promise, resolve}
}

describe('accounts store', () => {
  it('loads the accounts by provider', async () => {
    installFakeBackend({accounts: [chatgpt, {provider: 'gemini', method: 'apikey', keyHint: 'AIza…1234'}]})
    expect(st().loaded).toBe(false)
    await st().load()
    expect(st().loaded).toBe(true)
    expect(st().accounts.openai?.email).toBe('ada@example.com')
    expect(st().accounts.gemini?.keyHint).toBe('AIza…1234')
    expect(st().accounts.anthropic).toBeUndefined()
  })

  it('follows a sign-in from waiting to signed in through events', async () => {
    const backend = installFakeBackend()
    const stop = syncAccounts()
    await st().signIn('openai')
    expect(backend.Accounts.SignIn).toHaveBeenCalledWith('openai')
    const login = st().logins.openai!
    expect(login).toMatchObject({loginId: 'login-1', status: 'waiting', manual: false})
    expect(login.authUrl).toContain('https://auth.example/openai/')

    backend.emitLogin({loginId: 'login-1', provider: 'openai', status: 'exchanging'})
    expect(st().logins.openai?.status).toBe('exchanging')
    backend.emitLogin({loginId: 'login-1', provider: 'openai', status: 'signed_in', account: chatgpt})
    expect(st().logins.openai).toBeUndefined()
    expect(st().accounts.openai).toEqual(chatgpt)
    expect(st().errors.openai).toBeUndefined()
    stop()
    expect(backend.listenerCount('auth:login')).toBe(0)
  })

  it('keeps the outcome of a sign-in that ends before SignIn answers', async () => {
    const backend = installFakeBackend()
    syncAccounts()
    backend.Accounts.SignIn.mockImplementationOnce(async () => {
      backend.emitLogin({loginId: 'login-9', provider: 'gemini', status: 'waiting'})
      backend.emitLogin({loginId: 'login-9', provider: 'gemini', status: 'signed_in', account: {provider: 'gemini', method: 'oauth', email: 'g@example.com'}})
      return {loginId: 'login-9', provider: 'gemini', authUrl: 'https://auth.example/g', manual: false}
    })
    await st().signIn('gemini')
    expect(st().logins.gemini).toBeUndefined()
    expect(st().accounts.gemini?.email).toBe('g@example.com')
  })

  it('cancels, without an error', async () => {
    const backend = installFakeBackend()
    syncAccounts()
    await st().signIn('anthropic')
    expect(st().logins.anthropic?.manual).toBe(true)
    await st().cancelSignIn('anthropic')
    expect(backend.Accounts.CancelSignIn).toHaveBeenCalledWith('login-1')
    expect(st().logins.anthropic).toBeUndefined()
    expect(st().errors.anthropic).toBeUndefined()
    expect(useToasts.getState().toasts).toHaveLength(0)
  })

  it('sends a cancel pressed before SignIn answered once it does', async () => {
    const backend = installFakeBackend()
    const answer = deferred<Login>()
    backend.Accounts.SignIn.mockImplementationOnce(() => answer.promise)
    const started = st().signIn('gemini')
    expect(st().logins.gemini?.status).toBe('starting')
    await st().cancelSignIn('gemini')
    expect(backend.Accounts.CancelSignIn).not.toHaveBeenCalled()
    backend.state.logins.set('login-5', 'gemini')
    answer.resolve({loginId: 'login-5', provider: 'gemini', authUrl: 'https://auth.example/g', manual: false})
    await started
    expect(backend.Accounts.CancelSignIn).toHaveBeenCalledWith('login-5')
    expect(st().logins.gemini).toBeUndefined()
  })

  it('reports a failed sign-in in plain words, on the card only', async () => {
    const backend = installFakeBackend()
    syncAccounts()
    await st().signIn('gemini')
    const message = 'Google refused the sign-in: the authorization code has expired. Try again.'
    backend.emitLogin({loginId: 'login-1', provider: 'gemini', status: 'failed', error: {kind: 'auth_required', message}})
    expect(st().logins.gemini).toBeUndefined()
    expect(st().errors.gemini).toBe(message)
    expect(useToasts.getState().toasts).toEqual([])
  })

  it('reports a SignIn that is refused', async () => {
    const backend = installFakeBackend()
    backend.Accounts.SignIn.mockRejectedValueOnce({kind: 'unavailable', message: 'keychain unavailable: unlock the login keyring'})
    await st().signIn('openai')
    expect(st().logins.openai).toBeUndefined()
    expect(st().errors.openai).toBe('keychain unavailable: unlock the login keyring')
  })

  it('ignores the end of a login it no longer shows, but keeps a real sign-in', async () => {
    const backend = installFakeBackend()
    syncAccounts()
    await st().signIn('openai')
    backend.emitLogin({loginId: 'login-0', provider: 'openai', status: 'failed', error: {kind: 'internal', message: 'old'}})
    expect(st().logins.openai?.loginId).toBe('login-1')
    expect(st().errors.openai).toBeUndefined()
    backend.emitLogin({loginId: 'login-x', provider: 'anthropic', status: 'signed_in', account: {provider: 'anthropic', method: 'oauth', email: 'c@example.com'}})
    expect(st().accounts.anthropic?.email).toBe('c@example.com')
  })

  it('saves an API key and keeps only the masked hint', async () => {
    const backend = installFakeBackend()
    expect(await st().saveKey('openai', '   ')).toBe(false)
    expect(backend.Accounts.SetAPIKey).not.toHaveBeenCalled()
    expect(st().errors.openai).toBe('Paste an API key first.')

    expect(await st().saveKey('openai', 'sk-proj-abcdefghijklmnopqrstwxyz')).toBe(true)
    expect(st().accounts.openai).toEqual({provider: 'openai', method: 'apikey', keyHint: 'sk-…wxyz'})
    expect(st().errors.openai).toBeUndefined()
    expect(JSON.stringify(st())).not.toContain('abcdefghijklmnop')
  })

  it('reports a refused API key', async () => {
    const backend = installFakeBackend()
    backend.Accounts.SetAPIKey.mockRejectedValueOnce({kind: 'invalid', message: 'the API key has spaces or line breaks inside'})
    expect(await st().saveKey('anthropic', 'sk-ant abc')).toBe(false)
    expect(st().errors.anthropic).toBe('the API key has spaces or line breaks inside')
    expect(st().busy.anthropic).toBeUndefined()
  })

  it('signs out and reloads what is left', async () => {
    const backend = installFakeBackend({accounts: [chatgpt]})
    await st().load()
    await st().signOut('openai')
    expect(backend.Accounts.SignOut).toHaveBeenCalledWith('openai')
    expect(backend.Accounts.List).toHaveBeenCalledTimes(2)
    expect(st().accounts.openai).toBeUndefined()
  })
})
