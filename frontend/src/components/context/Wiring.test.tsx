import {act, screen, waitFor, within} from '@testing-library/react'
import {describe, expect, it} from 'vitest'
import type {Message} from '../../api/types'
import {useContextStore} from '../../stores/context'
import {message, session} from '../../test/fakeBackend'
import {renderApp} from '../../test/render'

// The chat wired to Go (fake backend): the header's meter, Compact now,
// Regenerate and the events that feed them.

const withModel = () => ({...session('s1', 'Trip'), provider: 'anthropic', model: 'claude-sonnet-4-5', usage: {inputTokens: 4200, outputTokens: 90}})

const conversation = (): Message[] => [
  {...message('u1', 1, 'user', 'Plan a trip'), runId: 'r1'},
  {...message('a2', 2, 'assistant', 'Where to?'), runId: 'r1', usage: {inputTokens: 1000, outputTokens: 20}},
  {...message('u3', 3, 'user', 'Lisbon'), runId: 'r2'},
  {...message('a4', 4, 'assistant', 'Go in May.'), runId: 'r2', usage: {inputTokens: 3200, outputTokens: 70}},
]

async function openChat() {
  const ctx = await renderApp({sessions: [withModel()], messages: {s1: conversation()}, status: {lastSessionId: 's1'}})
  await waitFor(() => expect(screen.getAllByTestId('message')).toHaveLength(4))
  return ctx
}

describe('the chat wired to Go', () => {
  it('measures the context when the chat opens and follows context:measured', async () => {
    const {backend, user} = await openChat()
    await waitFor(() => expect(screen.getByTestId('context-share')).toHaveTextContent('6 %'))
    expect(backend.Chat.ContextUse).toHaveBeenCalledWith('s1')
    act(() =>
      backend.emit('context:measured', {sessionId: 's1', provider: 'anthropic', model: 'claude-sonnet-4-5', tokens: 130_000,
        toolTokens: 2000, systemTokens: 0, window: 200_000, reserve: 50_000, limit: 150_000, threshold: 120_000, reported: true}),
    )
    expect(screen.getByTestId('context-meter')).toHaveAttribute('data-level', 'near')
    await user.click(screen.getByTestId('context-meter'))
    expect(screen.getByTestId('chat-totals')).toHaveTextContent('4.2k in · 90 out')
  })

  it('runs Compact now and shows its progress until it finishes', async () => {
    const {backend, user} = await openChat()
    await user.click(await screen.findByTestId('context-meter'))
    await user.click(screen.getByTestId('compact-now'))
    expect(backend.Chat.CompactNow).toHaveBeenCalledWith('s1')
    const runId = await backend.Chat.CompactNow.mock.results[0].value
    act(() => backend.emit('compaction:progress', {runId, sessionId: 's1', phase: 'started', reason: 'manual', messages: 3, tokens: 900, done: 0, requests: 2}))
    act(() => backend.emit('compaction:progress', {runId, sessionId: 's1', phase: 'progress', done: 1, requests: 2}))
    expect(screen.getByTestId('compaction-progress')).toHaveTextContent('Summarising 3 messages (900 tokens) · part 2 of 2')
    await user.click(screen.getByTestId('compaction-stop'))
    expect(backend.Chat.StopRun).toHaveBeenCalledWith(runId)
    act(() => backend.emit('run:finished', {runId, sessionId: 's1', canceled: true, usage: {inputTokens: 0, outputTokens: 0}}))
    expect(useContextStore.getState().compacting).toEqual({})
    expect(screen.queryByTestId('compaction-progress')).not.toBeInTheDocument()
  })

  it('regenerates an answer: Go is asked, and the old answer leaves the view', async () => {
    const {backend, user} = await openChat()
    const answers = screen.getAllByTestId('regenerate')
    expect(answers).toHaveLength(2)
    await user.click(answers[1])
    expect(backend.Chat.Regenerate).toHaveBeenCalledWith('s1', 4)
    await waitFor(() => expect(screen.getAllByTestId('message').map((e) => Number(e.dataset.seq))).toEqual([1, 2, 3]))
    const fresh = {...message('a5', 5, 'assistant', 'Go in September.'), runId: 'run-x', branch: {index: 1, count: 2, prev: 4, next: 0}}
    const runId = await backend.Chat.Regenerate.mock.results[0].value
    act(() => backend.emit('message:saved', {runId, sessionId: 's1', message: {...fresh, runId}}))
    act(() => backend.emit('run:finished', {runId, sessionId: 's1', canceled: false, usage: {inputTokens: 0, outputTokens: 0}}))
    const answer = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-testid="message"][data-seq="5"]')
      expect(el).not.toBeNull()
      return el!
    })
    expect(within(answer).getByTestId('branch-position')).toHaveTextContent('2 / 2')
  })
})
