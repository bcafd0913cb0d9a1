import {fireEvent, render, screen} from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import {describe, expect, it, vi} from 'vitest'
import type {ContextUse} from '../../lib/usage'
import {ContextMeter} from './ContextMeter'
import {RegenerateButton} from './RegenerateButton'
import {SummaryMarker} from './SummaryMarker'
import {UsageLine} from './UsageLine'

const use = (tokens: number, over: Partial<ContextUse> = {}): ContextUse => ({
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  tokens,
  toolTokens: 12_000,
  systemTokens: 400,
  window: 200_000,
  reserve: 50_000,
  limit: 150_000,
  threshold: 120_000,
  reported: false,
  ...over,
})

describe('ContextMeter', () => {
  it('shows the share of the window, and the tools share and totals when opened', async () => {
    const user = userEvent.setup()
    render(<ContextMeter use={use(50_000)} totals={{inputTokens: 80_000, outputTokens: 2_000, cacheReadTokens: 60_000}} onCompact={() => {}} />)
    const meter = screen.getByTestId('context-meter')
    expect(meter).toHaveAttribute('data-level', 'ok')
    expect(screen.getByTestId('context-share')).toHaveTextContent('25 %')
    expect(meter).toHaveAccessibleName(/50,000 of 200,000 tokens \(25 %\); tool declarations 12,000/)
    await user.click(meter)
    expect(screen.getByTestId('context-tokens')).toHaveTextContent('50k of 200k tokens')
    expect(screen.getByTestId('context-tools')).toHaveTextContent('12k · 6 % of the window')
    expect(screen.getByTestId('chat-totals')).toHaveTextContent('80k in · 2k out · 60k cached')
    await user.keyboard('{Escape}')
    expect(screen.queryByTestId('context-panel')).not.toBeInTheDocument()
  })

  it.each([
    [130_000, 'near'],
    [160_000, 'full'],
  ])('reads %d tokens as %s', (tokens, level) => {
    render(<ContextMeter use={use(tokens)} />)
    expect(screen.getByTestId('context-meter')).toHaveAttribute('data-level', level)
  })

  it('is absent until a model with a window is measured', () => {
    const {rerender} = render(<ContextMeter />)
    expect(screen.queryByTestId('context-meter')).not.toBeInTheDocument()
    rerender(<ContextMeter use={use(0, {window: 0})} />)
    expect(screen.queryByTestId('context-meter')).not.toBeInTheDocument()
  })

  it('offers Compact now, disabled while it cannot run', async () => {
    const user = userEvent.setup()
    const onCompact = vi.fn()
    const {rerender} = render(<ContextMeter use={use(50_000)} onCompact={onCompact} />)
    await user.click(screen.getByTestId('context-meter'))
    await user.click(screen.getByTestId('compact-now'))
    expect(onCompact).toHaveBeenCalledTimes(1)
    rerender(<ContextMeter use={use(50_000)} />)
    expect(screen.getByTestId('compact-now')).toBeDisabled()
  })

  it('shows a compaction in progress with Stop', async () => {
    const user = userEvent.setup()
    const onStop = vi.fn()
    const c = {runId: 'r', reason: 'manual', messages: 40, tokens: 90_000, done: 1, requests: 3}
    const {rerender} = render(<ContextMeter use={use(130_000)} compaction={c} onStop={onStop} />)
    expect(screen.getByTestId('context-share')).toHaveTextContent('Compacting…')
    await user.click(screen.getByTestId('context-meter'))
    expect(screen.getByTestId('compaction-progress')).toHaveTextContent('Summarising 40 messages (90k tokens) · part 2 of 3')
    expect(screen.queryByTestId('compact-now')).not.toBeInTheDocument()
    await user.click(screen.getByTestId('compaction-stop'))
    expect(onStop).toHaveBeenCalledTimes(1)
    rerender(<ContextMeter use={use(130_000)} compaction={{...c, stopping: true}} onStop={onStop} />)
    expect(screen.getByTestId('compaction-stop')).toBeDisabled()
    expect(screen.getByTestId('compaction-stop')).toHaveTextContent('Stopping…')
  })
})

describe('SummaryMarker', () => {
  it('says how many messages it stands for and opens to show the summary', async () => {
    const user = userEvent.setup()
    render(<SummaryMarker seq={52} facts={{through: 40, messages: 40, reason: 'threshold', replaced: 90_000}} text="The user **planned** a trip." tokens={800} />)
    const marker = screen.getByTestId('summary-marker')
    expect(marker).toHaveTextContent('The 40 messages above are summarised for the model')
    expect(marker).toHaveTextContent('Compacted automatically as the context filled up · 90k → 800 tokens')
    expect(screen.queryByTestId('summary-text')).not.toBeInTheDocument()
    await user.click(screen.getByTestId('summary-toggle'))
    expect(screen.getByTestId('summary-toggle')).toHaveAttribute('aria-expanded', 'true')
    expect(screen.getByTestId('summary-text')).toHaveTextContent('The user planned a trip.')
    expect(screen.getByTestId('summary-text').querySelector('strong')).toHaveTextContent('planned')
  })
})

describe('UsageLine and Regenerate', () => {
  it('shows tokens in and out, cached where reported', () => {
    const {rerender} = render(<UsageLine usage={{inputTokens: 1234, outputTokens: 56}} />)
    expect(screen.getByTestId('usage-line')).toHaveTextContent('Tokens: 1.2k in · 56 out')
    rerender(<UsageLine usage={{inputTokens: 1234, outputTokens: 56, cacheReadTokens: 1000}} />)
    expect(screen.getByTestId('usage-line')).toHaveTextContent('1.2k in · 56 out · 1k cached')
    expect(screen.getByTestId('usage-line')).toHaveAttribute('title', expect.stringContaining('Read from the cache: 1,000'))
  })

  it('regenerates on click unless disabled', async () => {
    const user = userEvent.setup()
    const onRegenerate = vi.fn()
    const {rerender} = render(<RegenerateButton onRegenerate={onRegenerate} />)
    await user.click(screen.getByTestId('regenerate'))
    expect(onRegenerate).toHaveBeenCalledTimes(1)
    rerender(<RegenerateButton onRegenerate={onRegenerate} disabled />)
    expect(screen.getByTestId('regenerate')).toBeDisabled()
  })
})

