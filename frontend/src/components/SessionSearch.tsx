import {useEffect, useRef, useState} from 'react'
import {Search, X} from 'lucide-react'
import {api} from '../api/client'
import type {SearchHit} from '../api/types'
import {shortcutLabel} from '../lib/platform'
import {toastError} from '../stores/toasts'
import {useUI} from '../stores/ui'

/** How long typing must pause before a search runs. */
export const SEARCH_DEBOUNCE_MS = 150

/**
 * The sidebar's search box. While it holds a query it shows matching sessions
 * (title matches first) in place of the list; Enter or a click opens one,
 * Esc clears, Ctrl/Cmd+K focuses it from anywhere.
 */
export function SessionSearch({onOpen, onActiveChange}: {onOpen: (id: string, seq: number) => void; onActiveChange: (active: boolean) => void}) {
  const [query, setQuery] = useState('')
  const [hits, setHits] = useState<SearchHit[]>([])
  const [searched, setSearched] = useState('')
  const [cursor, setCursor] = useState(0)
  const inputRef = useRef<HTMLInputElement>(null)
  const seq = useRef(0)
  const active = query.trim() !== ''

  useEffect(() => onActiveChange(active), [active, onActiveChange])

  // Ctrl/Cmd+K and the menu's Search Chats (stores/commands.ts).
  const searchRequest = useUI((s) => s.searchRequest)
  useEffect(() => {
    if (searchRequest === 0) return
    inputRef.current?.focus()
    inputRef.current?.select()
  }, [searchRequest])

  useEffect(() => {
    const q = query.trim()
    const mine = ++seq.current
    if (!q) {
      setHits([])
      setSearched('')
      return
    }
    const timer = setTimeout(() => {
      api.searchSessions(q).then(
        (h) => {
          if (mine !== seq.current) return
          setHits(h)
          setSearched(q)
          setCursor(0)
        },
        (err) => {
          if (mine === seq.current) toastError(err, "Couldn't search your chats")
        },
      )
    }, SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [query])

  function clear() {
    seq.current++
    setQuery('')
  }

  function open(hit: SearchHit | undefined) {
    if (!hit) return
    clear()
    onOpen(hit.sessionId, hit.seq)
  }

  function onKeyDown(e: React.KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      if (query) clear()
      else inputRef.current?.blur()
    } else if (e.key === 'Enter') {
      e.preventDefault()
      open(hits[cursor] ?? hits[0])
    } else if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && hits.length > 0) {
      e.preventDefault()
      const d = e.key === 'ArrowDown' ? 1 : -1
      setCursor((c) => (c + d + hits.length) % hits.length)
    }
  }

  return (
    <>
      <div className="sidebar-search">
        <Search size={14} className="sidebar-search-icon" aria-hidden="true" />
        <input
          ref={inputRef}
          type="search"
          className="sidebar-search-input"
          data-testid="session-search"
          placeholder="Search chats"
          aria-label="Search chats"
          aria-keyshortcuts="Control+K Meta+K"
          aria-controls={active ? 'session-search-results' : undefined}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={onKeyDown}
        />
        {query ? (
          <button type="button" className="icon-btn icon-btn-sm sidebar-search-clear" aria-label="Clear search" onClick={clear}>
            <X size={14} aria-hidden="true" />
          </button>
        ) : (
          <kbd className="kbd sidebar-search-kbd">{shortcutLabel('k')}</kbd>
        )}
      </div>
      {active && (
        <nav className="sidebar-sessions" aria-label="Search results">
          {searched !== '' && hits.length === 0 && <div className="sidebar-empty">No chats match “{searched}”.</div>}
          <ul className="session-list search-results" id="session-search-results">
            {hits.map((h, i) => (
              <li key={h.sessionId}>
                <button
                  type="button"
                  className={i === cursor ? 'search-hit is-active' : 'search-hit'}
                  data-testid="search-hit"
                  data-session-id={h.sessionId}
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => open(h)}
                >
                  <span className="search-hit-title">
                    <Highlight text={h.title} query={searched} />
                  </span>
                  {h.seq > 0 && (
                    <span className="search-hit-snippet">
                      <Highlight text={h.snippet} query={searched} />
                    </span>
                  )}
                </button>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </>
  )
}

/** Marks the first case-insensitive occurrence of query in text. */
function Highlight({text, query}: {text: string; query: string}) {
  const i = query ? text.toLowerCase().indexOf(query.toLowerCase()) : -1
  if (i < 0) return <>{text}</>
  return (
    <>
      {text.slice(0, i)}
      <mark>{text.slice(i, i + query.length)}</mark>
      {text.slice(i + query.length)}
    </>
  )
}
