import {screen, waitFor, within} from '@testing-library/react'
import {describe, expect, it} from 'vitest'
import {session} from '../test/fakeBackend'
import {renderApp, sessionItem, sessionItems, titles} from '../test/render'

const three = () => [session('s1', 'Trip to Lisbon', 5), session('s2', 'Refactor the parser', 60), session('s3', 'Old notes', 3000)]

describe('creating sessions', () => {
  it('New chat adds the session at the top and selects it', async () => {
    const {backend, user} = await renderApp({sessions: three()})
    await user.click(screen.getByTestId('new-session'))
    expect(backend.Sessions.Create).toHaveBeenCalledWith('')
    await waitFor(() => expect(titles()[0]).toBe('New chat'))
    const created = sessionItems()[0]
    expect(created).toHaveAttribute('data-active', 'true')
    expect(sessionItem('s1')).not.toHaveAttribute('data-active')
    expect(backend.Sessions.Open).toHaveBeenLastCalledWith(created.dataset.sessionId)
    expect(screen.getByTestId('chat-title')).toHaveTextContent('New chat')
    expect(screen.getByTestId('composer')).toHaveFocus()
  })

  it('Ctrl+N starts a new chat', async () => {
    const {backend, user} = await renderApp({sessions: three()})
    await user.keyboard('{Control>}n{/Control}')
    expect(backend.Sessions.Create).toHaveBeenCalledTimes(1)
    await waitFor(() => expect(sessionItems()).toHaveLength(4))
  })

  it('a failed create shows a toast', async () => {
    const {backend, user} = await renderApp({sessions: three()})
    backend.Sessions.Create.mockRejectedValueOnce({kind: 'unavailable', message: 'maestro is shutting down'})
    await user.click(screen.getByTestId('new-session'))
    expect(await screen.findByTestId('toast')).toHaveTextContent('maestro is shutting down')
    expect(sessionItems()).toHaveLength(3)
  })
})

describe('selecting', () => {
  it('clicking a session opens it', async () => {
    const {backend, user} = await renderApp({sessions: three()})
    await user.click(within(sessionItem('s3')).getByTestId('session-title'))
    expect(backend.Sessions.Open).toHaveBeenLastCalledWith('s3')
    expect(sessionItem('s3')).toHaveAttribute('data-active', 'true')
    expect(screen.getByTestId('chat-title')).toHaveTextContent('Old notes')
  })
})

describe('renaming', () => {
  it('double-click, type and Enter renames with the trimmed title', async () => {
    const {backend, user} = await renderApp({sessions: three()})
    await user.dblClick(within(sessionItem('s2')).getByTestId('session-title'))
    const input = screen.getByTestId('rename-input')
    expect(input).toHaveValue('Refactor the parser')
    expect(input).toHaveFocus()
    await user.clear(input)
    await user.type(input, '  Parser v2  {Enter}')
    expect(backend.Sessions.Rename).toHaveBeenCalledWith('s2', 'Parser v2')
    expect(backend.Sessions.Rename).toHaveBeenCalledTimes(1)
    expect(screen.queryByTestId('rename-input')).not.toBeInTheDocument()
    expect(within(sessionItem('s2')).getByTestId('session-title')).toHaveTextContent('Parser v2')
  })

  it('Esc cancels', async () => {
    const {backend, user} = await renderApp({sessions: three()})
    await user.dblClick(within(sessionItem('s1')).getByTestId('session-title'))
    await user.type(screen.getByTestId('rename-input'), ' and Porto{Escape}')
    expect(screen.queryByTestId('rename-input')).not.toBeInTheDocument()
    expect(backend.Sessions.Rename).not.toHaveBeenCalled()
    expect(within(sessionItem('s1')).getByTestId('session-title')).toHaveTextContent('Trip to Lisbon')
  })

  it('a blank title reverts without a call', async () => {
    const {backend, user} = await renderApp({sessions: three()})
    await user.click(screen.getByRole('button', {name: 'Rename “Old notes”'}))
    await user.clear(screen.getByTestId('rename-input'))
    await user.keyboard('   {Enter}')
    expect(backend.Sessions.Rename).not.toHaveBeenCalled()
    expect(within(sessionItem('s3')).getByTestId('session-title')).toHaveTextContent('Old notes')
  })

  it('the pencil opens the editor and leaving the field saves', async () => {
    const {backend, user} = await renderApp({sessions: three()})
    await user.click(screen.getByRole('button', {name: 'Rename “Old notes”'}))
    await user.type(screen.getByTestId('rename-input'), ' (2019)')
    await user.click(screen.getByTestId('composer'))
    expect(backend.Sessions.Rename).toHaveBeenCalledWith('s3', 'Old notes (2019)')
  })

  it('a failed rename puts the old title back and shows a toast', async () => {
    const {backend, user} = await renderApp({sessions: three()})
    backend.Sessions.Rename.mockRejectedValueOnce({kind: 'invalid', message: 'session title has 201 characters, at most 200 allowed'})
    await user.dblClick(within(sessionItem('s1')).getByTestId('session-title'))
    await user.type(screen.getByTestId('rename-input'), '!{Enter}')
    expect(await screen.findByTestId('toast')).toHaveTextContent('at most 200 allowed')
    expect(within(sessionItem('s1')).getByTestId('session-title')).toHaveTextContent('Trip to Lisbon')
  })
})

