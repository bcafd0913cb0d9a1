import './compose.css'
import {useState} from 'react'
import {CompletingField} from './CompletingField'
import type {CompleteFn, Prompt} from './types'

interface Props {
  prompt: Prompt
  /** Completions for one argument (completion/complete); absent when the server offers none. */
  complete?: CompleteFn
  /** Runs prompts/get; a rejection's message (the server's) is shown in the form. */
  onSubmit: (args: Record<string, string>) => Promise<void>
  onCancel: () => void
}

function errorText(e: unknown): string {
  if (e && typeof e === 'object' && 'message' in e && typeof e.message === 'string') return e.message
  return String(e)
}

/**
 * The arguments of a prompt picked from the "/" menu, each with the
 * server's completions as the user types. "Insert" stays off until every
 * required argument is filled; what the server refuses (an unknown prompt,
 * an invalid argument) is shown here in its own words and the form stays.
 */
export function PromptForm({prompt, complete, onSubmit, onCancel}: Props) {
  const args = prompt.arguments ?? []
  const [values, setValues] = useState<Record<string, string>>({})
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const missing = args.filter((a) => a.required && !(values[a.name] ?? '').trim())
  const ready = missing.length === 0 && !busy

  async function submit() {
    if (!ready) return
    setBusy(true)
    setError('')
    const filled: Record<string, string> = {}
    for (const a of args) if ((values[a.name] ?? '') !== '') filled[a.name] = values[a.name]
    try {
      await onSubmit(filled)
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    // A div, not a nested <form>: inside the composer's form the browser
    // submitted the page natively on Insert (a reload that lost the draft).
    <div
      role="form"
      className="compose-form"
      data-testid="prompt-form"
      aria-label={`Arguments of ${prompt.name}`}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault()
          onCancel()
        } else if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing && (e.target as HTMLElement).tagName === 'INPUT') {
          e.preventDefault() // Enter in a field inserts, as a form would
          e.stopPropagation()
          if (ready) void submit()
        }
      }}
    >
      <header className="compose-form-head">
        <span className="compose-menu-name">/{prompt.name}</span>
        {prompt.title && prompt.title !== prompt.name && <span className="compose-menu-title">{prompt.title}</span>}
        <span className="compose-menu-server">{prompt.server}</span>
      </header>
      {prompt.description && <p className="compose-form-desc">{prompt.description}</p>}
      {args.map((a, i) => {
        const others = Object.fromEntries(Object.entries(values).filter(([k, v]) => k !== a.name && v !== ''))
        return (
          <CompletingField
            key={a.name}
            id={`prompt-arg-${a.name}`}
            name={a.name}
            label={a.title || a.name}
            description={a.description}
            required={a.required}
            value={values[a.name] ?? ''}
            onChange={(v) => setValues((s) => ({...s, [a.name]: v}))}
            complete={complete}
            context={others}
            autoFocus={i === 0}
          />
        )
      })}
      {error && (
        <p className="compose-form-error" role="alert" data-testid="prompt-error">
          {error}
        </p>
      )}
      <div className="compose-form-actions">
        {missing.length > 0 && (
          <span className="compose-form-missing" data-testid="prompt-missing">
            Needs {missing.map((a) => a.title || a.name).join(', ')}
          </span>
        )}
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" data-testid="prompt-insert" disabled={!ready} autoFocus={args.length === 0} onClick={() => void submit()}>
          {busy ? 'Getting…' : 'Insert'}
        </button>
      </div>
    </div>
  )
}
