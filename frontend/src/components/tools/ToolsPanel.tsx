import {useEffect, useRef, useState} from 'react'
import {createPortal} from 'react-dom'
import {ChevronRight, Eye, Folder, FolderPlus, Info, LoaderCircle, Plug, RefreshCw, Wrench, X, Zap} from 'lucide-react'
import type {SessionConnector, SessionTool} from '../../api/connectors'
import {useRuns} from '../../stores/runs'
import {syncTools, useTools} from '../../stores/tools'
import {useUI} from '../../stores/ui'
import {Switch} from './Switch'
import {ToolName} from './ToolName'
import {AnnotationBadges, ChatPolicySelect, TrustIcon} from '../trust'
import './tools-panel.css'

function stateText(c: SessionConnector): string {
  if (!c.available) return 'Off in Connectors'
  switch (c.state) {
    case 'ready': {
      if (!c.enabledInSession) return `${c.toolCount} tool${c.toolCount === 1 ? '' : 's'}`
      const on = c.tools.filter((t) => t.enabled).length
      return on === c.tools.length ? `All ${on} tools on` : `${on} of ${c.tools.length} tools on`
    }
    case 'starting':
      return 'Starting…'
    case 'restarting':
      return 'Restarting…'
    case 'error':
      return 'Not available'
    default:
      return 'Stopped'
  }
}

/** "12 tools on", "No tools on": what the model can call in this chat. */
function onLabel(connectors: readonly SessionConnector[]): string {
  const n = connectors.reduce((k, c) => k + (c.enabledInSession && c.available ? c.tools.filter((t) => t.enabled).length : 0), 0)
  return n === 0 ? 'No tools on' : `${n} tool${n === 1 ? '' : 's'} on`
}

/** A tool's annotations besides read-only, which has its own badge (SessionTool.readOnly). */
function otherHints(t: SessionTool): SessionTool['hints'] {
  return t.hints && {...t.hints, readOnlyHint: undefined}
}

function ConnectorRow({c}: {c: SessionConnector}) {
  const expanded = useTools((s) => !!s.expanded[c.id])
  const pending = useTools((s) => s.pending)
  const {toggleExpanded, setConnector, setTool, setChatApproval} = useTools.getState()
  const listId = `tools-of-${c.id}`
  const off = !c.enabledInSession || !c.available

  return (
    <li className={`tp-connector${off ? ' is-off' : ''}`} data-testid="session-connector" data-connector-id={c.id}>
      <div className="tp-connector-row">
        <button
          type="button"
          className="tp-expand"
          aria-expanded={expanded}
          aria-controls={listId}
          disabled={c.tools.length === 0}
          onClick={() => toggleExpanded(c.id)}
          title={expanded ? 'Hide its tools' : 'Show its tools'}
        >
          <ChevronRight size={14} className="tp-chevron" aria-hidden="true" />
          <span className={`tp-dot tp-dot-${c.available ? c.state : 'stopped'}`} aria-hidden="true" />
          {c.icons && c.icons.length > 0 && (
            <TrustIcon icons={c.icons} fallback={Plug} size={16} className="tp-connector-icon" testId="session-connector-icon" />
          )}
          <span className="tp-connector-text">
            <span className="tp-connector-name">{c.name}</span>
            <span className="tp-connector-meta" title={c.state === 'error' ? c.error : undefined}>
              {stateText(c)}
            </span>
          </span>
        </button>
        <Switch
          checked={c.enabledInSession}
          onChange={(on) => void setConnector(c.id, on)}
          label={`Use ${c.name} in this chat`}
          disabled={!c.available && !c.enabledInSession}
          busy={!!pending[c.id]}
          testId="session-connector-toggle"
          data={{'connector-id': c.id}}
        />
      </div>
      {expanded && c.tools.length > 0 && (
        <div className="tp-chat-policy" data-connector-id={c.id}>
          <ChatPolicySelect
            value={c.chatApproval}
            connectorPolicy={c.approval}
            onChange={(p) => void setChatApproval(c.id, p)}
            disabled={!!pending[`policy:${c.id}`]}
            name={c.name}
          />
        </div>
      )}
      {expanded && c.tools.length > 0 && (
        <ul className="tp-tools" id={listId} aria-label={`Tools of ${c.name}`}>
          {c.tools.map((t) => (
            <li key={t.canonical} className={`tp-tool${t.enabled && !off ? '' : ' is-off'}`}>
              <div className="tp-tool-text">
                <div className="tp-tool-head">
                  {t.icons && t.icons.length > 0 && <TrustIcon icons={t.icons} fallback={Wrench} size={14} className="tp-tool-icon" />}
                  <span className="tp-tool-name" title={t.canonical}>
                    <ToolName name={t.title || t.name} testId="session-tool-name" />
                  </span>
                  {t.readOnly && (
                    <span
                      className="tp-readonly hint-badge is-read-only"
                      title="The server says this tool only reads. That is its own claim: Maestro still asks before running it, unless you chose to trust this connector's claims."
                    >
                      <Eye size={11} aria-hidden="true" />
                      Read-only
                    </span>
                  )}
                  <AnnotationBadges hints={otherHints(t)} />
                  {t.appOnly && (
                    <span className="hint-badge" data-testid="session-tool-app-only"
                      title="Only this tool's app (in its tool card) can call it; the model never sees it.">
                      App only
                    </span>
                  )}
                </div>
                {t.title && t.title !== t.name && (
                  <code className="tp-tool-id">
                    <ToolName name={t.name} />
                  </code>
                )}
                {t.description && <p className="tp-tool-desc">{t.description}</p>}
              </div>
              <Switch
                size="sm"
                checked={t.enabled}
                onChange={(on) => void setTool(t.canonical, on)}
                label={`Use ${t.name} in this chat`}
                busy={!!pending[t.canonical]}
                testId="session-tool-toggle"
                data={{tool: t.canonical}}
              />
            </li>
          ))}
        </ul>
      )}
    </li>
  )
}

