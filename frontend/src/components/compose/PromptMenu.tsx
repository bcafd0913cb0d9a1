import './compose.css'
import {useEffect, useRef} from 'react'
import type {Prompt} from './types'

interface Props {
  prompts: Prompt[]
  /** The highlighted row (useMenuKeys). */
  active: number
  onHover: (i: number) => void
  onPick: (p: Prompt) => void
  /** The prompts are still being listed. */
  loading?: boolean
  /** Connectors that could not list theirs, as "Server: why". */
  unavailable?: string[]
}

/**
 * The "/" menu over the composer: the chat's prompts (name, title,
 * description, server), already filtered by what follows the slash. The
 * text box keeps the focus; the arrow keys and Enter reach the menu
 * through useMenuKeys, and a click picks.
 */
export function PromptMenu({prompts, active, onHover, onPick, loading, unavailable}: Props) {
  const list = useRef<HTMLUListElement>(null)
  useEffect(() => {
    list.current?.children[active]?.scrollIntoView?.({block: 'nearest'})
  }, [active])
  return (
    <div className="compose-menu" data-testid="prompt-menu" role="dialog" aria-label="Prompts">
      {prompts.length > 0 ? (
        <ul ref={list} role="listbox" aria-label="Prompts" className="compose-menu-list">
          {prompts.map((p, i) => (
            <li
              key={`${p.connectorId}/${p.name}`}
              role="option"
              aria-selected={i === active}
              className={`compose-menu-item${i === active ? ' is-active' : ''}`}
              data-testid="prompt-option"
              data-prompt={p.name}
              onMouseEnter={() => onHover(i)}
              onMouseDown={(e) => {
                e.preventDefault() // keep the focus in the text box
                onPick(p)
              }}
            >
              <span className="compose-menu-main">
                <span className="compose-menu-name">/{p.name}</span>
                {p.title && p.title !== p.name && <span className="compose-menu-title">{p.title}</span>}
                <span className="compose-menu-server">{p.server}</span>
              </span>
              {p.description && <span className="compose-menu-desc">{p.description}</span>}
            </li>
          ))}
        </ul>
      ) : (
        <p className="compose-menu-empty" data-testid="prompt-menu-empty">
          {loading ? 'Listing prompts…' : 'No prompt matches. Connectors turned on in this chat offer their prompts here.'}
        </p>
      )}
      {unavailable && unavailable.length > 0 && (
        <p className="compose-menu-note" data-testid="prompt-menu-unavailable">
          Not listed: {unavailable.join('; ')}
        </p>
      )}
      <p className="compose-menu-hint">
        <kbd className="kbd">↑</kbd> <kbd className="kbd">↓</kbd> to choose, <kbd className="kbd">Enter</kbd> to use,{' '}
        <kbd className="kbd">Esc</kbd> to close
      </p>
    </div>
  )
}