describe('deleting', () => {
  it('asks first, then deletes and selects the next session', async () => {
    const {backend, user} = await renderApp({sessions: three()})
    expect(sessionItem('s1')).toHaveAttribute('data-active', 'true')
    await user.click(screen.getByRole('button', {name: 'Delete “Trip to Lisbon”'}))
    const dialog = screen.getByRole('alertdialog')
    expect(dialog).toHaveTextContent('Trip to Lisbon')
    expect(backend.Sessions.Delete).not.toHaveBeenCalled()
    await user.click(screen.getByTestId('confirm-delete'))
    expect(backend.Sessions.Delete).toHaveBeenCalledWith('s1')
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument())
    expect(titles()).toEqual(['Refactor the parser', 'Old notes'])
    expect(backend.Sessions.Open).toHaveBeenLastCalledWith('s2')
    expect(sessionItem('s2')).toHaveAttribute('data-active', 'true')
  })

  it('Cancel and Esc keep the session', async () => {
    const {backend, user} = await renderApp({sessions: three()})
    await user.click(screen.getByRole('button', {name: 'Delete “Old notes”'}))
    await user.click(screen.getByRole('button', {name: 'Cancel'}))
    await user.click(screen.getByRole('button', {name: 'Delete “Old notes”'}))
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
    expect(backend.Sessions.Delete).not.toHaveBeenCalled()
    expect(sessionItems()).toHaveLength(3)
  })

  it('deleting the last session shows the welcome state', async () => {
    const {user} = await renderApp({sessions: [session('only', 'Only chat', 1)]})
    await user.click(screen.getByRole('button', {name: 'Delete “Only chat”'}))
    await user.click(screen.getByTestId('confirm-delete'))
    expect(await screen.findByTestId('welcome')).toBeInTheDocument()
    expect(sessionItems()).toHaveLength(0)
  })

  it('a failed delete keeps the session and shows a toast', async () => {
    const {backend, user} = await renderApp({sessions: three()})
    backend.Sessions.Delete.mockRejectedValueOnce(new Error('database is closed'))
    await user.click(screen.getByRole('button', {name: 'Delete “Old notes”'}))
    await user.click(screen.getByTestId('confirm-delete'))
    expect(await screen.findByTestId('toast')).toHaveTextContent('database is closed')
    expect(sessionItems()).toHaveLength(3)
  })
})

describe('navigation', () => {
  it('switches between the chat, Accounts, Connectors and Settings', async () => {
    const {backend, user} = await renderApp({sessions: three()})
    await user.click(screen.getByTestId('nav-accounts'))
    const accounts = screen.getByTestId('accounts-page')
    for (const name of ['Gemini', 'Claude', 'ChatGPT']) {
      expect(within(accounts).getByRole('heading', {name})).toBeInTheDocument()
      expect(await within(accounts).findByRole('button', {name: `Sign in to ${name}`})).toBeInTheDocument()
    }
    expect(backend.Accounts.List).toHaveBeenCalled()
    expect(accounts).toHaveTextContent("Anthropic's terms restrict using subscription sign-in")
    expect(accounts).toHaveTextContent("Google's terms restrict using subscription sign-in")

    await user.click(screen.getByTestId('nav-connectors'))
    expect(await screen.findByTestId('connectors-empty')).toHaveTextContent('No connectors yet')
    expect(screen.getByRole('button', {name: 'Add connector'})).toBeEnabled()

    await user.click(screen.getByTestId('nav-settings'))
    expect(screen.getByTestId('settings-datadir')).toHaveTextContent('/home/ada/.local/share/maestro')
    expect(screen.getByTestId('settings-version')).toHaveTextContent('0.1.0-test')
    expect(await screen.findByTestId('keychain-status')).toHaveTextContent('Available')
    expect(backend.Settings.KeychainStatus).toHaveBeenCalled()

    await user.click(within(sessionItem('s2')).getByTestId('session-title'))
    expect(screen.getByTestId('chat-title')).toHaveTextContent('Refactor the parser')
  })

  it('Settings explains an unavailable keychain', async () => {
    const {user} = await renderApp({keychain: {available: false, message: 'no secret service provider is running'}})
    await user.click(screen.getByTestId('nav-settings'))
    const status = await screen.findByTestId('keychain-status')
    expect(status).toHaveTextContent('Unavailable')
    expect(status).toHaveTextContent('no secret service provider is running')
  })
})
