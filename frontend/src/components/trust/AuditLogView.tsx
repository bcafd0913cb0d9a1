import {useState} from 'react'
import {ChevronRight, Download, ScrollText} from 'lucide-react'
import {formatDuration} from '../../lib/duration'
import {APPROVED_BY_LABEL, HOW_LABEL, type AuditRecord} from '../../lib/trust'
import {ValueView} from '../chat/ValueView'
import {ToolName} from '../tools/ToolName'

interface Props {
  records: readonly AuditRecord[]
  /** Writes the log as JSON Lines (a save dialog on the Go side); absent while there is nothing to export. */
  onExport?: () => void
  exporting?: boolean
  /** Names a chat by its id (its title), when it still exists. */
  chatTitle?: (sessionId: string) => string | undefined
}

const OUTCOME_LABEL: Record<string, string> = {ok: 'OK', error: 'Error', denied: 'Denied', stopped: 'Stopped'}

/** When a call was made: the time alone today, with the date before that. */
function time(iso: string, now = new Date()): string {
  const t = Date.parse(iso)
  if (!Number.isFinite(t)) return iso
  const d = new Date(t)
  const today = d.toDateString() === now.toDateString()
  return today ? d.toLocaleTimeString(undefined, {timeStyle: 'medium'}) : d.toLocaleString(undefined, {dateStyle: 'short', timeStyle: 'medium'})
}

/** server.tool → tool. */
function toolOnly(canonical: string): string {
  const dot = canonical.indexOf('.')
  return dot > 0 ? canonical.slice(dot + 1) : canonical
}

function args(a: unknown): string {
  if (a === undefined || a === null) return ''
  return typeof a === 'string' ? a : JSON.stringify(a)
}

function Row({r, chat}: {r: AuditRecord; chat?: string}) {
  const [open, setOpen] = useState(false)
  const text = args(r.arguments)
  return (
    <li className={`audit-row is-${r.outcome}`} data-testid="audit-row" data-outcome={r.outcome} data-how={r.how}>
      <button type="button" className="audit-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <ChevronRight size={12} aria-hidden="true" className="audit-chevron" />
        <time className="audit-time" dateTime={r.time} title={new Date(r.time).toLocaleString()}>
          {time(r.time)}
        </time>
        <span className="audit-tool" title={r.tool}>
          {/* The drawer is the connector's: its tools without the server's name before them. */}
          <ToolName name={toolOnly(r.tool)} testId="audit-tool" />
        </span>
        <span className={`audit-outcome is-${r.outcome}`}>{OUTCOME_LABEL[r.outcome] ?? r.outcome}</span>
        <span className="audit-how" data-testid="audit-how">
          {HOW_LABEL[r.how] ?? r.how}
        </span>
        <span className="audit-duration">{r.outcome === 'ok' || r.outcome === 'error' ? formatDuration(r.durationMs) : ''}</span>
      </button>
      {open && (
        <dl className="audit-detail selectable">
          <dt>Chat</dt>
          <dd>{chat ?? <code>{r.sessionId}</code>}</dd>
          <dt>Decided by</dt>
          <dd>
            {APPROVED_BY_LABEL[r.approvedBy] ?? r.approvedBy} · {HOW_LABEL[r.how] ?? r.how}
          </dd>
          {r.error && (
            <>
              <dt>Error</dt>
              <dd className="audit-error">{r.error}</dd>
            </>
          )}
          {r.definitionHash && (
            <>
              <dt>Definition</dt>
              <dd>
                <code title={r.definitionHash}>{r.definitionHash.slice(0, 12)}</code>
              </dd>
            </>
          )}
          <dt>Arguments</dt>
          <dd>{text ? <ValueView text={text} testId="audit-args" /> : 'None'}</dd>
        </dl>
      )}
    </li>
  )
}

/**
 * A connector's audit log, newest first: every tool call that reached
 * approval, who let it run and how, its outcome and duration; the
 * arguments (secrets redacted by the backend) on demand. Exported as JSON
 * Lines.
 */
export function AuditLogView({records, onExport, exporting, chatTitle}: Props) {
  const newest = [...records].reverse()
  return (
    <section className="audit-log" data-testid="audit-log" aria-label="Audit log">
      <div className="audit-toolbar">
        <span className="audit-count" data-testid="audit-count">
          {records.length === 0 ? 'No tool calls yet' : `${records.length} call${records.length === 1 ? '' : 's'}`}
        </span>
        {onExport && (
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            data-testid="audit-export"
            disabled={exporting || records.length === 0}
            onClick={onExport}
          >
            <Download size={13} aria-hidden="true" />
            Export JSON Lines
          </button>
        )}
      </div>
      {records.length === 0 ? (
        <div className="logs-empty">
          <ScrollText size={18} aria-hidden="true" />
          <p>Each call of this connector&rsquo;s tools is recorded here: when, in which chat, with which arguments, who allowed it and how it ended. Secrets are left out.</p>
        </div>
      ) : (
        <ol className="audit-rows">
          {newest.map((r, i) => (
            <Row key={`${r.callId}-${i}`} r={r} chat={chatTitle?.(r.sessionId)} />
          ))}
        </ol>
      )}
    </section>
  )
}
