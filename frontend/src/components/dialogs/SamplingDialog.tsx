import {useRef} from 'react'
import {Sparkles} from 'lucide-react'
import {type SamplingRequest, useDialogs} from '../../stores/dialogs'
import {Modal} from './Modal'

interface Props {
  request: SamplingRequest
  /** How many more requests wait behind this one. */
  queued: number
}

/**
 * A connector asks to use the session's model: shows the prompt, Approve
 * runs it (the model's answer is shown once it arrives), Deny refuses.
 */
export function SamplingDialog({request, queued}: Props) {
  const answer = useDialogs((s) => s.answerSampling)
  const dismiss = useDialogs((s) => s.dismiss)
  const approveRef = useRef<HTMLButtonElement>(null)
  const closeRef = useRef<HTMLButtonElement>(null)
  const pending = request.status === 'pending'
  const done = request.status === 'done'
  const messages = request.messages ?? []

  function onEscape() {
    if (pending) void answer(request.requestId, false)
    else if (done) dismiss(request.requestId)
  }
  function onEnter() {
    if (pending) void answer(request.requestId, true)
    else if (done) dismiss(request.requestId)
  }

  return (
    <Modal
      className="sampling-dialog"
      testId="sampling-dialog"
      initialFocus={done ? closeRef : approveRef}
      onEscape={onEscape}
      onEnter={onEnter}
      title={
        <span className="approval-title">
          <span className="approval-icon" aria-hidden="true">
            <Sparkles size={18} />
          </span>
          <span>Let {request.connector || 'a connector'} use the model?</span>
        </span>
      }
    >
      <div className="dialog-body sampling-body">
        <p>
          <strong>{request.connector}</strong> wants to send this prompt to the chat's model
          {request.modelHint ? (
            <>
              {' '}
              (it prefers <code>{request.modelHint}</code>)
            </>
          ) : null}
          {request.maxTokens ? `, for at most ${request.maxTokens} tokens` : ''}.
        </p>
        {request.systemPrompt && (
          <div className="sampling-message" data-testid="sampling-system">
            <span className="tool-section-label">System</span>
            <pre>{request.systemPrompt}</pre>
          </div>
        )}
        {messages.map((m, i) => (
          <div key={i} className="sampling-message" data-testid="sampling-message">
            <span className="tool-section-label">{m.role}</span>
            <pre>{m.text}</pre>
          </div>
        ))}
        {request.status === 'running' && (
          <p className="sampling-running" role="status">
            Waiting for the model…
          </p>
        )}
        {done && (
          <div className="sampling-message sampling-answer">
            <span className="tool-section-label">{request.error ? 'Failed' : `Answer${request.model ? ` (${request.model})` : ''}`}</span>
            <pre data-testid="sampling-result">{request.error || request.result}</pre>
          </div>
        )}
      </div>
      <div className="dialog-actions approval-actions">
        {queued > 0 && <span className="approval-queue">{queued} more waiting</span>}
        {done ? (
          <button ref={closeRef} type="button" className="btn btn-primary" data-testid="sampling-close" onClick={() => dismiss(request.requestId)}>
            Close
          </button>
        ) : (
          <>
            <button
              type="button"
              className="btn btn-secondary"
              data-testid="sampling-deny"
              disabled={!pending}
              onClick={() => void answer(request.requestId, false)}
            >
              Deny
              <kbd className="btn-kbd" aria-hidden="true">Esc</kbd>
            </button>
            <button
              ref={approveRef}
              type="button"
              className="btn btn-primary"
              data-testid="sampling-approve"
              disabled={!pending}
              onClick={() => void answer(request.requestId, true)}
            >
              Approve
            </button>
          </>
        )}
      </div>
    </Modal>
  )
}
