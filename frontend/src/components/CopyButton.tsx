import {useEffect, useState} from 'react'
import {Check, Copy} from 'lucide-react'
import {useUI} from '../stores/ui'

interface Props {
  text: string
  /** What is being copied, for the accessible name ("Copy data file path"). */
  label: string
}

/** A small "Copy" button that confirms with a check for a moment. */
export function CopyButton({text, label}: Props) {
  const copy = useUI((s) => s.copy)
  const [copied, setCopied] = useState(false)

  useEffect(() => {
    if (!copied) return
    const t = setTimeout(() => setCopied(false), 1600)
    return () => clearTimeout(t)
  }, [copied])

  return (
    <button
      type="button"
      className="btn btn-secondary btn-sm copy-btn"
      aria-label={copied ? `Copied ${label}` : `Copy ${label}`}
      onClick={async () => setCopied(await copy(text))}
    >
      {copied ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />}
      <span>{copied ? 'Copied' : 'Copy'}</span>
    </button>
  )
}

/** A path (or other machine text) in a monospace box with a Copy button. */
export function CodeField({text, label, testId}: Props & {testId?: string}) {
  return (
    <div className="code-field">
      <code className="code-field-text" data-testid={testId} title={text}>
        {text || '—'}
      </code>
      {text && <CopyButton text={text} label={label} />}
    </div>
  )
}
