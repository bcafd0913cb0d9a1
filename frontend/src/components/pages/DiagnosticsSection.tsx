// The Diagnostics card of Settings: the bug-report text backend/diagnostics
// writes (versions, data folder, keychain, providers, connectors with
// their protocol, the log tail), secrets already removed, shown exactly as
// "Copy diagnostics" copies it, so the user sees what they share.

import {useEffect, useState} from 'react'
import {RefreshCw} from 'lucide-react'
import {CopyButton} from '../CopyButton'

interface Props {
  /** Builds the report (redacted by the Go side). */
  load: () => Promise<string>
}

export function DiagnosticsSection({load}: Props) {
  const [text, setText] = useState<string | null>(null)
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)

  async function refresh() {
    setBusy(true)
    setError('')
    try {
      setText(await load())
    } catch (err) {
      setError(err && typeof err === 'object' && 'message' in err ? String(err.message) : String(err))
    } finally {
      setBusy(false)
    }
  }

  useEffect(() => {
    void refresh()
  }, [])

  return (
    <div className="diagnostics" data-testid="diagnostics">
      <div className="diagnostics-bar">
        <span className="settings-hint">Secrets (keys, tokens, passwords) are removed before you see or copy this.</span>
        <div className="diagnostics-actions">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            data-testid="diagnostics-refresh"
            disabled={busy}
            onClick={() => void refresh()}
          >
            <RefreshCw size={14} aria-hidden="true" />
            <span>Refresh</span>
          </button>
          {text !== null && <CopyButton text={text} label="diagnostics" testId="diagnostics-copy" />}
        </div>
      </div>
      {error && (
        <p className="field-error" role="alert" data-testid="diagnostics-error">
          Couldn't build the diagnostics: {error}
        </p>
      )}
      <pre className="diagnostics-text" data-testid="diagnostics-text" tabIndex={0} aria-label="Diagnostics">
        {text ?? (busy ? 'Collecting…' : '')}
      </pre>
    </div>
  )
}
