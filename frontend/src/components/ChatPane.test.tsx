import {act, render, screen, waitFor, within} from '@testing-library/react'
import {afterEach, describe, expect, it, vi} from 'vitest'
import type {ProviderModels} from '../api/types'
import {session} from '../test/fakeBackend'
import {renderApp, sessionItem} from '../test/render'
import {useToasts} from '../stores/toasts'
import {TOAST_MS, Toasts} from './Toasts'

const two = () => [session('s1', 'Trip to Lisbon', 5), session('s2', 'Refactor the parser', 60)]

describe('composer', () => {
  it('Enter sends the message, which appears with the no-provider notice', async () => {
    const {backend, user} = await renderApp({sessions: two()})
    const composer = screen.getByTestId('composer')
    await user.type(composer, 'Plan three days in Lisbon{Enter}')
    expect(backend.Chat.SendMessage).toHaveBeenCalledWith('s1', 'Plan three days in Lisbon', [])
    const msg = await screen.findByTestId('message')
    expect(msg).toHaveAttribute('data-role', 'user')
    expect(msg).toHaveTextContent('Plan three days in Lisbon')
    expect(composer).toHaveValue('')
    const notice = screen.getByTestId('provider-notice')
    expect(notice).toHaveTextContent('No model is chosen for this chat yet. Pick one above, or sign in to a provider in Accounts')
    await user.click(within(notice).getByRole('button', {name: 'Accounts'}))
    expect(screen.getByTestId('accounts-page')).toBeInTheDocument()
  })

  it('with no provider signed in, says why instead of sending into a dead end', async () => {
    const models: ProviderModels[] = [
      {provider: 'anthropic', displayName: 'Claude', available: false, source: 'builtin', models: [{id: 'claude-sonnet-4-6', name: 'Claude Sonnet 4.6'}]},
      {provider: 'openai', displayName: 'ChatGPT', available: false, source: 'builtin', models: [{id: 'gpt-5.5', name: 'GPT-5.5'}]},
    ]
    const {backend, user} = await renderApp({sessions: two(), models})
    const blocked = await screen.findByTestId('composer-blocked')
    expect(blocked).toHaveTextContent('To get replies, sign in to a provider or add an API key in Accounts.')
    await user.type(screen.getByTestId('composer'), 'Hello{Enter}')
    expect(backend.Chat.SendMessage).not.toHaveBeenCalled()
    expect(screen.getByTestId('send')).toBeDisabled()
    expect(screen.getByTestId('composer')).toHaveValue('Hello')
    await user.click(within(blocked).getByTestId('blocked-accounts'))
    expect(screen.getByTestId('accounts-page')).toBeInTheDocument()
  })

  it("a chat whose provider signed out offers Accounts and the picker, and no Retry", async () => {
    const models: ProviderModels[] = [
      {provider: 'anthropic', displayName: 'Claude', available: false, source: 'builtin', models: [{id: 'claude-sonnet-4-6', name: 'Claude Sonnet 4.6'}]},
      {provider: 'gemini', displayName: 'Gemini', available: true, source: 'builtin', models: [{id: 'gemini-2.5-pro', name: 'Gemini 2.5 Pro'}]},
    ]
    const s = {...session('s1', 'Trip', 5), provider: 'anthropic', model: 'claude-sonnet-4-6'}
    const failed = {id: 'm2', seq: 2, role: 'assistant' as const, status: 'failed' as const, error: 'sign in to Claude', parts: [], createdAt: Date.now(),
      failure: {kind: 'auth_required', message: 'sign in to Claude'}}
    const {user} = await renderApp({sessions: [s], models, messages: {s1: [{id: 'm1', seq: 1, role: 'user', status: 'complete', parts: [{type: 'text', text: 'Hi'}], createdAt: Date.now()}, failed]}})
    const blocked = await screen.findByTestId('composer-blocked')
    expect(blocked).toHaveTextContent('This chat uses Claude, which is signed out.')
    expect(await screen.findByTestId('run-error')).toBeInTheDocument()
    expect(screen.queryByTestId('retry')).not.toBeInTheDocument()
    await user.click(within(blocked).getByTestId('blocked-picker'))
    expect(await screen.findByTestId('model-menu')).toBeInTheDocument()
  })

  it('Shift+Enter adds a new line and does not send; the send button sends', async () => {
    const {backend, user} = await renderApp({sessions: two()})
    const composer = screen.getByTestId('composer')
    await user.type(composer, 'line one{Shift>}{Enter}{/Shift}line two')
    expect(composer).toHaveValue('line one\nline two')
    expect(backend.Chat.SendMessage).not.toHaveBeenCalled()
    await user.click(screen.getByTestId('send'))
    expect(backend.Chat.SendMessage).toHaveBeenCalledWith('s1', 'line one\nline two', [])
  })

  it('cannot send empty or blank text', async () => {
    const {backend, user} = await renderApp({sessions: two()})
    const send = screen.getByTestId('send')
    expect(send).toBeDisabled()
    await user.type(screen.getByTestId('composer'), '   {Enter}')
    expect(send).toBeDisabled()
    await user.click(send)
    expect(backend.Chat.SendMessage).not.toHaveBeenCalled()
    await user.type(screen.getByTestId('composer'), 'x')
    expect(send).toBeEnabled()
  })

  it('keeps a draft per session', async () => {
    const {user} = await renderApp({sessions: two()})
    await user.type(screen.getByTestId('composer'), 'half a thought')
    await user.click(within(sessionItem('s2')).getByTestId('session-title'))
    await waitFor(() => expect(screen.getByTestId('chat-title')).toHaveTextContent('Refactor the parser'))
    expect(screen.getByTestId('composer')).toHaveValue('')
    await user.type(screen.getByTestId('composer'), 'other')
    await user.click(within(sessionItem('s1')).getByTestId('session-title'))
    expect(screen.getByTestId('composer')).toHaveValue('half a thought')
    await user.click(within(sessionItem('s2')).getByTestId('session-title'))
    expect(screen.getByTestId('composer')).toHaveValue('other')
  })

  it('a failed send keeps the text and shows a toast', async () => {
    const {backend, user} = await renderApp({sessions: two()})
    backend.Chat.SendMessage.mockRejectedValueOnce({kind: 'not_found', message: 'session s1 not found'})
    await user.type(screen.getByTestId('composer'), 'hello{Enter}')
    expect(await screen.findByTestId('toast')).toHaveTextContent('session s1 not found')
    expect(screen.getByTestId('composer')).toHaveValue('hello')
    expect(screen.queryByTestId('message')).not.toBeInTheDocument()
  })

  it('an empty session shows guidance instead of messages', async () => {
    await renderApp({sessions: two()})
    const empty = await screen.findByTestId('chat-empty')
    expect(empty).toHaveTextContent('Ask anything. Tools from your connectors will appear here.')
    expect(screen.queryByTestId('provider-notice')).not.toBeInTheDocument()
  })
})

describe('toasts', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('hide by themselves', async () => {
    vi.useFakeTimers()
    render(<Toasts />)
    act(() => {
      useToasts.getState().push({tone: 'error', message: 'lost connection'})
    })
    expect(screen.getByTestId('toast')).toHaveTextContent('lost connection')
    act(() => {
      vi.advanceTimersByTime(TOAST_MS - 100)
    })
    expect(screen.getByTestId('toast')).toBeInTheDocument()
    act(() => {
      vi.advanceTimersByTime(200)
    })
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument()
  })
})
