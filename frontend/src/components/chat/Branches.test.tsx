import {act, fireEvent, render, screen, within} from '@testing-library/react'
import {describe, expect, it, vi} from 'vitest'
import type {Message} from '../../api/types'
import {type FakeBackend, type FakeOptions, message, session} from '../../test/fakeBackend'
import {renderApp} from '../../test/render'
import {BranchSwitcher} from './BranchSwitcher'

const s1 = {...session('s1', 'Trip to Lisbon', 5), provider: 'anthropic', model: 'claude-sonnet-4-5'}
const history = [message('m1', 1, 'user', 'When should I go?'), message('m2', 2, 'assistant', 'In May.')]

async function emit(backend: FakeBackend, name: string, payload: unknown) {
  await act(async () => {
    backend.emit(name, payload)
  })
}

async function openChat(opts: FakeOptions = {}) {
  const r = await renderApp({sessions: [s1], runs: true, messages: {s1: history}, ...opts})
  await screen.findByText('In May.')
  return r
}

const texts = () => screen.queryAllByTestId('message').map((m) => m.querySelector('.message-text, .markdown')?.textContent ?? '')

describe('editing a sent message', () => {
  it('Edit opens the text in a box; Enter sends it as a new version that replaces the rest', async () => {
    const {backend, user} = await openChat()
    await user.click(screen.getByTestId('message-edit'))
    const input = screen.getByTestId('message-edit-input')
    expect(input).toHaveValue('When should I go?')
    expect(input).toHaveFocus()
    await user.clear(input)
    await user.type(input, 'How do I get there?{Enter}')

    expect(backend.Chat.EditAndResend).toHaveBeenCalledWith('s1', 1, 'How do I get there?')
    expect(screen.queryByTestId('message-edit-input')).not.toBeInTheDocument()
    expect(texts()).toEqual(['How do I get there?'])
    expect(screen.getByTestId('branch-position')).toHaveTextContent('2 / 2')
    // The reply to the new version is on its way.
    expect(screen.getByTestId('stop')).toBeInTheDocument()
    expect(screen.getByTestId('message-edit')).toBeDisabled()
  })

  it('Shift+Enter adds a line; "Save & send" sends', async () => {
    const {backend, user} = await openChat()
    await user.click(screen.getByTestId('message-edit'))
    const input = screen.getByTestId('message-edit-input')
    await user.type(input, '{Shift>}{Enter}{/Shift}In spring?')
    expect(backend.Chat.EditAndResend).not.toHaveBeenCalled()
    expect(input).toHaveValue('When should I go?\nIn spring?')
    await user.click(screen.getByTestId('message-edit-send'))
    expect(backend.Chat.EditAndResend).toHaveBeenCalledWith('s1', 1, 'When should I go?\nIn spring?')
  })

  it('Esc and Cancel leave the message as it was', async () => {
    const {backend, user} = await openChat()
    await user.click(screen.getByTestId('message-edit'))
    await user.type(screen.getByTestId('message-edit-input'), ' Tomorrow?{Escape}')
    expect(screen.queryByTestId('message-edit-input')).not.toBeInTheDocument()
    await user.click(screen.getByTestId('message-edit'))
    expect(screen.getByTestId('message-edit-input')).toHaveValue('When should I go?')
    await user.click(screen.getByTestId('message-edit-cancel'))
    expect(screen.queryByTestId('message-edit-input')).not.toBeInTheDocument()
    expect(texts()).toEqual(['When should I go?', 'In May.'])
    expect(backend.Chat.EditAndResend).not.toHaveBeenCalled()
    expect(backend.Chat.StopRun).not.toHaveBeenCalled()
  })

  it('cannot send a blank version', async () => {
    const {backend, user} = await openChat()
    await user.click(screen.getByTestId('message-edit'))
    await user.clear(screen.getByTestId('message-edit-input'))
    expect(screen.getByTestId('message-edit-send')).toBeDisabled()
    await user.type(screen.getByTestId('message-edit-input'), '   {Enter}')
    expect(backend.Chat.EditAndResend).not.toHaveBeenCalled()
  })

  it('is off while a reply streams, and comes back when it ends', async () => {
    const {backend, user} = await openChat()
    await user.type(screen.getByTestId('composer'), 'And in June?{Enter}')
    const runId = (await backend.Chat.SendMessage.mock.results[0].value).runId as string
    const edits = screen.getAllByTestId('message-edit')
    expect(edits).toHaveLength(2)
    edits.forEach((b) => expect(b).toBeDisabled())
    await emit(backend, 'run:finished', {runId, sessionId: 's1', canceled: false})
    screen.getAllByTestId('message-edit').forEach((b) => expect(b).toBeEnabled())
  })

  it('a box left open cannot send while a reply streams', async () => {
    const {backend, user} = await openChat()
    await user.click(screen.getByTestId('message-edit'))
    await user.type(screen.getByTestId('composer'), 'And in June?{Enter}')
    expect(backend.Chat.SendMessage).toHaveBeenCalled()
    expect(screen.getByTestId('message-edit-send')).toBeDisabled()
    await user.type(screen.getByTestId('message-edit-input'), '{Enter}')
    expect(backend.Chat.EditAndResend).not.toHaveBeenCalled()
  })

  it('a refused edit keeps the box and the text; a missing sign-in shows the notice', async () => {
    const {backend, user} = await openChat()
    backend.Chat.EditAndResend.mockImplementationOnce(async () =>
      Promise.reject({kind: 'auth_required', message: 'sign in to Claude in Accounts'}),
    )
    await user.click(screen.getByTestId('message-edit'))
    await user.type(screen.getByTestId('message-edit-input'), ' Soon?{Enter}')
    expect(await screen.findByTestId('auth-notice')).toHaveTextContent('sign in to Claude in Accounts')
    expect(screen.getByTestId('message-edit-input')).toHaveValue('When should I go? Soon?')
    expect(screen.getByTestId('message-edit-send')).toBeEnabled()
    expect(screen.getByText('In May.')).toBeInTheDocument()
    expect(backend.Chat.EditAndResend).toHaveBeenCalledTimes(1)
  })
})

