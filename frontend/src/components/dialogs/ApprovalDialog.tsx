import {useRef} from 'react'
import {Eye, ShieldCheck} from 'lucide-react'
import {isEmptyJson} from '../../lib/json'
import {splitToolName} from '../../lib/toolCards'
import type {ApprovalRequest} from '../../stores/runReducer'
import {useRuns} from '../../stores/runs'
import {useSessions} from '../../stores/sessions'
import {ValueView} from '../chat/ValueView'

/** Arguments longer than this (characters) get a notice to read them through. */
const LONG_ARGS = 2000

function formatBytes(n: number): string {
  return n < 1024 ? `${n} characters` : `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`
}
import {ToolName} from '../tools/ToolName'
import {AlwaysAllow, AnnotationBadges, DefinitionDiff} from '../trust'
import type {ApprovalDecision} from '../../api/types'
import {Modal} from './Modal'

interface Props {
  request: ApprovalRequest
  /** How many more requests wait behind this one. */
  queued: number
}

/** Asks whether a tool may run: Enter allows once, Esc denies. */
export function ApprovalDialog({request, queued}: Props) {
  const answer = useRuns((s) => s.answer)
  const allowRef = useRef<HTMLButtonElement>(null)
  const otherSession = useSessions((s) =>
    request.sessionId && request.sessionId !== s.activeId ? s.sessions.find((x) => x.id === request.sessionId)?.title : undefined,
  )
  const {tool, server} = splitToolName(request.name, request.server || undefined)
  const decide = (d: ApprovalDecision) => void answer(request.requestId, d)

  return (
    <Modal
      className="approval-dialog"
      testId="approval-dialog"
      initialFocus={allowRef}
      onEscape={() => decide('deny')}
      onEnter={() => decide('allow_once')}
      title={
        <span className="approval-title">
          <span className="approval-icon" aria-hidden="true">
            <ShieldCheck size={18} />
          </span>
          <span>
            Allow <ToolName name={tool} className="approval-tool" />
            {request.change ? ' again' : ''}?
          </span>
        </span>
      }
    >
      <div className="dialog-body approval-body">
        <p>
          {server ? (
            <>
              The <strong data-testid="approval-server">{server}</strong> connector wants to run{' '}
              <code className="approval-name">
                <ToolName name={request.name} testId="approval-tool" />
              </code>
            </>
          ) : (
            <>
              Maestro wants to run{' '}
              <code className="approval-name">
                <ToolName name={request.name} testId="approval-tool" />
              </code>
            </>
          )}
          {otherSession && (
            <>
              {' '}
              in <strong>{otherSession}</strong>
            </>
          )}
          .
        </p>
        <AnnotationBadges hints={request.hints} presumeDestructive={request.destructive} className="approval-hints" />
        {request.change && <DefinitionDiff change={request.change} />}
        {request.requestedBy === 'app' && (
          <p className="approval-claim" data-testid="approval-requested-by-app">
            Requested by the app in a tool card, not by the model.
          </p>
        )}
        {request.readOnlyHint && (
          <p className="approval-claim" data-testid="approval-readonly-claim">
            <Eye size={14} aria-hidden="true" />
            <span>
              The {server ? <strong>{server}</strong> : ''} server says this tool only reads and changes nothing. That is the
              server&rsquo;s own claim: Maestro cannot check it, so it still asks you.
            </span>
          </p>
        )}
        <div className="approval-args">
          <span className="tool-section-label">Arguments</span>
          {isEmptyJson(request.arguments) ? (
            <p className="approval-noargs">No arguments.</p>
          ) : (
            <>
              {request.arguments.length > LONG_ARGS && (
                <p className="approval-long" data-testid="approval-long" role="note">
                  These arguments are long ({formatBytes(request.arguments.length)}): read them through before you allow the call.
                </p>
              )}
              <ValueView text={request.arguments} testId="approval-args" />
            </>
          )}
        </div>
      </div>
      <div className="dialog-actions approval-actions">
        {queued > 0 && <span className="approval-queue">{queued} more waiting</span>}
        <button type="button" className="btn btn-secondary" data-testid="approval-deny" onClick={() => decide('deny')}>
          Deny
          <kbd className="btn-kbd" aria-hidden="true">Esc</kbd>
        </button>
        <AlwaysAllow tool={tool} onAllow={(scope) => decide(scope === 'chat' ? 'always_allow' : 'always_allow_all_chats')} />
        <button
          ref={allowRef}
          type="button"
          className="btn btn-primary"
          data-testid="approval-allow-once"
          aria-keyshortcuts="Enter"
          onClick={() => decide('allow_once')}
        >
          Allow once
          <kbd className="btn-kbd" aria-hidden="true">↵</kbd>
        </button>
      </div>
    </Modal>
  )
}
