import {useState} from 'react'
import {useCompletions} from './useCompletions'
import type {CompleteFn} from './types'

interface Props {
  id: string
  name: string
  label: string
  description?: string
  required?: boolean
  value: string
  onChange: (v: string) => void
  complete?: CompleteFn
  /** The other fields' values, sent as the completion's context. */
  context: Record<string, string>
  autoFocus?: boolean
}

/** One text field whose server completions show under it while it has the focus. */
export function CompletingField({id, name, label, description, required, value, onChange, complete, context, autoFocus}: Props) {
  const [focused, setFocused] = useState(false)
  const suggestions = useCompletions(complete, name, value, context, focused)
  return (
    <div className="compose-field" data-testid="compose-field" data-name={name}>
      <label htmlFor={id} className="compose-field-label">
        {label}
        {required ? <span className="compose-field-req"> (required)</span> : <span className="compose-field-opt"> (optional)</span>}
      </label>
      {description && <p className="compose-field-desc">{description}</p>}
      <input
        id={id}
        className="input"
        data-testid={`field-${name}`}
        value={value}
        required={required}
        autoFocus={autoFocus}
        autoComplete="off"
        onChange={(e) => onChange(e.target.value)}
        onFocus={() => setFocused(true)}
        // Hidden a moment later: a click on a button under the list lands before the layout moves.
        onBlur={() => setTimeout(() => setFocused(false), 150)}
      />
      {focused && suggestions.length > 0 && (
        <ul className="compose-completions" role="listbox" aria-label={`Suggestions for ${label}`} data-testid={`completions-${name}`}>
          {suggestions.map((s) => (
            <li key={s} role="option" aria-selected={false}>
              <button
                type="button"
                className="compose-completion"
                data-testid="completion"
                onMouseDown={(e) => {
                  e.preventDefault() // keep the focus in the field
                  onChange(s)
                }}
              >
                {s}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
