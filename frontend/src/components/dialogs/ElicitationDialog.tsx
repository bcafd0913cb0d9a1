import {useMemo, useRef, useState} from 'react'
import {ExternalLink, MessageSquareText} from 'lucide-react'
import {type FormField, parseFormSchema} from '../../api/mcpRequests'
import {type FieldValue, fieldError, fieldLabel, formContent, formErrors, initialValues} from '../../lib/elicitForm'
import {type ElicitationRequest, useDialogs} from '../../stores/dialogs'
import {Modal} from './Modal'

interface Props {
  request: ElicitationRequest
  /** How many more requests wait behind this one. */
  queued: number
}

/**
 * A connector asks the user: a form generated from its flat schema, or
 * consent to open a URL. Accept sends the values (the backend checks them
 * again and may send the problems back); Decline says no; Esc cancels.
 */
export function ElicitationDialog({request, queued}: Props) {
  const answer = useDialogs((s) => s.answerElicitation)
  const form = useMemo(() => parseFormSchema(request.schema), [request.schema])
  const [values, setValues] = useState<Record<string, FieldValue>>(() => initialValues(form.fields))
  const [touched, setTouched] = useState<Record<string, boolean>>({})
  const [submitted, setSubmitted] = useState(false)
  const [serverError, setServerError] = useState('')
  const [busy, setBusy] = useState(false)
  const acceptRef = useRef<HTMLButtonElement>(null)
  const isURL = request.mode === 'url'
  const errors = isURL ? {} : formErrors(form.fields, values)

  async function send(action: 'accept' | 'decline' | 'cancel') {
    if (busy) return
    if (action === 'accept' && !isURL) {
      setSubmitted(true)
      if (Object.keys(errors).length > 0) return
    }
    setBusy(true)
    // For a URL, accepting is the consent: the backend opens it (Runtime.OpenURL).
    const problem = await answer(request.requestId, action, action === 'accept' && !isURL ? formContent(form.fields, values) : null)
    setBusy(false)
    if (problem) setServerError(problem)
  }

  // A field's problem shows once the user has changed it, or pressed
  // Accept: not merely because the focus passed through it.
  function setValue(name: string, v: FieldValue) {
    setValues((s) => ({...s, [name]: v}))
    setTouched((t) => (t[name] ? t : {...t, [name]: true}))
    setServerError('')
  }

  return (
    <Modal
      className="elicitation-dialog"
      testId="elicitation-dialog"
      initialFocus={isURL || form.fields.length === 0 ? acceptRef : undefined}
      onEscape={() => void send('cancel')}
      onEnter={() => void send('accept')}
      title={
        <span className="approval-title">
          <span className="approval-icon" aria-hidden="true">
            {isURL ? <ExternalLink size={18} /> : <MessageSquareText size={18} />}
          </span>
          <span>{isURL ? 'Open a page?' : form.title || 'A connector asks for input'}</span>
        </span>
      }
    >
      <div className="dialog-body elicitation-body">
        <p>
          <strong data-testid="elicitation-connector">{request.connector}</strong> asks:{' '}
          <span data-testid="elicitation-message">{request.message}</span>
        </p>
        {isURL ? (
          <p className="elicitation-url">
            <code data-testid="elicitation-url">{request.url}</code>
          </p>
        ) : (
          <form
            className="elicitation-form"
            noValidate
            onSubmit={(e) => {
              e.preventDefault()
              void send('accept')
            }}
          >
            {form.fields.map((f, i) => (
              <FieldInput
                key={f.name}
                field={f}
                value={values[f.name]}
                autoFocus={i === 0}
                error={submitted || touched[f.name] ? (errors[f.name] ?? '') : ''}
                onChange={(v) => setValue(f.name, v)}
              />
            ))}
          </form>
        )}
        {serverError && (
          <p className="elicitation-error" role="alert" data-testid="elicitation-server-error">
            {serverError}
          </p>
        )}
        <p className="elicitation-choices" data-testid="elicitation-choices">
          {isURL
            ? <>Open visits the page in your browser. Decline tells {request.connector} no. Cancel dismisses this without an answer.</>
            : <>Decline tells {request.connector} you won't answer. Cancel dismisses this without an answer; it may ask again.</>}
        </p>
      </div>
      <div className="dialog-actions approval-actions">
        {queued > 0 && <span className="approval-queue">{queued} more waiting</span>}
        <button
          type="button"
          className="btn btn-secondary"
          data-testid="elicitation-cancel"
          title="Dismiss without an answer"
          disabled={busy}
          onClick={() => void send('cancel')}
        >
          Cancel
          <kbd className="btn-kbd" aria-hidden="true">Esc</kbd>
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          data-testid="elicitation-decline"
          title={`Tell ${request.connector} no`}
          disabled={busy}
          onClick={() => void send('decline')}
        >
          Decline
        </button>
        <button
          ref={acceptRef}
          type="button"
          className="btn btn-primary"
          data-testid="elicitation-accept"
          disabled={busy}
          onClick={() => void send('accept')}
        >
          {isURL ? 'Open' : 'Accept'}
        </button>
      </div>
    </Modal>
  )
}

interface FieldProps {
  field: FormField
  value: FieldValue | undefined
  error: string
  autoFocus: boolean
  onChange: (v: FieldValue) => void
}

function FieldInput({field: f, value, error, autoFocus, onChange}: FieldProps) {
  const id = `elicit-${f.name}`
  const testId = `elicitation-field-${f.name}`
  const described = error ? `${id}-error` : f.description ? `${id}-desc` : undefined
  const common = {id, 'data-testid': testId, 'aria-invalid': error ? true : undefined, 'aria-describedby': described, autoFocus}
  let input
  if (f.kind === 'boolean') {
    input = <input {...common} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
  } else if (f.kind === 'multi') {
    const list = Array.isArray(value) ? value : []
    input = (
      <select
        {...common}
        className="text-input elicitation-multi"
        multiple
        value={list}
        onChange={(e) => onChange(Array.from(e.target.selectedOptions, (o) => o.value))}
      >
        {(f.options ?? []).map((o, i) => (
          <option key={o} value={o}>
            {f.labels?.[i] || o}
          </option>
        ))}
      </select>
    )
  } else if (f.options && f.options.length > 0) {
    input = (
      <select {...common} className="text-input" value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)}>
        {(!f.required || typeof value !== 'string' || value === '') && <option value="">—</option>}
        {f.options.map((o, i) => (
          <option key={o} value={o}>
            {f.labels?.[i] || o}
          </option>
        ))}
      </select>
    )
  } else {
    const type =
      f.kind === 'number' || f.kind === 'integer'
        ? 'number'
        : f.format === 'email'
          ? 'email'
          : f.format === 'uri'
            ? 'url'
            : f.format === 'date'
              ? 'date'
              : 'text'
    input = (
      <input
        {...common}
        className="text-input"
        type={type}
        min={f.minimum}
        max={f.maximum}
        step={f.kind === 'integer' ? 1 : f.kind === 'number' ? 'any' : undefined}
        placeholder={f.format === 'date-time' ? '2025-01-31T09:00:00Z' : undefined}
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => onChange(e.target.value)}
      />
    )
  }
  return (
    <div className={`elicitation-field${f.kind === 'boolean' ? ' elicitation-field-check' : ''}`}>
      <label htmlFor={id}>
        {fieldLabel(f)}
        {f.required && <span className="elicitation-required" aria-hidden="true"> *</span>}
      </label>
      {input}
      {f.description && !error && (
        <span id={`${id}-desc`} className="elicitation-hint">
          {f.description}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} className="elicitation-field-error" data-testid={`elicitation-error-${f.name}`}>
          {error}
        </span>
      )}
    </div>
  )
}
