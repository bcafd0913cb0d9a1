import {useEffect, useRef} from 'react'
import {createPortal} from 'react-dom'
import {ScrollText, X} from 'lucide-react'
import type {LogLine} from '../../api/connectors'
import {useConnectors} from '../../stores/connectors'
import {CopyButton} from '../CopyButton'

function clock(ms: number): string {
  const d = new Date(ms)
  const pad = (n: number, w = 2) => String(n).padStart(w, '0')
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`
}

function sourceLabel(l: LogLine): string {
  if (l.source === 'server') return l.level || 'log'
  if (l.source === 'maestro') return 'maestro'
  return 'stderr'
}

function asText(lines: LogLine[]): string {
  return lines.map((l) => `${clock(l.time)} [${sourceLabel(l)}]${l.logger ? ` ${l.logger}:` : ''} ${l.text}`).join('\n')
}

/** A connector's log, live: stderr lines, server log messages and Maestro's notes. */
export function LogsDrawer() {
  const id = useConnectors((s) => s.logsFor)
  const lines = useConnectors((s) => s.logs)
  const name = useConnectors((s) => s.connectors.find((c) => c.id === s.logsFor)?.name)
  const close = useConnectors((s) => s.closeLogs)
  const scrollRef = useRef<HTMLDivElement>(null)
  const stick = useRef(true)

  useEffect(() => {
    if (!id) return
    function onKeyDown(e: KeyboardEvent) {
      if (e.key === 'Escape' && !document.querySelector('[aria-modal="true"]')) {
        e.preventDefault()
        close()
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [id, close])

  useEffect(() => {
    const el = scrollRef.current
    if (el && stick.current) el.scrollTop = el.scrollHeight
  }, [lines])

  if (!id) return null
  return createPortal(
    <aside className="tools-panel logs-drawer" role="dialog" aria-label={`Log of ${name ?? 'the connector'}`} data-testid="connector-logs-drawer">
      <header className="tp-header">
        <div className="tp-title-block">
          <h2 className="tp-title">Log</h2>
          <span className="tp-revision">{name}</span>
        </div>
        <div className="logs-actions">
          <CopyButton text={asText(lines)} label="log" />
          <button type="button" className="icon-btn" aria-label="Close the log" onClick={close}>
            <X size={16} aria-hidden="true" />
          </button>
        </div>
      </header>
      <div
        ref={scrollRef}
        className="logs-body"
        onScroll={(e) => {
          const el = e.currentTarget
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24
        }}
      >
        {lines.length === 0 ? (
          <div className="logs-empty">
            <ScrollText size={18} aria-hidden="true" />
            <p>Nothing logged yet. The server's stderr and log messages appear here as they come.</p>
          </div>
        ) : (
          <ol className="logs-lines selectable" data-testid="connector-log-lines">
            {lines.map((l, i) => (
              <li key={i} className={`log-line log-${l.source} log-level-${l.level || 'none'}`}>
                <time className="log-time">{clock(l.time)}</time>
                <span className="log-source">{sourceLabel(l)}</span>
                <span className="log-text">
                  {l.logger && <span className="log-logger">{l.logger}: </span>}
                  {l.text}
                </span>
              </li>
            ))}
          </ol>
        )}
      </div>
    </aside>,
    document.body,
  )
}
