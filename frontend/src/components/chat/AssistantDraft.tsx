import type {RunDraft} from '../../stores/runReducer'
import {useRuns} from '../../stores/runs'
import {Markdown} from './Markdown'
import {Reasoning} from './Reasoning'
import {ToolCard} from './ToolCard'
import {TypingIndicator} from './TypingIndicator'

interface Props {
  run: RunDraft
  /** Tool calls already shown by stored messages. */
  storedCalls: ReadonlySet<string>
  /** The row above is a stored reply of this run (drawn closer). */
  follows?: boolean
}

function retryLabel(r: NonNullable<RunDraft['retrying']>): string {
  const s = Math.round(r.delayMs / 1000)
  const why = r.reason === 'rate_limit' ? 'Rate limited' : r.reason === 'overloaded' ? 'The provider is busy' : 'Connection hiccup'
  return r.reason === 'apply_now' ? 'Restarting with the new tools…' : `${why} — retrying${s > 0 ? ` in ${s} s` : ''}…`
}

/**
 * The reply streaming in: reasoning, text and the tool calls not stored
 * yet; three dots while nothing has arrived (and no tool is busy).
 */
export function AssistantDraft({run, storedCalls, follows}: Props) {
  const cls = `message message-assistant${follows ? ' follows' : ''}`
  const calls = run.calls.filter((id) => !storedCalls.has(id))
  const busyTool = useRuns((s) =>
    run.calls.some((id) => s.tools[id]?.status === 'running' || s.tools[id]?.status === 'pending'),
  )
  const thinking = run.reasoning !== '' && run.text === '' && run.reasoningMs === undefined && calls.length === 0
  const hasContent = run.text !== '' || run.reasoning !== '' || calls.length > 0

  if (!hasContent) {
    if (busyTool && !run.retrying) return null
    return (
      <div className={cls} data-role="assistant" data-status="streaming">
        <TypingIndicator label={run.retrying ? retryLabel(run.retrying) : undefined} />
      </div>
    )
  }

  return (
    <div className={`${cls} is-draft`} data-testid="message" data-role="assistant" data-status="streaming">
      <div className="message-content" data-testid="assistant-message" data-status="streaming" aria-busy="true">
        {run.reasoning && <Reasoning text={run.reasoning} thinking={thinking} ms={run.reasoningMs} />}
        {run.text && <Markdown text={run.text} testId="message-text" className="is-streaming" />}
        {calls.map((id) => (
          <ToolCard key={id} callId={id} pendingStatus="preparing" />
        ))}
      </div>
    </div>
  )
}
