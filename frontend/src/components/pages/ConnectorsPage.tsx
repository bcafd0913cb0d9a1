import {useEffect, useState} from 'react'
import {
  ChevronDown,
  CircleAlert,
  Download,
  Eye,
  Globe,
  KeyRound,
  LoaderCircle,
  Pencil,
  Plug,
  Plus,
  Radio,
  RotateCw,
  ScrollText,
  ShieldCheck,
  Sparkles,
  Terminal,
  Trash2,
  Upload,
} from 'lucide-react'
import type {Connector, ImportReport} from '../../api/connectors'
import {useNow} from '../../lib/useNow'
import {stateLabel, syncConnectors, useConnectors} from '../../stores/connectors'
import {ConfirmDialog} from '../ConfirmDialog'
import {Modal} from '../dialogs/Modal'
import {EmptyState} from '../EmptyState'
import {Switch} from '../tools/Switch'
import {joinArgs} from './ConnectorsPage.args'
import {ConnectorForm} from './ConnectorsPage.form'
import {LogsDrawer} from './ConnectorsPage.logs'
import {Page} from './Page'
import {ProtocolBadge, TrustIcon} from '../trust'
import {TrustDrawerHost, useTrustDrawer} from './ConnectorsPage.trust'
import './ConnectorsPage.css'
import {connectorOffering} from '../../api/compose'
import {ConnectorOffering} from '../compose/ConnectorOffering'
import {maskUrl} from '../../lib/maskUrl'

const TRANSPORT_ICON = {stdio: Terminal, http: Globe, sse: Radio} as const
const TRANSPORT_LABEL: Record<string, string> = {stdio: 'stdio', http: 'HTTP', sse: 'SSE'}

function tone(c: Connector): string {
  if (!c.enabled) return 'off'
  if (c.state === 'error' && c.needsSignIn) return 'pending'
  return c.state
}

function StateBadge({c}: {c: Connector}) {
  const label = stateLabel(c)
  const [word, count] = label.split(' · ')
  const busy = c.enabled && (c.state === 'starting' || c.state === 'restarting')
  return (
    <span className={`badge connector-badge is-${tone(c)}`} title={c.server ? `${c.server} · protocol ${c.protocol}` : undefined}>
      {busy && <LoaderCircle className="spinner" size={11} aria-hidden="true" />}
      <span data-testid="connector-state">{word}</span>
      {count && <span data-testid="connector-tools-count"> · {count}</span>}
    </span>
  )
}

function Retry({at}: {at?: number}) {
  const now = useNow(1000)
  if (!at || at <= now) return null
  const s = Math.ceil((at - now) / 1000)
  return <span className="connector-retry">Retrying in {s < 60 ? `${s} s` : `${Math.ceil(s / 60)} min`}</span>
}

function summary(c: Connector): string {
  if (c.transport === 'stdio') return [c.command, joinArgs(c.args)].filter(Boolean).join(' ')
  return maskUrl(c.url ?? '')
}

/** Go's messages start in lower case, to be embedded; shown alone they start a sentence. */
function sentence(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s
}

function ErrorBlock({c}: {c: Connector}) {
  const [open, setOpen] = useState(true)
  if (!c.enabled || !(c.state === 'error' || c.state === 'restarting') || !c.error) return null
  const stderr = c.stderrTail ?? []
  return (
    <div className={`connector-error-box${c.needsSignIn ? ' is-signin' : ''}`} role={c.needsSignIn ? 'note' : 'alert'}>
      <div className="connector-error-head">
        {c.needsSignIn ? <KeyRound size={16} aria-hidden="true" /> : <CircleAlert size={16} aria-hidden="true" />}
        <span className="connector-error-text selectable" data-testid="connector-error">
          {c.needsSignIn ? 'This server wants you to sign in.' : sentence(c.error)}
        </span>
        <Retry at={c.nextRetry} />
      </div>
      {stderr.length > 0 && (
        <>
          <button type="button" className="link-btn connector-stderr-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
            <ChevronDown size={12} aria-hidden="true" />
            {open ? 'Hide the server output' : 'Show the server output'}
          </button>
          {open && (
            <pre className="connector-stderr selectable" data-testid="connector-stderr">
              {stderr.join('\n')}
            </pre>
          )}
        </>
      )}
    </div>
  )
}

