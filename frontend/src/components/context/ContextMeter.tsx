import {useCallback, useRef, useState} from 'react'
import {FoldVertical, Square} from 'lucide-react'
import type {Compaction} from '../../stores/context'
import {type ContextUse, exactTokens, formatTokens, isZeroUsage, meterLevel, percent, shares, type TokenUsage} from '../../lib/usage'
import {UsageLine} from './UsageLine'
import {escapeCloses, useClickAway} from '../../lib/useClickAway'

interface Props {
  /** The latest measurement; undefined until the first one arrives. */
  use?: ContextUse
  /** The chat's token totals. */
  totals?: TokenUsage
  /** A compaction under way. */
  compaction?: Compaction
  /** "Compact now"; undefined while it cannot run (a turn is running). */
  onCompact?: () => void
  /** Stops the compaction under way. */
  onStop?: () => void
}

/** The ring's geometry: a circle of radius R in a 20 px box. */
const R = 8
const CIRCUMFERENCE = 2 * Math.PI * R

function Ring({used, tools}: {used: number; tools: number}) {
  return (
    <svg className="context-ring" width="16" height="16" viewBox="0 0 20 20" aria-hidden="true">
      <circle className="context-ring-track" cx="10" cy="10" r={R} />
      <circle className="context-ring-used" cx="10" cy="10" r={R} strokeDasharray={`${used * CIRCUMFERENCE} ${CIRCUMFERENCE}`} />
      <circle className="context-ring-tools" cx="10" cy="10" r={R} strokeDasharray={`${tools * CIRCUMFERENCE} ${CIRCUMFERENCE}`} />
    </svg>
  )
}

function Progress({c, onStop}: {c: Compaction; onStop?: () => void}) {
  const share = c.requests > 0 ? c.done / c.requests : 0
  return (
    <div className="context-progress" data-testid="compaction-progress" role="status">
      <div className="context-progress-text">
        Summarising {c.messages} messages ({formatTokens(c.tokens)} tokens)
        {c.requests > 1 && ` · part ${Math.min(c.done + 1, c.requests)} of ${c.requests}`}
      </div>
      <div className="context-bar">
        <div className="context-bar-used is-indeterminate" style={{width: `${Math.max(share, 0.05) * 100}%`}} />
      </div>
      {onStop && (
        <button type="button" className="btn btn-secondary btn-sm" data-testid="compaction-stop" disabled={c.stopping} onClick={onStop}>
          <Square size={12} aria-hidden="true" />
          {c.stopping ? 'Stopping…' : 'Stop'}
        </button>
      )}
    </div>
  )
}

function Details({use, totals, compaction, onCompact, onStop}: Props & {use: ContextUse}) {
  const s = shares(use)
  return (
    <div className="picker-menu context-panel" role="dialog" aria-label="Context" data-testid="context-panel">
      <div className="context-panel-head">
        <span className="context-panel-big" data-testid="context-tokens">
          {formatTokens(use.tokens)} of {formatTokens(use.window)} tokens
        </span>
        <span className="muted">{percent(s.used)}</span>
      </div>
      <div className="context-bar" aria-hidden="true">
        <div className="context-bar-used" style={{width: `${s.used * 100}%`}} />
        <div className="context-bar-tools" style={{width: `${s.tools * 100}%`}} />
        {s.threshold > 0 && <div className="context-bar-threshold" style={{left: `${s.threshold * 100}%`}} />}
      </div>
      <dl className="context-facts">
        <dt>Tool declarations</dt>
        <dd data-testid="context-tools">
          {formatTokens(use.toolTokens)} · {percent(s.tools)} of the window
        </dd>
        <dt>Compacts at</dt>
        <dd>
          {formatTokens(use.threshold)} ({percent(s.threshold)})
        </dd>
        <dt>Kept for the answer</dt>
        <dd>{formatTokens(use.reserve)}</dd>
        {use.summary && (
          <>
            <dt>Summarised</dt>
            <dd data-testid="context-summarised">{use.summary.messages} earlier messages</dd>
          </>
        )}
        {totals && !isZeroUsage(totals) && (
          <>
            <dt>This chat so far</dt>
            <dd data-testid="chat-totals">
              <UsageLine usage={totals} label="This chat" />
            </dd>
          </>
        )}
      </dl>
      <p className="context-note">
        {use.reported ? 'Counted by the provider for the last answer, estimated since.' : 'Estimated by Maestro.'} Older
        messages are summarised for the model when the context passes the threshold; they stay here.
      </p>
      {compaction ? (
        <Progress c={compaction} onStop={onStop} />
      ) : (
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          data-testid="compact-now"
          disabled={!onCompact}
          title={onCompact ? 'Summarise everything before the latest turn now' : 'Wait for the answer to finish'}
          onClick={onCompact}
        >
          <FoldVertical size={14} aria-hidden="true" />
          Compact now
        </button>
      )}
    </div>
  )
}

/**
 * The chat header's context meter: how much of the model's context window
 * the next request takes (a ring, the share as text, the part tool
 * declarations take in a second colour). It opens a panel with the
 * numbers, the chat's token totals, and "Compact now" with its progress and
 * Stop.
 */
export function ContextMeter(props: Props) {
  const {use, compaction} = props
  const [open, setOpen] = useState(false)
  const rootRef = useRef<HTMLDivElement>(null)

  const close = useCallback(() => setOpen(false), [])
  useClickAway(rootRef, open, close)

  if (!use || use.window <= 0) return null
  const s = shares(use)
  const level = compaction ? 'busy' : meterLevel(use)
  const title = `Context: ${exactTokens(use.tokens)} of ${exactTokens(use.window)} tokens (${percent(s.used)}); tool declarations ${exactTokens(use.toolTokens)}`
  return (
    <div
      className="context-meter"
      ref={rootRef}
      onKeyDown={escapeCloses(open, close)}
    >
      <button
        type="button"
        className={`pill context-pill is-${level}`}
        data-testid="context-meter"
        data-level={level}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-label={title}
        title={title}
        onClick={() => setOpen(!open)}
      >
        <Ring used={s.used} tools={s.tools} />
        <span data-testid="context-share">{compaction ? 'Compacting…' : percent(s.used)}</span>
      </button>
      {open && <Details {...props} use={use} />}
    </div>
  )
}
