import {useEffect, useRef, useState} from 'react'
import {Pencil} from 'lucide-react'
import type {Message} from '../../api/types'
import {canSend} from '../../lib/drafts'
import {messageText} from '../../lib/messages'
import {fullTime} from '../../lib/time'
import {useAutoGrow} from '../../lib/useAutoGrow'
import {useChat} from '../../stores/chat'
import {useRuns} from '../../stores/runs'
import {CopyButton} from '../CopyButton'
import {MessageAttachments} from '../compose/MessageAttachments'
import {BranchSwitcher} from './BranchSwitcher'

/** Lines the edit box grows to before it scrolls. */
const MAX_EDIT_LINES = 12

interface EditProps {
  initial: string
  /** A reply streams or another change is on its way: sending waits. */
  busy: boolean
  /** Resolves true once the new version is stored. */
  onSend: (text: string) => Promise<boolean>
  onCancel: () => void
}

/**
 * The bubble turned into a text box. Enter (or "Save & send") sends the new
 * version, Shift+Enter starts a new line, Esc (or "Cancel") gives up.
 */
function EditBox({initial, busy, onSend, onCancel}: EditProps) {
  const [text, setText] = useState(initial)
  const [sending, setSending] = useState(false)
  const ref = useRef<HTMLTextAreaElement>(null)

  useEffect(() => {
    const el = ref.current
    if (!el) return
    el.focus()
    el.setSelectionRange(el.value.length, el.value.length)
  }, [])

  useAutoGrow(ref, text, MAX_EDIT_LINES)

  const ready = canSend(text) && !busy && !sending

  async function submit() {
    if (!ready) return
    setSending(true)
    // On success the edited message leaves the view and this box with it.
    if (!(await onSend(text))) setSending(false)
  }

  return (
    <form
      className="message-edit"
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      <textarea
        ref={ref}
        className="message-edit-input"
        data-testid="message-edit-input"
        aria-label="Edit your message"
        rows={1}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault()
            void submit()
          } else if (e.key === 'Escape') {
            e.preventDefault()
            onCancel()
          }
        }}
      />
      <div className="message-edit-actions">
        <button type="button" className="btn btn-secondary btn-sm" data-testid="message-edit-cancel" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="submit"
          className="btn btn-primary btn-sm"
          data-testid="message-edit-send"
          disabled={!ready}
          title={busy ? 'Wait for the reply to finish' : undefined}
        >
          Save &amp; send
        </button>
      </div>
    </form>
  )
}

interface Props {
  message: Message
  sessionId: string
}

/**
 * One of the user's messages: the bubble, and under it Copy, Edit (send a
 * new version, which starts a new branch) and, for an edited message, the
 * switcher between its versions.
 */
export function UserMessage({message, sessionId}: Props) {
  const text = messageText(message)
  const [editing, setEditing] = useState(false)
  const streaming = useRuns((s) => !!s.active[sessionId])
  const sending = useChat((s) => !!s.sending[sessionId])
  const switching = useChat((s) => !!s.switching[sessionId])
  const editButton = useRef<HTMLButtonElement>(null)
  const busy = streaming || sending || switching

  function stopEditing() {
    setEditing(false)
    // Give the focus back to where editing started.
    requestAnimationFrame(() => editButton.current?.focus())
  }

  if (editing) {
    return (
      <div className="message message-user is-editing" data-testid="message" data-role="user" data-status={message.status} data-seq={message.seq}>
        <EditBox
          initial={text}
          busy={busy}
          onSend={(t) => useChat.getState().editAndResend(sessionId, message.seq, t)}
          onCancel={stopEditing}
        />
      </div>
    )
  }

  return (
    <div className="message message-user" data-testid="message" data-role="user" data-status={message.status} data-seq={message.seq}>
      <div className="message-content" title={fullTime(message.createdAt)}>
        <MessageAttachments parts={message.parts} sessionId={sessionId} />
        {text && <div className="message-text">{text}</div>}
      </div>
      {(text || message.branch) && (
        <div className={`message-actions${message.branch ? ' has-branches' : ''}`}>
          {text && (
            <>
              <CopyButton text={text} label="message" variant="icon" testId="copy-message" />
              <button
                ref={editButton}
                type="button"
                className="icon-btn icon-btn-sm"
                data-testid="message-edit"
                aria-label="Edit message"
                title={streaming ? 'Wait for the reply to finish' : 'Edit'}
                disabled={busy}
                onClick={() => setEditing(true)}
              >
                <Pencil size={14} aria-hidden="true" />
              </button>
            </>
          )}
          {message.branch && (
            <BranchSwitcher
              branch={message.branch}
              disabled={busy}
              onSwitch={(seq) => void useChat.getState().switchBranch(sessionId, seq)}
            />
          )}
        </div>
      )}
    </div>
  )
}