function ConnectorCard({c, onEdit, onDelete}: {c: Connector; onEdit: () => void; onDelete: () => void}) {
  const busy = useConnectors((s) => s.busy[c.id])
  const {setEnabled, restart, openLogs, signIn, cancelSignIn, signOut} = useConnectors.getState()
  const Icon = TRANSPORT_ICON[c.transport as keyof typeof TRANSPORT_ICON] ?? Plug
  const line = summary(c)
  const oauth = !!c.oauth

  return (
    <article
      className={`card connector-card${c.enabled ? '' : ' is-off'}`}
      data-testid="connector-item"
      data-connector-id={c.id}
      data-state={c.state}
      aria-labelledby={`connector-${c.id}-name`}
    >
      <div className="connector-row">
        <div className={`connector-icon is-${tone(c)}`} aria-hidden="true">
          {/* The server's own icon (SEP-973, docs/SECURITY.md "Icons"), else the transport's. */}
          <TrustIcon icons={c.icons} fallback={Icon} size={18} testId="connector-server-icon" />
        </div>
        <div className="connector-info">
          <div className="connector-heading">
            <h2 id={`connector-${c.id}-name`} className="connector-name" data-testid="connector-name-label">
              {c.name}
            </h2>
            <span className="connector-transport">{TRANSPORT_LABEL[c.transport] ?? c.transport}</span>
            <StateBadge c={c} />
            {c.enabled && c.state === 'ready' && <ProtocolBadge version={c.protocol} />}
          </div>
          <p className="connector-summary mono" title={line}>
            {line}
          </p>
          {c.newChats && (
            <p className="connector-trust" data-testid="connector-new-chats-note">
              <Sparkles size={12} aria-hidden="true" />
              On in new chats
            </p>
          )}
          {c.trustReadOnlyHints && (
            <p className="connector-trust" data-testid="connector-trust">
              <Eye size={12} aria-hidden="true" />
              Runs the tools this server calls read-only without asking (the server&rsquo;s claim, trusted by you)
            </p>
          )}
        </div>
        <div className="connector-actions">
          <Switch
            checked={c.enabled}
            onChange={(on) => void setEnabled(c.id, on)}
            label={c.enabled ? `Turn ${c.name} off everywhere` : `Turn ${c.name} on`}
            busy={busy === 'toggle'}
            disabled={busy === 'toggle'}
            testId="connector-enabled"
          />
          <span className="connector-actions-sep" aria-hidden="true" />
          <button
            type="button"
            className="icon-btn icon-btn-sm"
            aria-label={`Restart ${c.name}`}
            title="Restart"
            data-testid="connector-restart"
            disabled={!c.enabled || busy === 'restart'}
            onClick={() => void restart(c.id)}
          >
            <RotateCw size={15} aria-hidden="true" />
          </button>
          <button
            type="button"
            className="icon-btn icon-btn-sm"
            aria-label={`Log of ${c.name}`}
            title="Log"
            data-testid="connector-logs"
            onClick={() => void openLogs(c.id)}
          >
            <ScrollText size={15} aria-hidden="true" />
          </button>
          <button
            type="button"
            className="icon-btn icon-btn-sm"
            aria-label={`Trust of ${c.name}: approvals, tasks, audit log`}
            title="Approvals, tasks and audit log"
            data-testid="connector-trust-open"
            onClick={() => useTrustDrawer.getState().open(c.id)}
          >
            <ShieldCheck size={15} aria-hidden="true" />
          </button>
          <button
            type="button"
            className="icon-btn icon-btn-sm"
            aria-label={`Edit ${c.name}`}
            title="Edit"
            data-testid="connector-edit"
            onClick={onEdit}
          >
            <Pencil size={15} aria-hidden="true" />
          </button>
          <button
            type="button"
            className="icon-btn icon-btn-sm icon-btn-danger"
            aria-label={`Delete ${c.name}`}
            title="Delete"
            data-testid="connector-delete"
            disabled={busy === 'delete'}
            onClick={onDelete}
          >
            <Trash2 size={15} aria-hidden="true" />
          </button>
        </div>
      </div>
      <ErrorBlock c={c} />
      {c.enabled && c.state === 'ready' && <ConnectorOffering load={() => connectorOffering(c.id)} tools={c.toolCount} />}
      {oauth && c.enabled && (
        <div className="connector-signin">
          {busy === 'signin' ? (
            <>
              <LoaderCircle className="spinner" size={14} aria-hidden="true" />
              <span>Finish signing in in your browser…</span>
              <button type="button" className="btn btn-secondary btn-sm" onClick={() => void cancelSignIn(c.id)}>
                Cancel
              </button>
            </>
          ) : c.needsSignIn ? (
            <button type="button" className="btn btn-primary btn-sm" data-testid="connector-signin" onClick={() => void signIn(c.id)}>
              <KeyRound size={13} aria-hidden="true" />
              Sign in
            </button>
          ) : (
            <>
              <span className="connector-signin-note">Signs in with OAuth.</span>
              <button type="button" className="link-btn" data-testid="connector-signin" onClick={() => void signIn(c.id)}>
                Sign in again
              </button>
              <button type="button" className="link-btn" data-testid="connector-signout" disabled={busy === 'signout'} onClick={() => void signOut(c.id)}>
                Sign out
              </button>
            </>
          )}
        </div>
      )}
    </article>
  )
}