function ApplyNote({sessionId}: {sessionId: string}) {
  const runId = useRuns((s) => s.active[sessionId])
  const [applied, setApplied] = useState<string | null>(null)
  const running = !!runId
  return (
    <div className={`tp-note${running ? ' is-running' : ''}`} role="note">
      <Info size={14} aria-hidden="true" />
      <span className="tp-note-text">
        {running
          ? applied === runId
            ? 'Applied: the reply restarted its current step with these tools.'
            : 'A reply is streaming. Changes apply from the next message.'
          : 'Changes apply from the next message.'}
      </span>
      {running && applied !== runId && (
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          data-testid="apply-now"
          title="Restart the reply's current step with the tools as they are now"
          onClick={() => {
            setApplied(runId)
            void useRuns.getState().applyNow(sessionId)
          }}
        >
          <Zap size={12} aria-hidden="true" />
          Apply now
        </button>
      )}
    </div>
  )
}

function Folders() {
  const roots = useTools((s) => s.data?.roots ?? [])
  const {addFolder, removeFolder} = useTools.getState()
  return (
    <section className="tp-section" aria-labelledby="tp-folders-title">
      <h3 id="tp-folders-title" className="tp-section-title">
        Folders
      </h3>
      <p className="tp-hint">Servers that work on files (MCP roots) may use these folders.</p>
      {roots.length > 0 && (
        <ul className="tp-roots" data-testid="tools-roots">
          {roots.map((r) => (
            <li key={r} className="tp-root">
              <Folder size={14} aria-hidden="true" />
              <span className="tp-root-path selectable" title={r}>
                {r}
              </span>
              <button
                type="button"
                className="icon-btn icon-btn-sm icon-btn-danger"
                aria-label={`Remove ${r}`}
                onClick={() => void removeFolder(r)}
              >
                <X size={14} aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="btn btn-secondary btn-sm tp-add-folder" data-testid="add-folder" onClick={() => void addFolder()}>
        <FolderPlus size={14} aria-hidden="true" />
        Add folder
      </button>
    </section>
  )
}

/** The session's Tools panel: a slide-over on the right of the window. */
export function ToolsPanel({sessionId}: {sessionId: string}) {
  const data = useTools((s) => (s.data?.sessionId === sessionId ? s.data : null))
  const loading = useTools((s) => s.loading)
  const error = useTools((s) => s.error)
  const {close, load} = useTools.getState()
  const setView = useUI((s) => s.setView)
  const panelRef = useRef<HTMLElement>(null)

  useEffect(() => syncTools(), [])

  useEffect(() => {
    panelRef.current?.focus()
    function onKeyDown(e: KeyboardEvent) {
      if (e.key === 'Escape' && !document.querySelector('[aria-modal="true"]')) {
        e.preventDefault()
        e.stopPropagation()
        close()
        document.querySelector<HTMLElement>('[data-testid="tools-button"]')?.focus()
      }
    }
    // Capture: Esc closes the panel before it can stop a streaming reply.
    window.addEventListener('keydown', onKeyDown, true)
    return () => window.removeEventListener('keydown', onKeyDown, true)
  }, [close])

  const connectors = data?.connectors ?? []

  return createPortal(
    <aside
      ref={panelRef}
      className="tools-panel"
      role="dialog"
      aria-label="Tools for this chat"
      data-testid="tools-panel"
      tabIndex={-1}
    >
      <header className="tp-header">
        <div className="tp-title-block">
          <h2 className="tp-title">Tools for this chat</h2>
          {/* The revision is for diagnostics and tests, not for reading. */}
          <span className="tp-revision" data-testid="tools-revision" data-revision={data?.revision}>
            {data ? onLabel(data.connectors) : '\u00a0'}
          </span>
        </div>
        <button type="button" className="icon-btn" aria-label="Close the Tools panel" data-testid="tools-close" onClick={close}>
          <X size={16} aria-hidden="true" />
        </button>
      </header>
      <ApplyNote sessionId={sessionId} />
      <div className="tp-body">
        {!data && loading && (
          <div className="tp-loading" aria-busy="true">
            <LoaderCircle className="spinner" size={16} aria-hidden="true" />
            Loading tools…
          </div>
        )}
        {!data && error && (
          <div className="tp-error" role="alert">
            <span>{error}</span>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => void load(sessionId)}>
              <RefreshCw size={12} aria-hidden="true" />
              Try again
            </button>
          </div>
        )}
        {data && (
          <>
            <section className="tp-section" aria-labelledby="tp-connectors-title">
              <h3 id="tp-connectors-title" className="tp-section-title">
                Connectors
              </h3>
              {connectors.length === 0 ? (
                <div className="tp-empty">
                  <Plug size={18} aria-hidden="true" />
                  <p>
                    No connectors yet.{' '}
                    <button
                      type="button"
                      className="link-btn"
                      onClick={() => {
                        close()
                        setView('connectors')
                      }}
                    >
                      Add an MCP server
                    </button>{' '}
                    to give this chat tools.
                  </p>
                </div>
              ) : (
                <ul className="tp-connectors">
                  {connectors.map((c) => (
                    <ConnectorRow key={c.id} c={c} />
                  ))}
                </ul>
              )}
            </section>
            <Folders />
          </>
        )}
      </div>
    </aside>,
    document.body,
  )
}
