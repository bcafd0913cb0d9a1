import {act, screen, waitFor} from '@testing-library/react'
import {describe, expect, it} from 'vitest'
import {message, session} from './test/fakeBackend'
import {renderApp, sessionItem, titles} from './test/render'

const sessions = [session('s1', 'Trip to Lisbon', 5), session('s2', 'Refactor the parser', 60), session('s3', 'Old notes', 3000)]

describe('startup', () => {
  it('opens lastSessionId', async () => {
    const {backend} = await renderApp({
      sessions,
      status: {lastSessionId: 's2'},
      messages: {s2: [message('m1', 1, 'user', 'Split the tokenizer out'), message('m2', 2, 'assistant', 'Sure.')]},
    })
    expect(backend.Sessions.Open).toHaveBeenCalledWith('s2')
    expect(backend.Sessions.Open).toHaveBeenCalledTimes(1)
    expect(screen.getByTestId('chat-title')).toHaveTextContent('Refactor the parser')
    const msgs = await screen.findAllByTestId('message')
    expect(msgs.map((m) => [m.dataset.role, m.textContent])).toEqual([
      ['user', 'Split the tokenizer out'],
      ['assistant', 'Sure.'],
    ])
    expect(sessionItem('s2')).toHaveAttribute('data-active', 'true')
    expect(sessionItem('s1')).not.toHaveAttribute('data-active')
  })

  it('opens the most recent session when there is no lastSessionId', async () => {
    const {backend} = await renderApp({sessions})
    expect(titles()).toEqual(['Trip to Lisbon', 'Refactor the parser', 'Old notes'])
    expect(backend.Sessions.Open).toHaveBeenCalledWith('s1')
    expect(await screen.findByTestId('chat-empty')).toHaveTextContent(
      'Ask anything. Tools from your connectors will appear here.',
    )
  })

  it('shows the welcome state without sessions and starts a chat from it', async () => {
    const {backend, user} = await renderApp()
    expect(backend.Sessions.Open).not.toHaveBeenCalled()
    const welcome = screen.getByTestId('welcome')
    expect(welcome).toHaveTextContent('Welcome to Maestro')
    await user.click(screen.getByRole('button', {name: 'Start a new chat'}))
    expect(backend.Sessions.Create).toHaveBeenCalledWith('')
    expect(await screen.findByTestId('chat-title')).toHaveTextContent('New chat')
    expect(screen.queryByTestId('welcome')).not.toBeInTheDocument()
    expect(screen.getByTestId('composer')).toHaveFocus()
  })

  it('shows only the store error screen when the data file cannot be opened', async () => {
    const path = '/home/ada/.local/share/maestro/maestro.db'
    const {backend, user} = await renderApp(
      {
        sessions,
        status: {
          dataFile: path,
          storeError: {kind: 'unavailable', message: `open ${path}: the data file is in use by another Maestro`},
        },
      },
      {waitFor: 'none'},
    )
    const screenEl = await screen.findByTestId('store-error')
    expect(screenEl).toHaveTextContent("Maestro couldn't open its data file")
    expect(screen.getByTestId('store-error-message')).toHaveTextContent(`open ${path}: the data file is in use by another Maestro`)
    expect(screen.getByTestId('store-error-path')).toHaveTextContent(path)
    expect(screenEl).toHaveTextContent('left the file untouched')
    expect(screen.queryByTestId('new-session')).not.toBeInTheDocument()
    expect(backend.Sessions.List).not.toHaveBeenCalled()

    await user.click(screen.getByRole('button', {name: 'Copy data file path'}))
    expect(backend.runtime.ClipboardSetText).toHaveBeenCalledWith(path)
    expect(await screen.findByRole('button', {name: 'Copied data file path'})).toBeInTheDocument()
  })

  it('shows a toast when a call is rejected, and it can be dismissed', async () => {
    const {backend, user} = await renderApp()
    backend.Sessions.List.mockRejectedValueOnce({kind: 'internal', message: 'read sessions: disk I/O error'})
    await act(async () => backend.emit('sessions:changed'))
    const toast = await screen.findByTestId('toast')
    expect(toast).toHaveTextContent('read sessions: disk I/O error')
    await user.click(screen.getByRole('button', {name: 'Dismiss'}))
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument()
  })

  it('reloads the list on sessions:changed and unsubscribes on teardown', async () => {
    const {backend, unmount} = await renderApp({sessions: [session('s1', 'First', 5)]})
    expect(backend.listenerCount('sessions:changed')).toBe(1)
    backend.state.sessions.push(session('s9', 'Made elsewhere', 0))
    backend.state.sessions[0].title = 'First, renamed'
    await act(async () => backend.emit('sessions:changed'))
    await waitFor(() => expect(titles()).toEqual(['Made elsewhere', 'First, renamed']))
    unmount()
    expect(backend.listenerCount('sessions:changed')).toBe(0)
  })
})