function ImportReportDialog({report, onClose}: {report: ImportReport; onClose: () => void}) {
  return (
    <Modal title="Import" onEscape={onClose} onEnter={onClose} className="connector-dialog" testId="import-report">
      <p className="dialog-body">
        {report.entries.length === 0
          ? 'The file lists no servers.'
          : `Imported ${report.imported} of ${report.entries.length} server${report.entries.length === 1 ? '' : 's'}.`}
      </p>
      <ul className="import-entries">
        {report.entries.map((e, i) => (
          <li key={`${e.name}-${i}`} className={`import-entry${e.imported ? ' is-imported' : ' is-skipped'}`} data-testid="import-entry">
            <div className="import-entry-head">
              <span className="import-entry-name">{e.name}</span>
              <span className={`badge ${e.imported ? 'badge-ok' : 'badge-muted'}`}>{e.imported ? 'Imported' : 'Skipped'}</span>
            </div>
            {e.reason && <p className="import-entry-reason">{e.reason}</p>}
            {[...e.notes, ...(e.ignored.length ? [`Ignored: ${e.ignored.join(', ')}`] : [])].map((n) => (
              <p key={n} className="import-entry-note">
                {n}
              </p>
            ))}
          </li>
        ))}
      </ul>
      <div className="dialog-actions">
        <button type="button" className="btn btn-primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Modal>
  )
}

type Editing = {mode: 'add'} | {mode: 'edit'; connector: Connector} | null

export function ConnectorsPage() {
  const loaded = useConnectors((s) => s.loaded)
  const connectors = useConnectors((s) => s.connectors)
  const {load, remove, importFile, exportFile} = useConnectors.getState()
  const [editing, setEditing] = useState<Editing>(null)
  const [deleting, setDeleting] = useState<Connector | null>(null)
  const [report, setReport] = useState<ImportReport | null>(null)
  const [importing, setImporting] = useState(false)

  useEffect(() => {
    const off = syncConnectors()
    void load()
    return () => {
      off()
      useConnectors.getState().closeLogs()
    }
  }, [load])

  async function onImport() {
    setImporting(true)
    try {
      const r = await importFile()
      if (r) setReport(r)
    } finally {
      setImporting(false)
    }
  }

  const addButton = (
    <button type="button" className="btn btn-primary" data-testid="add-connector" onClick={() => setEditing({mode: 'add'})}>
      <Plus size={16} aria-hidden="true" />
      Add connector
    </button>
  )

  return (
    <Page
      title="Connectors"
      description="Connectors are MCP servers that give the agent tools. Turn their tools on or off for each chat."
      testId="connectors-page"
    >
      {loaded && connectors.length > 0 && (
        <div className="connectors-toolbar">
          <span className="connectors-count">
            {connectors.length} connector{connectors.length === 1 ? '' : 's'} ·{' '}
            {connectors.filter((c) => c.enabled && c.state === 'ready').length} ready
          </span>
          <button type="button" className="btn btn-secondary" data-testid="import-connectors" disabled={importing} onClick={() => void onImport()}>
            <Download size={15} aria-hidden="true" />
            Import
          </button>
          <button type="button" className="btn btn-secondary" data-testid="export-connectors" onClick={() => void exportFile()}>
            <Upload size={15} aria-hidden="true" />
            Export
          </button>
          {addButton}
        </div>
      )}

      {!loaded ? (
        <div className="connectors-loading" aria-busy="true">
          <LoaderCircle className="spinner" size={16} aria-hidden="true" />
          Loading connectors…
        </div>
      ) : connectors.length === 0 ? (
        <div className="card card-empty">
          <EmptyState icon={Plug} title="No connectors yet" testId="connectors-empty" action={addButton}>
            Add an MCP server that runs on this computer (stdio) or on the web (streamable HTTP or SSE), or{' '}
            <button type="button" className="link-btn" data-testid="import-connectors" disabled={importing} onClick={() => void onImport()}>
              import a Claude Desktop config
            </button>
            .
          </EmptyState>
        </div>
      ) : (
        <div className="card-list">
          {connectors.map((c) => (
            <ConnectorCard key={c.id} c={c} onEdit={() => setEditing({mode: 'edit', connector: c})} onDelete={() => setDeleting(c)} />
          ))}
        </div>
      )}

      {editing && (
        <ConnectorForm
          key={editing.mode === 'edit' ? editing.connector.id : 'add'}
          connector={editing.mode === 'edit' ? editing.connector : undefined}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete ${deleting.name}?`}
          confirmLabel="Delete"
          danger
          confirmTestId="confirm-delete-connector"
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const id = deleting.id
            setDeleting(null)
            void remove(id)
          }}
        >
          Its server stops, and its tools leave every chat. Its environment, headers and sign-in are removed from your
          keychain.
        </ConfirmDialog>
      )}
      {report && <ImportReportDialog report={report} onClose={() => setReport(null)} />}
      <LogsDrawer />
      <TrustDrawerHost />
    </Page>
  )
}
