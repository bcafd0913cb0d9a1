import {type ReactNode, type RefObject, useEffect, useId, useRef} from 'react'

interface Props {
  title: ReactNode
  children: ReactNode
  /** Esc (and nothing else: a click outside does not dismiss a request). */
  onEscape: () => void
  /** Enter outside a button (or a field that wants it). */
  onEnter?: () => void
  /** Gets focus when the modal opens. */
  initialFocus?: RefObject<HTMLElement | null>
  className?: string
  testId?: string
}

const FOCUSABLE = 'button:not(:disabled), [href], [tabindex]:not([tabindex="-1"]), input, textarea, select'

/**
 * A modal dialog for requests from a run: focus starts inside and stays
 * there (Tab wraps), Esc and Enter have meanings, and focus goes back where
 * it was when it closes.
 */
export function Modal({title, children, onEscape, onEnter, initialFocus, className, testId}: Props) {
  const titleId = useId()
  const boxRef = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null
    ;(initialFocus?.current ?? boxRef.current)?.focus()
    return () => {
      if (previous && previous.isConnected) previous.focus()
    }
  }, [initialFocus])

  function onKeyDown(e: React.KeyboardEvent) {
    if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      onEscape()
      return
    }
    if (e.key === 'Enter' && onEnter && !e.shiftKey && !e.nativeEvent.isComposing) {
      const t = e.target as HTMLElement
      if (t.tagName === 'BUTTON' || t.tagName === 'TEXTAREA' || t.tagName === 'A') return
      e.preventDefault()
      onEnter()
      return
    }
    if (e.key !== 'Tab' || !boxRef.current) return
    const focusable = boxRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)
    if (focusable.length === 0) return
    const first = focusable[0]
    const last = focusable[focusable.length - 1]
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault()
      last.focus()
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault()
      first.focus()
    }
  }

  return (
    <div className="dialog-backdrop">
      <div
        ref={boxRef}
        className={className ? `dialog ${className}` : 'dialog'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-testid={testId}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        {children}
      </div>
    </div>
  )
}
