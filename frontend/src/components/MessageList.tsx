import {useLayoutEffect, useRef} from 'react'
import {CircleAlert} from 'lucide-react'
import type {Message} from '../api/types'
import {fullTime} from '../lib/time'
import {messageText} from '../lib/messages'

function MessageRow({message}: {message: Message}) {
  const text = messageText(message)
  return (
    <div className={`message message-${message.role}`} data-testid="message" data-role={message.role} data-status={message.status}>
      <div className="message-content" title={fullTime(message.createdAt)}>
        {text && <div className="message-text">{text}</div>}
        {message.error && (
          <div className="message-error">
            <CircleAlert size={14} aria-hidden="true" />
            <span>{message.error}</span>
          </div>
        )}
      </div>
    </div>
  )
}

interface Props {
  sessionId: string
  messages: Message[]
  /** Shown under the last message (e.g. the no-provider notice). */
  footer?: React.ReactNode
}

/** The conversation, scrolled to the newest message. */
export function MessageList({sessionId, messages, footer}: Props) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const last = messages[messages.length - 1]?.id

  useLayoutEffect(() => {
    const el = scrollRef.current
    if (el) el.scrollTop = el.scrollHeight
  }, [sessionId, last])

  return (
    <div className="message-scroll" ref={scrollRef}>
      <div className="message-list" role="log" aria-label="Messages">
        {messages.map((m) => (
          <MessageRow key={m.id} message={m} />
        ))}
        {footer}
      </div>
    </div>
  )
}
