// Small pieces of a tool card: JSON, progress, logs, elapsed time.

import {useEffect, useRef} from 'react'
import {formatDuration} from '../../lib/duration'
import {highlightJson} from '../../lib/highlight'
import {prettyJson} from '../../lib/json'
import {progressFraction} from '../../lib/toolCards'
import {useNow} from '../../lib/useNow'
import type {LogLine} from '../../stores/runReducer'

/** JSON text, pretty-printed and highlighted when it parses. */
export function JsonBlock({text, streaming, testId}: {text: string; streaming?: boolean; testId?: string}) {
  const pretty = prettyJson(text)
  return (
    <pre className="json-block" data-testid={testId}>
      <code className="hljs">
        {pretty.json ? highlightJson(pretty.text) : pretty.text}
        {streaming && <span className="stream-caret" aria-hidden="true" />}
      </code>
    </pre>
  )
}

interface ProgressProps {
  progress: number
  total?: number
  message?: string
}

/** A determinate bar when the total is known, an indeterminate one otherwise. */
export function ToolProgress({progress, total, message}: ProgressProps) {
  const f = progressFraction(progress, total)
  const pct = f === null ? undefined : Math.round(f * 100)
  return (
    <div className="tool-progress" data-testid="tool-progress" data-determinate={f !== null}>
      <div
        className={`progress-track${f === null ? ' is-indeterminate' : ''}`}
        role="progressbar"
        aria-label={message || 'Progress'}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
      >
        <div className="progress-fill" style={f === null ? undefined : {width: `${pct}%`}} />
      </div>
      <div className="tool-progress-text">
        {message && <span className="tool-progress-message">{message}</span>}
        <span className="tool-progress-count">
          {pct !== undefined ? `${pct}%` : progress > 0 ? String(progress) : ''}
        </span>
      </div>
    </div>
  )
}

/** Live log lines, kept scrolled to the newest. */
export function ToolLogs({logs}: {logs: readonly LogLine[]}) {
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = ref.current
    if (el) el.scrollTop = el.scrollHeight
  }, [logs.length])
  return (
    <div className="tool-logs" ref={ref} data-testid="tool-logs" role="log" aria-label="Tool log">
      {logs.map((l, i) => (
        <div key={i} className={`tool-log tool-log-${l.level.toLowerCase()}`}>
          <span className="tool-log-level">{l.level}</span>
          <span className="tool-log-text">{l.text}</span>
        </div>
      ))}
    </div>
  )
}

/** Whole seconds since a tool started running, ticking. */
export function Elapsed({since}: {since: number}) {
  const now = useNow(1000)
  const s = Math.floor(Math.max(0, now - since) / 1000)
  return <>{s < 60 ? `${s} s` : formatDuration(s * 1000)}</>
}
