import {useCallback, useState} from 'react'
import {CircleUserRound, MessagesSquare, Plug, Settings, SquarePen} from 'lucide-react'
import type {LucideIcon} from 'lucide-react'
import type {Session} from '../api/types'
import {shortcutLabel} from '../lib/platform'
import {groupByDay} from '../lib/time'
import {useNow} from '../lib/useNow'
import {useSessions} from '../stores/sessions'
import {useUI, type View} from '../stores/ui'
import {ConfirmDialog} from './ConfirmDialog'
import {LogoMark} from './LogoMark'
import {SessionItem} from './SessionItem'
import {SessionSearch} from './SessionSearch'

const NAV: {view: View; label: string; icon: LucideIcon}[] = [
  {view: 'accounts', label: 'Accounts', icon: CircleUserRound},
  {view: 'connectors', label: 'Connectors', icon: Plug},
  {view: 'settings', label: 'Settings', icon: Settings},
]

export function Sidebar() {
  const sessions = useSessions((s) => s.sessions)
  const loaded = useSessions((s) => s.loaded)
  const activeId = useSessions((s) => s.activeId)
  const {create, select, rename, remove} = useSessions.getState()
  const view = useUI((s) => s.view)
  const setView = useUI((s) => s.setView)
  const now = useNow()
  const [confirming, setConfirming] = useState<Session | null>(null)
  const [deleting, setDeleting] = useState(false)
  const [searching, setSearching] = useState(false)
  const onSearchActive = useCallback((active: boolean) => setSearching(active), [])

  async function confirmDelete() {
    if (!confirming) return
    setDeleting(true)
    await remove(confirming.id)
    setDeleting(false)
    setConfirming(null)
  }

  return (
    <aside className="sidebar" aria-label="Sidebar">
      <div className="sidebar-brand">
        <LogoMark size={22} />
        <span className="sidebar-brand-name">Maestro</span>
      </div>

      <SessionSearch onOpen={(id, seq) => void select(id, seq ? {at: seq} : {})} onActiveChange={onSearchActive} />

      <div className="sidebar-new">
        <button
          type="button"
          className="btn btn-secondary new-chat-btn"
          data-testid="new-session"
          aria-keyshortcuts="Control+N Meta+N"
          onClick={() => void create()}
        >
          <SquarePen size={16} aria-hidden="true" />
          <span>New chat</span>
          <kbd className="kbd">{shortcutLabel('n')}</kbd>
        </button>
      </div>

      <nav className="sidebar-sessions" aria-label="Chats" hidden={searching}>
        {loaded && sessions.length === 0 && (
          <div className="sidebar-empty">
            <MessagesSquare size={16} aria-hidden="true" />
            <span>Your chats will appear here.</span>
          </div>
        )}
        {groupByDay(sessions, (s) => s.updatedAt, now).map((group) => (
          <section key={group.label} className="session-group" aria-label={group.label}>
            <h3 className="session-group-label">{group.label}</h3>
            <ul className="session-list">
              {group.items.map((s) => (
                <SessionItem
                  key={s.id}
                  session={s}
                  active={view === 'chat' && s.id === activeId}
                  now={now}
                  onSelect={(id) => void select(id)}
                  onRename={(id, title) => void rename(id, title)}
                  onDelete={setConfirming}
                />
              ))}
            </ul>
          </section>
        ))}
      </nav>

      <nav className="sidebar-nav" aria-label="App">
        {NAV.map(({view: v, label, icon: Icon}) => (
          <button
            key={v}
            type="button"
            className={view === v ? 'nav-item is-active' : 'nav-item'}
            data-testid={`nav-${v}`}
            aria-current={view === v ? 'page' : undefined}
            onClick={() => setView(v)}
          >
            <Icon size={16} aria-hidden="true" />
            <span>{label}</span>
          </button>
        ))}
      </nav>

      {confirming && (
        <ConfirmDialog
          title="Delete this chat?"
          confirmLabel="Delete"
          danger
          busy={deleting}
          confirmTestId="confirm-delete"
          onConfirm={() => void confirmDelete()}
          onCancel={() => setConfirming(null)}
        >
          <p>
            <strong>“{confirming.title}”</strong> and all of its messages will be deleted. This can't be undone.
          </p>
        </ConfirmDialog>
      )}
    </aside>
  )
}
