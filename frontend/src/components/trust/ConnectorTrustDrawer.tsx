import {useEffect, useState} from 'react'
import {createPortal} from 'react-dom'
import {Plug, X} from 'lucide-react'
import type {AuditRecord, Icon, TaskView, ToolPolicy} from '../../lib/trust'
import {ToolName} from '../tools/ToolName'
import {AuditLogView} from './AuditLogView'
import {ConnectorPolicyPicker} from './PolicyPicker'
import {ProtocolBadge} from './ProtocolBadge'
import {TaskList} from './TaskList'
import {TrustIcon} from './TrustIcon'

export type TrustTab = 'approvals' | 'tasks' | 'audit'

/** An "always allow in every chat" grant (tools.Grant). */
export interface GrantView {
  tool: string
  grantedAt: string
}

export interface TrustDrawerProps {
  connector: {id: string; name: string; protocol?: string; protocolVersion?: string; icons?: Icon[]}
  tab: TrustTab
  onTab: (t: TrustTab) => void
  policy: ToolPolicy
  onPolicy: (p: ToolPolicy) => void
  grants: readonly GrantView[]
  onRevoke: (tool: string) => void
  tasks: readonly TaskView[]
  onCancelTask: (taskId: string) => Promise<void> | void
  audit: readonly AuditRecord[]
  onExportAudit: () => void
  chatTitle?: (sessionId: string) => string | undefined
  onClose: () => void
}

const TABS: {key: TrustTab; label: string}[] = [
  {key: 'approvals', label: 'Approvals'},
  {key: 'tasks', label: 'Tasks'},
  {key: 'audit', label: 'Audit log'},
]

/**
 * A connector's trust, in a drawer: its approval policy and the tools
 * always allowed in every chat (revocable), its MCP tasks, and its audit
 * log with the JSON Lines export. Esc closes it.
 */
export function ConnectorTrustDrawer(p: TrustDrawerProps) {
  const {connector: c, tab, onTab, onClose} = p
  const [revoking, setRevoking] = useState<string | null>(null)
  useEffect(() => {
    function onKeyDown(e: KeyboardEvent) {
      if (e.key === 'Escape' && !document.querySelector('[aria-modal="true"]')) {
        e.preventDefault()
        onClose()
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [onClose])
  const running = p.tasks.filter((t) => t.status === 'working' || t.status === 'input_required').length

  return createPortal(
    <aside className="tools-panel trust-drawer" role="dialog" aria-label={`Trust of ${c.name}`} data-testid="connector-trust-drawer">
      <header className="tp-header">
        <div className="tp-title-block trust-title">
          <span className="trust-drawer-icon" aria-hidden="true">
            <TrustIcon icons={c.icons} fallback={Plug} size={18} testId="connector-icon-img" />
          </span>
          <h2 className="tp-title">{c.name}</h2>
          <ProtocolBadge version={c.protocol} pinned={c.protocolVersion} />
        </div>
        <button type="button" className="icon-btn" aria-label="Close" onClick={onClose}>
          <X size={16} aria-hidden="true" />
        </button>
      </header>
      <div className="trust-tabs" role="tablist" aria-label="Trust">
        {TABS.map((t) => (
          <button
            key={t.key}
            type="button"
            role="tab"
            aria-selected={tab === t.key}
            className={`trust-tab${tab === t.key ? ' is-active' : ''}`}
            data-testid={`trust-tab-${t.key}`}
            onClick={() => onTab(t.key)}
          >
            {t.label}
            {t.key === 'tasks' && running > 0 && <span className="trust-tab-count">{running}</span>}
          </button>
        ))}
      </div>
      <div className="trust-body" role="tabpanel">
        {tab === 'approvals' && (
          <>
            <ConnectorPolicyPicker value={p.policy} onChange={p.onPolicy} name={c.name} />
            <p className="trust-note">
              A chat can set its own policy for this connector in its tools panel. Whatever the policy, a tool whose
              definition changed since you allowed it asks again and shows what changed.
            </p>
            <h3 className="tp-section-title task-list-head">Always allowed in every chat</h3>
            {p.grants.length === 0 ? (
              <p className="trust-note" data-testid="grants-empty">
                None. Choose &ldquo;Always allow → In every chat&rdquo; when a tool asks.
              </p>
            ) : (
              <ul className="trust-grants" data-testid="grants">
                {p.grants.map((g) => (
                  <li key={g.tool} className="trust-grant">
                    <ToolName name={g.tool} className="trust-grant-tool" />
                    <button
                      type="button"
                      className="link-btn"
                      data-testid="grant-revoke"
                      disabled={revoking === g.tool}
                      onClick={() => {
                        setRevoking(g.tool)
                        p.onRevoke(g.tool)
                      }}
                    >
                      Revoke
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
        {tab === 'tasks' && <TaskList tasks={p.tasks} onCancel={p.onCancelTask} />}
        {tab === 'audit' && <AuditLogView records={p.audit} onExport={p.onExportAudit} chatTitle={p.chatTitle} />}
      </div>
    </aside>,
    document.body,
  )
}
