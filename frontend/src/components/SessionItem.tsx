import {useEffect, useRef, useState} from 'react'
import {Pencil, Trash2} from 'lucide-react'
import type {Session} from '../api/types'
import {fullTime, relativeTime} from '../lib/time'

interface Props {
  session: Session
  active: boolean
  now: number
  onSelect: (id: string) => void
  onRename: (id: string, title: string) => void
  onDelete: (session: Session) => void
}

/**
 * One row of the sessions list. Click selects; double-click on the title,
 * the pencil or F2 renames in place (Enter or leaving the field saves, Esc
 * cancels, a blank title keeps the old one); the trash or Delete asks to
 * delete.
 */
export function SessionItem({session, active, now, onSelect, onRename, onDelete}: Props) {
  const [editing, setEditing] = useState(false)
  const [value, setValue] = useState(session.title)
  const finished = useRef(false)
  const refocus = useRef(false)
  const mainRef = useRef<HTMLButtonElement>(null)
  const inputRef = useRef<HTMLInputElement>(null)

  useEffect(() => {
    if (editing) {
      inputRef.current?.focus()
      inputRef.current?.select()
    } else if (refocus.current) {
      refocus.current = false
      mainRef.current?.focus()
    }
  }, [editing])

  function startEdit() {
    finished.current = false
    setValue(session.title)
    setEditing(true)
  }

  function finish(save: boolean, keepFocus: boolean) {
    if (finished.current) return
    finished.current = true
    refocus.current = keepFocus
    setEditing(false)
    const title = value.trim()
    if (save && title !== '' && title !== session.title) onRename(session.id, title)
  }

  const title = session.title || 'Untitled chat'
  return (
    <li
      className={active ? 'session-item is-active' : 'session-item'}
      data-testid="session-item"
      data-session-id={session.id}
      data-active={active || undefined}
    >
      {editing ? (
        <input
          ref={inputRef}
          className="rename-input"
          data-testid="rename-input"
          aria-label="Chat title"
          value={value}
          maxLength={200}
          onChange={(e) => setValue(e.target.value)}
          onBlur={() => finish(true, false)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault()
              finish(true, true)
            } else if (e.key === 'Escape') {
              e.preventDefault()
              e.stopPropagation()
              finish(false, true)
            }
          }}
        />
      ) : (
        <>
          <button
            ref={mainRef}
            type="button"
            className="session-main"
            aria-current={active ? 'page' : undefined}
            onClick={() => onSelect(session.id)}
            onKeyDown={(e) => {
              if (e.key === 'F2') {
                e.preventDefault()
                startEdit()
              } else if (e.key === 'Delete') {
                e.preventDefault()
                onDelete(session)
              }
            }}
          >
            <span
              className="session-title"
              data-testid="session-title"
              onDoubleClick={(e) => {
                e.preventDefault()
                startEdit()
              }}
            >
              {title}
            </span>
            <time className="session-time" dateTime={new Date(session.updatedAt || 0).toISOString()} title={fullTime(session.updatedAt)}>
              {relativeTime(session.updatedAt, now)}
            </time>
          </button>
          <div className="session-actions">
            <button type="button" className="icon-btn icon-btn-sm" aria-label={`Rename “${title}”`} title="Rename" onClick={startEdit}>
              <Pencil size={14} aria-hidden="true" />
            </button>
            <button
              type="button"
              className="icon-btn icon-btn-sm icon-btn-danger"
              aria-label={`Delete “${title}”`}
              title="Delete"
              onClick={() => onDelete(session)}
            >
              <Trash2 size={14} aria-hidden="true" />
            </button>
          </div>
        </>
      )}
    </li>
  )
}
