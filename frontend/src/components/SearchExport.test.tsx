import {act, screen, waitFor} from '@testing-library/react'
import {describe, expect, it} from 'vitest'
import {message, session} from '../test/fakeBackend'
import {renderApp} from '../test/render'

const sessions = () => [session('s1', 'Trip to Lisbon', 5), session('s2', 'Refactor the parser', 60), session('s3', 'Old notes', 3000)]
const messages = () => ({
  s2: [message('m1', 1, 'user', 'the lisbon tokenizer is slow'), message('m2', 2, 'assistant', 'Try a table-driven lexer.')],
})

const hits = () => screen.queryAllByTestId('search-hit')

describe('session search', () => {
  it('typing shows matching sessions with snippets, debounced', async () => {
    const {backend, user} = await renderApp({sessions: sessions(), messages: messages()})
    await user.type(screen.getByTestId('session-search'), 'lisbon')
    await waitFor(() => expect(hits()).toHaveLength(2))
    // Debounced: one search for the whole word, not one per key.
    expect(backend.Sessions.Search).toHaveBeenCalledTimes(1)
    expect(backend.Sessions.Search).toHaveBeenCalledWith('lisbon')
    expect(hits().map((h) => h.dataset.sessionId)).toEqual(['s1', 's2'])
    expect(hits()[1]).toHaveTextContent('the lisbon tokenizer is slow')
    expect(document.querySelector('nav[aria-label="Chats"]')).toHaveAttribute('hidden')
  })

  it('Enter opens the first hit and clears the search', async () => {
    const {backend, user} = await renderApp({sessions: sessions(), messages: messages()})
    const input = screen.getByTestId('session-search')
    await user.type(input, 'parser')
    await waitFor(() => expect(hits()).toHaveLength(1))
    await user.keyboard('{Enter}')
    expect(backend.Sessions.Open).toHaveBeenLastCalledWith('s2')
    await waitFor(() => expect(screen.getByTestId('chat-title')).toHaveTextContent('Refactor the parser'))
    expect(input).toHaveValue('')
    expect(hits()).toHaveLength(0)
  })

  it('a hit in a message opens the chat at that message and marks it', async () => {
    const {backend, user} = await renderApp({sessions: sessions(), messages: messages()})
    await user.type(screen.getByTestId('session-search'), 'table-driven')
    await waitFor(() => expect(hits()).toHaveLength(1))
    await user.click(hits()[0])
    expect(backend.Sessions.OpenAt).toHaveBeenLastCalledWith('s2', 2)
    await waitFor(() => expect(document.querySelector('[data-testid="message"][data-seq="2"]')).toHaveAttribute('data-found', 'true'))
    expect(document.querySelectorAll('[data-found]')).toHaveLength(1)
  })

  it('clicking a hit opens it', async () => {
    const {backend, user} = await renderApp({sessions: sessions(), messages: messages()})
    await user.type(screen.getByTestId('session-search'), 'notes')
    await waitFor(() => expect(hits()).toHaveLength(1))
    await user.click(hits()[0])
    expect(backend.Sessions.Open).toHaveBeenLastCalledWith('s3')
  })

  it('Esc clears the search and shows the list again', async () => {
    const {user} = await renderApp({sessions: sessions(), messages: messages()})
    const input = screen.getByTestId('session-search')
    await user.type(input, 'lisbon')
    await waitFor(() => expect(hits()).toHaveLength(2))
    await user.keyboard('{Escape}')
    expect(input).toHaveValue('')
    expect(hits()).toHaveLength(0)
    expect(screen.getByRole('navigation', {name: 'Chats'})).not.toHaveAttribute('hidden')
  })

  it('says when nothing matches', async () => {
    const {user} = await renderApp({sessions: sessions(), messages: messages()})
    await user.type(screen.getByTestId('session-search'), 'zebra')
    expect(await screen.findByText('No chats match “zebra”.')).toBeInTheDocument()
  })

  it('Ctrl+K focuses the search box', async () => {
    const {user} = await renderApp({sessions: sessions()})
    expect(screen.getByTestId('session-search')).not.toHaveFocus()
    await user.keyboard('{Control>}k{/Control}')
    expect(screen.getByTestId('session-search')).toHaveFocus()
  })

  it('Cmd+K focuses it too', async () => {
    const {user} = await renderApp({sessions: sessions()})
    await user.keyboard('{Meta>}k{/Meta}')
    expect(screen.getByTestId('session-search')).toHaveFocus()
  })
})

describe('export menu', () => {
  async function openChat() {
    const r = await renderApp({sessions: sessions(), messages: messages(), status: {lastSessionId: 's2'}})
    await screen.findByTestId('export-menu')
    return r
  }

  it('Markdown exports to a file and shows the path', async () => {
    const {backend, user} = await openChat()
    await user.click(screen.getByTestId('export-menu'))
    await user.click(screen.getByTestId('export-markdown'))
    expect(backend.Sessions.ExportToFile).toHaveBeenCalledWith('s2', 'markdown')
    expect(await screen.findByTestId('toast')).toHaveTextContent('/home/me/s2.md')
    expect(screen.queryByTestId('export-markdown')).not.toBeInTheDocument()
  })

  it('JSON exports to a file', async () => {
    const {backend, user} = await openChat()
    await user.click(screen.getByTestId('export-menu'))
    await user.click(screen.getByTestId('export-json'))
    expect(backend.Sessions.ExportToFile).toHaveBeenCalledWith('s2', 'json')
    expect(await screen.findByTestId('toast')).toHaveTextContent('/home/me/s2.json')
  })

  it('a cancelled save shows nothing', async () => {
    const {backend, user} = await openChat()
    backend.Sessions.ExportToFile.mockResolvedValueOnce('')
    await user.click(screen.getByTestId('export-menu'))
    await user.click(screen.getByTestId('export-json'))
    await act(async () => {})
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument()
  })

  it('a failure shows an error toast', async () => {
    const {backend, user} = await openChat()
    backend.Sessions.ExportToFile.mockRejectedValueOnce({kind: 'unavailable', message: 'file pickers are not available here'})
    await user.click(screen.getByTestId('export-menu'))
    await user.click(screen.getByTestId('export-markdown'))
    expect(await screen.findByTestId('toast')).toHaveTextContent('file pickers are not available here')
  })

  it('Esc closes the menu', async () => {
    const {user} = await openChat()
    await user.click(screen.getByTestId('export-menu'))
    expect(screen.getByTestId('export-json')).toBeInTheDocument()
    await user.keyboard('{Escape}')
    expect(screen.queryByTestId('export-json')).not.toBeInTheDocument()
  })
})
