import {memo} from 'react'
import {CircleStop} from 'lucide-react'
import type {Branch, Message, ToolResult} from '../../api/types'
import {isBareFailure, messageText} from '../../lib/messages'
import {isZeroUsage, type TokenUsage} from '../../lib/usage'
import type {RunErrorInfo} from '../../lib/runError'
import {modelName, useModels} from '../../stores/models'
import {useChat} from '../../stores/chat'
import {useRuns} from '../../stores/runs'
import {RegenerateButton} from '../context/RegenerateButton'
import {UsageLine} from '../context/UsageLine'
import {CopyButton} from '../CopyButton'
import {BranchSwitcher} from './BranchSwitcher'
import {Markdown} from './Markdown'
import {Reasoning} from './Reasoning'
import {RunError} from './RunError'
import {ToolCard} from './ToolCard'
import {UserMessage} from './UserMessage'

interface Props {
  message: Message
  sessionId: string
  /** Stored tool results by call id. */
  results: ReadonlyMap<string, ToolResult>
  /** The session's running run, if any. */
  activeRunId?: string
  /** The error to show on a failed reply (with kind and reset time when known live). */
  error?: RunErrorInfo
  /** Set on the last failed turn while nothing runs. */
  onRetry?: () => void
  /** The previous row is a reply of the same turn (drawn closer). */
  follows?: boolean
  /** The turn goes on below (no action bar here). */
  continues?: boolean
  /** What Copy copies: the whole turn's text; this message's by default. */
  copyText?: string
  /** The turn's tokens (issue 18's usage line), under its last reply. */
  usage?: TokenUsage
  /** Answers the turn again as a new branch; set on a turn's last reply when the chat can answer. */
  onRegenerate?: () => void
  /** The versions of the turn's answer (regenerated), under its last reply. */
  branch?: Branch
}

function AssistantParts({message, results, activeRunId}: Pick<Props, 'message' | 'results' | 'activeRunId'>) {
  const thoughtMs = useRuns((s) => s.thoughtMs[message.id])
  const running = !!activeRunId && message.runId === activeRunId
  return (
    <>
      {message.parts.map((p, i) => {
        if (p.type === 'reasoning' && p.text) return <Reasoning key={i} text={p.text} ms={thoughtMs} />
        if (p.type === 'text' && p.text) return <Markdown key={i} text={p.text} testId="message-text" />
        if (p.type === 'tool_call' && p.callId)
          return (
            <ToolCard
              key={p.callId}
              callId={p.callId}
              part={p}
              result={results.get(p.callId)}
              pendingStatus={running ? 'running' : 'stopped'}
            />
          )
        return null
      })}
    </>
  )
}

function MessageMeta({message}: {message: Message}) {
  const providers = useModels((s) => s.providers)
  const name = modelName(providers, message.provider, message.model)
  return (
    <>
      {message.status === 'canceled' && (
        <span className="message-tag" data-testid="message-stopped">
          <CircleStop size={12} aria-hidden="true" />
          Stopped
        </span>
      )}
      {name && <span className="message-model">{name}</span>}
    </>
  )
}

/** One stored message: a user bubble, or an assistant reply with its reasoning, text and tool calls. */
export const MessageRow = memo(function MessageRow(props: Props) {
  const {message, sessionId, results, activeRunId, error, onRetry, follows, continues, copyText, usage, onRegenerate, branch} = props
  const text = messageText(message)
  const cls = `message message-assistant${follows ? ' follows' : ''}`
  const failure = message.status === 'failed' ? (error ?? message.failure ?? {message: message.error ?? ''}) : undefined

  if (isBareFailure(message)) {
    return (
      <div className={cls} data-role="assistant" data-status="failed" data-seq={message.seq}>
        <RunError error={failure!} onRetry={onRetry} />
      </div>
    )
  }

  if (message.role === 'user') return <UserMessage message={message} sessionId={sessionId} />

  return (
    <div className={cls} data-testid="message" data-role={message.role} data-status={message.status} data-seq={message.seq}>
      <div className="message-content" data-testid="assistant-message" data-status={message.status}>
        <AssistantParts message={message} results={results} activeRunId={activeRunId} />
        {failure && <RunError error={failure} onRetry={onRetry} />}
      </div>
      {!continues && (
        <div className="message-actions">
          {(copyText || text) && (
            <CopyButton text={copyText || text} label="message" variant="icon" testId="copy-message" />
          )}
          {onRegenerate && <RegenerateButton onRegenerate={onRegenerate} disabled={!!activeRunId} />}
          {branch && (
            <BranchSwitcher
              branch={branch}
              disabled={!!activeRunId}
              onSwitch={(seq) => void useChat.getState().switchBranch(sessionId, seq)}
            />
          )}
          <MessageMeta message={message} />
          {usage && !isZeroUsage(usage) && <UsageLine usage={usage} />}
        </div>
      )}
    </div>
  )
})
