import {useEffect, useRef} from 'react'
import {ArrowUp, Square} from 'lucide-react'
import {chatBlocker} from '../lib/blocker'
import {canSend, getDraft} from '../lib/drafts'
import {switchableConnectors} from '../lib/noTools'
import {useAutoGrow} from '../lib/useAutoGrow'
import {useChat} from '../stores/chat'
import {useModels} from '../stores/models'
import {useActiveRun, useRuns} from '../stores/runs'
import {useSessions} from '../stores/sessions'
import {useTools} from '../stores/tools'
import {useUI} from '../stores/ui'
import {composeApi} from '../api/compose'
import {useCompose} from './compose/useCompose'
import {useComposeRevision} from './compose/useComposeEvents'

/** Lines the composer grows to before it scrolls. */
export const MAX_LINES = 8

/**
 * The message box. Enter sends, Shift+Enter starts a new line, Esc stops
 * the reply streaming in (Stop replaces Send meanwhile); the text is kept
 * per session as a draft.
 */
export function Composer({sessionId}: {sessionId: string}) {
  const text = useChat((s) => getDraft(s.drafts, sessionId))
  const sending = useChat((s) => !!s.sending[sessionId])
  const {setDraft, send} = useChat.getState()
  const run = useActiveRun(sessionId)
  const stop = useRuns((s) => s.stop)
  const applyNow = useRuns((s) => s.applyNow)
  // Connectors changed since the running step started: offer to restart it with them.
  const toolsRevision = useSessions((s) => s.sessions.find((x) => x.id === sessionId)?.toolsRevision)
  const toolsChanged =
    !!run && run.toolsRevision !== undefined && toolsRevision !== undefined && toolsRevision > run.toolsRevision
  const session = useSessions((s) => s.sessions.find((x) => x.id === sessionId))
  const providers = useModels((s) => (s.loaded ? s.providers : undefined))
  // Nothing can answer this chat: say why instead of letting a message go nowhere.
  const blocker = chatBlocker(session, providers)
  const {setView, openModelPicker} = useUI.getState()
  // No tool is on while connectors could give some: offer them in one click.
  const toolsData = useTools((s) => s.data)
  const switchable = switchableConnectors(toolsData, sessionId)
  const turnOn = () => {
    for (const c of switchable) void useTools.getState().setConnector(c.id, true)
  }
  const focusToken = useUI((s) => s.composerFocus)
  const ref = useRef<HTMLTextAreaElement>(null)

  useEffect(() => {
    if (focusToken > 0) ref.current?.focus()
  }, [focusToken])

  useAutoGrow(ref, text, MAX_LINES)

  const revision = useComposeRevision()
  const compose = useCompose({sessionId, text, setText: (t) => setDraft(sessionId, t), api: composeApi, revision, disabled: !!blocker})

  const streaming = !!run
  const ready = canSend(text) && !sending && !streaming && !blocker && compose.refusals.length === 0

  function submit() {
    if (!ready) return
    void send(sessionId, text, compose.attachments).then((ok) => ok && compose.sent())
  }

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault()
        submit()
      }}
    >
      <div className="compose-layer">{compose.overlay}</div>
      {compose.chips}
      <div
        className={`composer-box${compose.dropping ? ' is-dropping' : ''}`}
        onDragOver={compose.onDragOver}
        onDragLeave={compose.onDragLeave}
        onDrop={compose.onDrop}
      >
        {compose.attachButton}
        <textarea
          ref={ref}
          className="composer-input"
          data-testid="composer"
          aria-label="Message"
          placeholder="Message Maestro…"
          rows={1}
          value={text}
          onChange={(e) => setDraft(sessionId, e.target.value)}
          onPaste={compose.onPaste}
          onKeyDown={(e) => {
            if (compose.onKeyDown(e)) return
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault()
              submit()
            } else if (e.key === 'Escape' && streaming) {
              e.preventDefault()
              void stop(sessionId)
            }
          }}
        />
        {streaming ? (
          <button
            type="button"
            className="send-btn stop-btn"
            data-testid="stop"
            aria-label="Stop the reply"
            title="Stop (Esc)"
            disabled={run.stopping}
            onClick={() => void stop(sessionId)}
          >
            <Square size={12} fill="currentColor" strokeWidth={0} aria-hidden="true" />
          </button>
        ) : (
          <button type="submit" className="send-btn" data-testid="send" aria-label="Send message" disabled={!ready}>
            <ArrowUp size={18} strokeWidth={2.25} aria-hidden="true" />
          </button>
        )}
      </div>
      <p className={`composer-hint${blocker && !streaming ? ' is-blocked' : ''}`} data-testid={blocker && !streaming ? 'composer-blocked' : undefined}>
        {blocker && !streaming ? (
          <>
            {blocker.text}{' '}
            {blocker.accounts && (
              <button type="button" className="link-btn" data-testid="blocked-accounts" onClick={() => setView('accounts')}>
                Open Accounts
              </button>
            )}
            {blocker.accounts && blocker.picker && ' · '}
            {blocker.picker && (
              <button type="button" className="link-btn" data-testid="blocked-picker" onClick={openModelPicker}>
                Choose a model
              </button>
            )}
          </>
        ) : toolsChanged ? (
          <>
            Your connectors changed.{' '}
            <button type="button" className="link-btn" data-testid="apply-now" onClick={() => void applyNow(sessionId)}>
              Use them now
            </button>
          </>
        ) : streaming ? (
          <>
            <kbd className="kbd">Esc</kbd> to stop the reply
          </>
        ) : switchable.length > 0 ? (
          <span data-testid="composer-no-tools">
            No tools are on in this chat.{' '}
            <button type="button" className="link-btn" data-testid="turn-on-connectors" onClick={turnOn}>
              {switchable.length === 1 ? `Turn on ${switchable[0].name}` : `Turn on ${switchable.length} connectors`}
            </button>
          </span>
        ) : (
          <>
            <kbd className="kbd">Enter</kbd> to send, <kbd className="kbd">Shift+Enter</kbd> for a new line
          </>
        )}
      </p>
    </form>
  )
}
