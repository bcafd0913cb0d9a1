import {useEffect, useState} from 'react'
import {Check, Copy} from 'lucide-react'
import {useUI} from '../stores/ui'

interface Props {
  text: string
  /** What is being copied, for the accessible name ("Copy data file path"). */
  label: string
}

/**
 * button: a bordered "Copy" button; ghost: borderless with its label (code
 * blocks); icon: a bare icon with a tooltip (message actions).
 */
export type CopyVariant = 'button' | 'ghost' | 'icon'

const VARIANT_CLASS: Record<CopyVariant, string> = {
  button: 'btn btn-secondary btn-sm copy-btn',
  ghost: 'copy-ghost',
  icon: 'icon-btn icon-btn-sm',
}

/** A small "Copy" button that confirms with a check for a moment. */
export function CopyButton({text, label, variant = 'button', testId}: Props & {variant?: CopyVariant; testId?: string}) {
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
      className={VARIANT_CLASS[variant]}
      data-testid={testId}
      aria-label={copied ? `Copied ${label}` : `Copy ${label}`}
      title={variant === 'icon' ? (copied ? 'Copied' : 'Copy') : undefined}
      onClick={async () => setCopied(await copy(text))}
    >
      {copied ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />}
      {variant !== 'icon' && <span>{copied ? 'Copied' : 'Copy'}</span>}
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
