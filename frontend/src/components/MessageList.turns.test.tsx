import {render, screen, within} from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import {describe, expect, it, vi} from 'vitest'
import type {ShownMessage} from '../lib/turns'
import {message} from '../test/fakeBackend'
import {MessageList} from './MessageList'

// The list's additions for long conversations (issue 14) and everyday
// chat (issue 18): a marker where a summary begins, the usage line under a
// turn, Regenerate and the versions of a regenerated answer.

const step = (id: string, seq: number, runId: string, text: string, extra: Partial<ShownMessage> = {}): ShownMessage => ({
  ...message(id, seq, 'assistant', text),
  runId,
  ...extra,
})

const conversation = (): ShownMessage[] => [
  {...message('u1', 1, 'user', 'Plan a trip'), runId: 'r1'},
  step('a2', 2, 'r1', 'Where to?', {usage: {inputTokens: 1000, outputTokens: 20}}),
  {...message('u3', 3, 'user', 'Lisbon'), runId: 'r2'},
  step('a4', 4, 'r2', 'Looking it up.', {usage: {inputTokens: 2000, outputTokens: 30}}),
  step('a6', 6, 'r2', 'Go in May.', {usage: {inputTokens: 2500, outputTokens: 40, cacheReadTokens: 1800}}),
  {
    ...message('s7', 7, 'summary' as ShownMessage['role'], 'The user is planning a trip to **Lisbon**.'),
    runId: 'r2',
    summary: {through: 2, messages: 2, reason: 'threshold', replaced: 1020},
    tokens: 12,
  },
]

const order = () =>
  Array.from(document.querySelectorAll<HTMLElement>('[data-seq]')).map((e) =>
    e.dataset.testid === 'summary-marker' ? `summary through ${e.dataset.through}` : Number(e.dataset.seq),
  )

describe('the list of a long conversation', () => {
  it('marks where a summary begins, after the last message it stands for, and opens it', async () => {
    const user = userEvent.setup()
    render(<MessageList sessionId="s1" messages={conversation()} />)
    expect(order()).toEqual([1, 2, 'summary through 2', 3, 4, 6])
    const marker = screen.getByTestId('summary-marker')
    expect(marker).toHaveTextContent('The 2 messages above are summarised for the model')
    await user.click(within(marker).getByTestId('summary-toggle'))
    expect(screen.getByTestId('summary-text')).toHaveTextContent('The user is planning a trip to Lisbon.')
  })

  it("puts one usage line under each turn, counting all the turn's steps", () => {
    render(<MessageList sessionId="s1" messages={conversation()} />)
    const lines = screen.getAllByTestId('usage-line').map((e) => e.textContent)
    expect(lines).toEqual(['Tokens: 1k in · 20 out', 'Tokens: 4.5k in · 70 out · 1.8k cached'])
  })

  it('offers Regenerate under each finished answer, with the seq of its last reply', async () => {
    const user = userEvent.setup()
    const onRegenerate = vi.fn()
    const msgs = conversation()
    msgs[4] = {...msgs[4], status: 'canceled'}
    render(<MessageList sessionId="s1" messages={msgs} onRegenerate={onRegenerate} />)
    const buttons = screen.getAllByTestId('regenerate')
    expect(buttons).toHaveLength(2)
    await user.click(buttons[1])
    expect(onRegenerate).toHaveBeenLastCalledWith(6)
  })

  it('has no Regenerate where the chat cannot answer', () => {
    render(<MessageList sessionId="s1" messages={conversation()} />)
    expect(screen.queryByTestId('regenerate')).not.toBeInTheDocument()
  })

  it("shows the versions of a regenerated answer under the turn's last reply", () => {
    const msgs = conversation()
    msgs[3] = {...msgs[3], branch: {index: 1, count: 2, prev: 5, next: 0}}
    render(<MessageList sessionId="s1" messages={msgs} onRegenerate={() => {}} />)
    const answer = document.querySelector<HTMLElement>('[data-testid="message"][data-seq="6"]')!
    expect(within(answer).getByTestId('branch-position')).toHaveTextContent('2 / 2')
    expect(within(answer).getByTestId('branch-prev')).toBeEnabled()
  })
})
