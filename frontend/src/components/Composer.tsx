import {useEffect, useLayoutEffect, useRef} from 'react'
import {ArrowUp} from 'lucide-react'
import {canSend, getDraft} from '../lib/drafts'
import {useChat} from '../stores/chat'
import {useUI} from '../stores/ui'

/** Lines the composer grows to before it scrolls. */
export const MAX_LINES = 8

/**
 * The message box. Enter sends, Shift+Enter starts a new line; the text is
 * kept per session as a draft.
 */
export function Composer({sessionId}: {sessionId: string}) {
  const text = useChat((s) => getDraft(s.drafts, sessionId))
  const sending = useChat((s) => !!s.sending[sessionId])
  const {setDraft, send} = useChat.getState()
  const focusToken = useUI((s) => s.composerFocus)
  const ref = useRef<HTMLTextAreaElement>(null)

  useEffect(() => {
    if (focusToken > 0) ref.current?.focus()
  }, [focusToken])

  // Grow with the text up to MAX_LINES.
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    const style = getComputedStyle(el)
    const line = parseFloat(style.lineHeight) || 22
    const pad = (parseFloat(style.paddingTop) || 0) + (parseFloat(style.paddingBottom) || 0)
    el.style.height = 'auto'
    const max = line * MAX_LINES + pad
    el.style.height = `${Math.min(el.scrollHeight, max)}px`
    el.style.overflowY = el.scrollHeight > max ? 'auto' : 'hidden'
  }, [text])

  const ready = canSend(text) && !sending

  function submit() {
    if (!ready) return
    void send(sessionId, text)
  }

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault()
        submit()
      }}
    >
      <div className="composer-box">
        <textarea
          ref={ref}
          className="composer-input"
          data-testid="composer"
          aria-label="Message"
          placeholder="Message Maestro…"
          rows={1}
          value={text}
          onChange={(e) => setDraft(sessionId, e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault()
              submit()
            }
          }}
        />
        <button type="submit" className="send-btn" data-testid="send" aria-label="Send message" disabled={!ready}>
          <ArrowUp size={18} strokeWidth={2.25} aria-hidden="true" />
        </button>
      </div>
      <p className="composer-hint">
        <kbd className="kbd">Enter</kbd> to send, <kbd className="kbd">Shift+Enter</kbd> for a new line
      </p>
    </form>
  )
}
