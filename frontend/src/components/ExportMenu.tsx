import {useCallback, useEffect, useRef, useState} from 'react'
import {Download} from 'lucide-react'
import {api} from '../api/client'
import type {ExportFormat} from '../api/types'
import {toastError, useToasts} from '../stores/toasts'
import {useClickAway} from '../lib/useClickAway'

const FORMATS: {format: ExportFormat; label: string; testId: string}[] = [
  {format: 'markdown', label: 'Markdown', testId: 'export-markdown'},
  {format: 'json', label: 'JSON', testId: 'export-json'},
]

/** The chat header's "Export" menu: saves the chat as Markdown or JSON. */
export function ExportMenu({sessionId}: {sessionId: string}) {
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState(false)
  const rootRef = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!open) return
    rootRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus()
  }, [open])
  const close = useCallback(() => setOpen(false), [])
  useClickAway(rootRef, open, close)

  function onKeyDown(e: React.KeyboardEvent) {
    if (e.key === 'Escape' && open) {
      e.preventDefault()
      e.stopPropagation()
      setOpen(false)
      rootRef.current?.querySelector<HTMLElement>('[data-testid="export-menu"]')?.focus()
    } else if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && open) {
      e.preventDefault()
      const items = [...(rootRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])]
      const i = items.indexOf(document.activeElement as HTMLElement)
      const next = e.key === 'ArrowDown' ? (i + 1) % items.length : (i - 1 + items.length) % items.length
      items[next]?.focus()
    }
  }

  async function run(format: ExportFormat) {
    setOpen(false)
    setBusy(true)
    try {
      const path = await api.exportSessionToFile(sessionId, format)
      if (path) useToasts.getState().push({tone: 'success', title: 'Chat exported', message: path})
    } catch (err) {
      toastError(err, "Couldn't export the chat")
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="export-menu" ref={rootRef} onKeyDown={onKeyDown}>
      <button
        type="button"
        className="pill"
        data-testid="export-menu"
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={busy}
        title="Export this chat"
        onClick={() => setOpen(!open)}
      >
        <Download size={14} aria-hidden="true" />
        <span>Export</span>
      </button>
      {open && (
        <div className="picker-menu export-menu-list" role="menu" aria-label="Export as">
          {FORMATS.map((f) => (
            <button
              key={f.format}
              type="button"
              role="menuitem"
              className="picker-option"
              data-testid={f.testId}
              onClick={() => void run(f.format)}
            >
              {f.label}
            </button>
          ))}
        </div>
      )}
    </div>
  )
}
