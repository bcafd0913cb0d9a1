import {act, screen, waitFor, within} from '@testing-library/react'
import {describe, expect, it} from 'vitest'
import type {Account, Login} from '../../api/types'
import type {FakeOptions} from '../../test/fakeBackend'
import {renderApp} from '../../test/render'

async function openAccounts(opts: FakeOptions = {}) {
  const r = await renderApp(opts)
  await r.user.click(screen.getByTestId('nav-accounts'))
  // Sign-in buttons stay disabled until the accounts have loaded.
  await waitFor(() => expect(r.backend.Accounts.List).toHaveBeenCalled())
  return r
}

const card = (p: string) => screen.getByTestId(`account-${p}`)

describe('Accounts page', () => {
  it('offers sign-in for each provider, with the terms risk next to Claude and Gemini', async () => {
    await openAccounts()
    for (const [id, name] of [['gemini', 'Gemini'], ['anthropic', 'Claude'], ['openai', 'ChatGPT']]) {
      expect(within(card(id)).getByRole('heading', {name})).toBeInTheDocument()
      await waitFor(() => expect(screen.getByTestId(`signin-${id}`)).toBeEnabled())
      expect(screen.getByTestId(`signin-${id}`)).toHaveAccessibleName(`Sign in to ${name}`)
      expect(screen.getByTestId(`apikey-toggle-${id}`)).toHaveTextContent('Use an API key instead')
    }
    expect(screen.getByTestId('terms-note-anthropic')).toHaveTextContent(
      "Anthropic's terms restrict using subscription sign-in in third-party apps; an API key is the supported alternative.",
    )
    expect(screen.getByTestId('terms-note-gemini')).toHaveTextContent("Google's terms restrict using subscription sign-in")
    expect(screen.queryByTestId('terms-note-openai')).not.toBeInTheDocument()
  })

  it("names each key as its owner does and says where to get one; ChatGPT's card follows the key", async () => {
    const {user} = await openAccounts({accounts: [{provider: 'openai', method: 'apikey'}]})
    expect(card('openai')).toHaveTextContent("OpenAI's GPT models, through the OpenAI API.")
    expect(card('openai')).not.toHaveTextContent('through your ChatGPT account')
    await user.click(screen.getByTestId('apikey-toggle-anthropic'))
    expect(within(card('anthropic')).getByLabelText('Anthropic API key')).toBeInTheDocument()
    expect(screen.getByTestId('apikey-where-anthropic')).toHaveTextContent('Claude Console')
    await user.click(screen.getByTestId('apikey-toggle-openai'))
    expect(within(card('openai')).getByLabelText('OpenAI API key')).toBeInTheDocument()
    expect(screen.getByTestId('apikey-where-openai')).toHaveTextContent('OpenAI Platform')
  })

  it('signs in: waiting with a way back to the page, then the account from the event', async () => {
    const {backend, user} = await openAccounts()
    await user.click(await screen.findByTestId('signin-openai'))
    expect(backend.Accounts.SignIn).toHaveBeenCalledWith('openai')

    const waiting = await screen.findByTestId('signin-waiting-openai')
    expect(waiting).toHaveTextContent('Waiting for your browser…')
    expect(within(card('openai')).getByText('Signing in')).toBeInTheDocument()
    expect(screen.queryByTestId('signin-openai')).not.toBeInTheDocument()
    expect(screen.getByTestId('cancel-signin-openai')).toBeEnabled()
    expect(screen.queryByTestId('signin-code-openai')).not.toBeInTheDocument() // no paste flow for ChatGPT
    await user.click(screen.getByTestId('signin-reopen-openai'))
    expect(backend.Accounts.OpenSignInPage).toHaveBeenCalledWith('login-1', false)

    act(() => backend.emitLogin({loginId: 'login-1', provider: 'openai', status: 'exchanging'}))
    expect(waiting).toHaveTextContent('Finishing sign-in…')
    const account: Account = {provider: 'openai', method: 'oauth', email: 'ada@example.com', plan: 'plus', accountId: 'acc-1'}
    act(() => backend.emitLogin({loginId: 'login-1', provider: 'openai', status: 'signed_in', account}))

    expect(screen.getByTestId('account-email-openai')).toHaveTextContent('ada@example.com')
    expect(screen.getByTestId('account-plan-openai')).toHaveTextContent('Plus')
    expect(screen.getByTestId('account-method-openai')).toHaveTextContent('Signed in with ChatGPT')
    expect(within(card('openai')).getByText('Signed in')).toBeInTheDocument()
    expect(screen.getByTestId('signout-openai')).toBeEnabled()
    expect(screen.queryByTestId('signin-waiting-openai')).not.toBeInTheDocument()
  })

  it('with no browser, shows the link and the paste flow at once instead of "the page that opened"', async () => {
    const {backend, user} = await openAccounts()
    const login: Login = {loginId: 'login-7', provider: 'anthropic', authUrl: 'https://claude.ai/oauth/authorize?state=x',
      manual: true, browserError: 'no browser could be opened: none of xdg-open, x-www-browser, www-browser, sensible-browser is installed'}
    backend.Accounts.SignIn.mockResolvedValueOnce(login)
    await user.click(await screen.findByTestId('signin-anthropic'))
    const waiting = await screen.findByTestId('signin-waiting-anthropic')
    expect(waiting).not.toHaveTextContent('the page that opened in your browser')
    expect(within(waiting).getByTestId('signin-no-browser-anthropic')).toHaveTextContent("Maestro couldn't open a browser.")
    expect(within(waiting).getByTestId('signin-link-anthropic')).toHaveTextContent('https://claude.ai/oauth/authorize?state=x')
    expect(waiting).toHaveTextContent('none of xdg-open')
    expect(within(waiting).getByTestId('signin-code-anthropic')).toBeInTheDocument()
  })

  it('says so on the card when reopening the page finds no browser', async () => {
    const {backend, user} = await openAccounts()
    await user.click(await screen.findByTestId('signin-openai'))
    backend.Accounts.OpenSignInPage.mockRejectedValueOnce(new Error(JSON.stringify({kind: 'unavailable', message: 'no browser could be opened: xdg-open: no method available'})))
    await user.click(await screen.findByTestId('signin-reopen-openai'))
    expect(await screen.findByTestId('signin-no-browser-openai')).toHaveTextContent('xdg-open: no method available')
    expect(screen.queryByText('[object Object]')).not.toBeInTheDocument()
  })

  it('shows the Gemini project', async () => {
    await openAccounts({accounts: [{provider: 'gemini', method: 'oauth', email: 'g@example.com', plan: 'free-tier', project: 'maestro-1234'}]})
    expect(await screen.findByTestId('account-project-gemini')).toHaveTextContent('maestro-1234')
    expect(screen.getByTestId('account-method-gemini')).toHaveTextContent('Signed in with Google')
    expect(screen.queryByTestId('terms-note-gemini')).not.toBeInTheDocument()
  })

  it('cancels a sign-in', async () => {
    const {backend, user} = await openAccounts()
    await user.click(await screen.findByTestId('signin-gemini'))
    await user.click(await screen.findByTestId('cancel-signin-gemini'))
    expect(backend.Accounts.CancelSignIn).toHaveBeenCalledWith('login-1')
    expect(await screen.findByTestId('signin-gemini')).toBeEnabled()
    expect(screen.queryByTestId('account-error-gemini')).not.toBeInTheDocument()
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument()
  })

  it('takes a pasted code for Claude', async () => {
    const {backend, user} = await openAccounts()
    await user.click(await screen.findByTestId('signin-anthropic'))
    await user.click(await screen.findByTestId('signin-paste-page-anthropic'))
    expect(backend.Accounts.OpenSignInPage).toHaveBeenCalledWith('login-1', true)
    const input = screen.getByTestId('signin-code-anthropic')
    await user.type(input, '  abc123#state456 {Enter}')
    expect(backend.Accounts.SubmitSignInCode).toHaveBeenCalledWith('login-1', 'abc123#state456')
    expect(input).toHaveValue('')
  })

  it('explains a failed sign-in in plain words', async () => {
    const {backend, user} = await openAccounts()
    await user.click(await screen.findByTestId('signin-anthropic'))
    await screen.findByTestId('signin-waiting-anthropic')
    const message = "The sign-in page didn't send Maestro back a code. Try again, or paste the code instead."
    act(() => backend.emitLogin({loginId: 'login-1', provider: 'anthropic', status: 'failed', error: {kind: 'auth_required', message}}))
    expect(screen.getByTestId('account-error-anthropic')).toHaveTextContent(message)
    // Said once, on the card: no toast repeats it.
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument()
    expect(screen.getByTestId('signin-anthropic')).toBeEnabled()
    // Trying again clears the old error.
    await user.click(screen.getByTestId('signin-anthropic'))
    expect(screen.queryByTestId('account-error-anthropic')).not.toBeInTheDocument()
  })

  it('saves an API key behind a masked field and shows it masked afterwards', async () => {
    const {backend, user} = await openAccounts()
    const key = 'sk-proj-0123456789abcdefghijwxyz'
    await user.click(await screen.findByTestId('apikey-toggle-openai'))
    const input = screen.getByTestId('apikey-input-openai')
    expect(input).toHaveAttribute('type', 'password')
    expect(input).toHaveFocus()
    expect(screen.getByTestId('apikey-save-openai')).toBeDisabled()
    await user.type(input, key)
    await user.click(screen.getByRole('button', {name: 'Show the key'}))
    expect(input).toHaveAttribute('type', 'text')
    await user.click(screen.getByRole('button', {name: 'Hide the key'}))
    expect(input).toHaveAttribute('type', 'password')
    await user.click(screen.getByTestId('apikey-save-openai'))

    expect(backend.Accounts.SetAPIKey).toHaveBeenCalledWith('openai', key)
    expect(await screen.findByTestId('apikey-hint-openai')).toHaveTextContent('sk-…wxyz')
    expect(screen.getByTestId('account-method-openai')).toHaveTextContent('Using an API key')
    expect(screen.queryByTestId('apikey-input-openai')).not.toBeInTheDocument()
    expect(document.body.innerHTML).not.toContain('0123456789abcdefghij')
    expect(screen.getByTestId('apikey-remove-openai')).toBeEnabled()
  })

  it('keeps the field and shows why when the key is refused', async () => {
    const {backend, user} = await openAccounts()
    backend.Accounts.SetAPIKey.mockRejectedValueOnce({kind: 'invalid', message: 'the API key is too short (9 characters): API keys have at least 16'})
    await user.click(await screen.findByTestId('apikey-toggle-gemini'))
    await user.type(screen.getByTestId('apikey-input-gemini'), 'AIzaShort{Enter}')
    expect(await screen.findByTestId('account-error-gemini')).toHaveTextContent('the API key is too short')
    expect(screen.getByTestId('apikey-input-gemini')).toHaveValue('AIzaShort')
  })

  it('signs out', async () => {
    const {backend, user} = await openAccounts({accounts: [{provider: 'anthropic', method: 'oauth', email: 'c@example.com', plan: "Ada's Organization"}]})
    expect(await screen.findByTestId('account-email-anthropic')).toHaveTextContent('c@example.com')
    expect(within(card('anthropic')).getByText('Organization')).toBeInTheDocument()
    expect(screen.getByTestId('account-plan-anthropic')).toHaveTextContent("Ada's Organization")
    await user.click(screen.getByTestId('signout-anthropic'))
    expect(backend.Accounts.SignOut).toHaveBeenCalledWith('anthropic')
    expect(await screen.findByTestId('signin-anthropic')).toBeInTheDocument()
    expect(screen.queryByTestId('account-email-anthropic')).not.toBeInTheDocument()
  })

  it('removes an API key', async () => {
    const {backend, user} = await openAccounts({accounts: [{provider: 'gemini', method: 'apikey', keyHint: 'AIza…1234'}]})
    expect(await screen.findByTestId('apikey-hint-gemini')).toHaveTextContent('AIza…1234')
    await user.click(screen.getByTestId('apikey-remove-gemini'))
    expect(backend.Accounts.RemoveAPIKey).toHaveBeenCalledWith('gemini')
    expect(await screen.findByTestId('signin-gemini')).toBeInTheDocument()
  })

  it('still offers sign-in when the accounts cannot be read', async () => {
    const r = await renderApp()
    r.backend.Accounts.List.mockRejectedValueOnce({kind: 'unavailable', message: 'keychain unavailable: no Secret Service is running'})
    await r.user.click(screen.getByTestId('nav-accounts'))
    expect(await screen.findByTestId('toast')).toHaveTextContent('no Secret Service is running')
    expect(screen.getByTestId('signin-openai')).toBeEnabled()
  })
})