describe('switching versions', () => {
  const v1: Message = {...message('m1', 1, 'user', 'When should I go?'), branch: {index: 0, count: 2, prev: 0, next: 3}}
  const v2: Message = {...message('m3', 3, 'user', 'How do I get there?'), branch: {index: 1, count: 2, prev: 1, next: 0}}
  const opts: FakeOptions = {
    messages: {s1: [v2, message('m4', 4, 'assistant', 'By train.')]},
    branches: {s1: {1: [v1, message('m2', 2, 'assistant', 'In May.')]}},
  }

  it('‹ and › show the other versions with their replies', async () => {
    const {backend, user} = await renderApp({sessions: [s1], ...opts})
    await screen.findByText('By train.')
    expect(screen.getByTestId('branch-position')).toHaveTextContent('2 / 2')
    expect(screen.getByTestId('branch-next')).toBeDisabled()
    await user.click(screen.getByTestId('branch-prev'))
    expect(backend.Chat.SwitchBranch).toHaveBeenCalledWith('s1', 1)
    expect(await screen.findByText('In May.')).toBeInTheDocument()
    expect(screen.queryByText('By train.')).not.toBeInTheDocument()
    expect(screen.getByTestId('branch-position')).toHaveTextContent('1 / 2')
    expect(screen.getByTestId('branch-prev')).toBeDisabled()
    await user.click(screen.getByTestId('branch-next'))
    expect(backend.Chat.SwitchBranch).toHaveBeenLastCalledWith('s1', 3)
    expect(await screen.findByText('By train.')).toBeInTheDocument()
  })

  it('is off while a reply streams', async () => {
    await renderApp({sessions: [s1], activeRuns: {s1: 'run-9'}, ...opts})
    await screen.findByTestId('stop')
    expect(screen.getByTestId('branch-prev')).toBeDisabled()
  })

  it('a switch Go refuses shows a toast and keeps the view', async () => {
    const {backend, user} = await renderApp({sessions: [s1], ...opts})
    await screen.findByText('By train.')
    backend.Chat.SwitchBranch.mockImplementationOnce(async () => Promise.reject({kind: 'conflict', message: 'a reply is still running'}))
    await user.click(screen.getByTestId('branch-prev'))
    expect(await screen.findByText(/a reply is still running/)).toBeInTheDocument()
    expect(screen.getByText('By train.')).toBeInTheDocument()
  })
})

describe('BranchSwitcher', () => {
  it('names the version shown and calls onSwitch with a neighbour', () => {
    const onSwitch = vi.fn()
    render(<BranchSwitcher branch={{index: 1, count: 3, prev: 4, next: 9}} onSwitch={onSwitch} />)
    const group = screen.getByRole('group', {name: 'Versions of this message'})
    expect(within(group).getByTestId('branch-position')).toHaveTextContent('2 / 3')
    fireEvent.click(screen.getByRole('button', {name: 'Previous version'}))
    fireEvent.click(screen.getByRole('button', {name: 'Next version'}))
    expect(onSwitch.mock.calls).toEqual([[4], [9]])
  })

  it('disables the ends, and everything when told', () => {
    const {rerender} = render(<BranchSwitcher branch={{index: 0, count: 2, prev: 0, next: 5}} onSwitch={() => {}} />)
    expect(screen.getByTestId('branch-prev')).toBeDisabled()
    expect(screen.getByTestId('branch-next')).toBeEnabled()
    rerender(<BranchSwitcher branch={{index: 0, count: 2, prev: 0, next: 5}} disabled onSwitch={() => {}} />)
    expect(screen.getByTestId('branch-next')).toBeDisabled()
  })
})
