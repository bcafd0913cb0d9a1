import {useCallback, useEffect, useId, useRef, useState} from 'react'
import {ChevronDown} from 'lucide-react'
import type {AllowScope} from '../../lib/trust'
import {escapeCloses, useClickAway} from '../../lib/useClickAway'

interface Props {
  onAllow: (scope: AllowScope) => void
  /** Named in the menu: "Always allow <tool>". */
  tool?: string
}

/**
 * "Always allow", scoped: in this chat (the session's grants) or in every
 * chat (a grant kept by Trust). It opens a two-item menu, so a grant for
 * every chat is never one stray click away.
 */
export function AlwaysAllow({onAllow, tool}: Props) {
  const [open, setOpen] = useState(false)
  const menuId = useId()
  const firstRef = useRef<HTMLButtonElement>(null)
  const boxRef = useRef<HTMLDivElement>(null)

  const close = useCallback(() => setOpen(false), [])
  useClickAway(boxRef, open, close)
  useEffect(() => {
    if (open) firstRef.current?.focus()
  }, [open])

  function pick(scope: AllowScope) {
    setOpen(false)
    onAllow(scope)
  }

  return (
    <div
      className="always-allow"
      ref={boxRef}
      onKeyDown={escapeCloses(open, close)}
    >
      <button
        type="button"
        className="btn btn-secondary"
        data-testid="approval-always"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen(!open)}
      >
        Always allow
        <ChevronDown size={13} aria-hidden="true" />
      </button>
      {open && (
        <div className="always-allow-menu" role="menu" id={menuId} aria-label={tool ? `Always allow ${tool}` : 'Always allow'}>
          <button ref={firstRef} type="button" role="menuitem" data-testid="approval-always-chat" onClick={() => pick('chat')}>
            <span className="always-allow-item">In this chat</span>
            <span className="always-allow-help">Until you turn it off in this chat&rsquo;s tools.</span>
          </button>
          <button type="button" role="menuitem" data-testid="approval-always-all" onClick={() => pick('all_chats')}>
            <span className="always-allow-item">In every chat</span>
            <span className="always-allow-help">Revoke it in the connector&rsquo;s Trust panel. A changed tool asks again.</span>
          </button>
        </div>
      )}
    </div>
  )
}
