// The Settings rows backed by backend/prefs (docs/SETTINGS.md): each row
// is a small controlled component that calls onSave with its new value
// and shows the saved value back; a refused value stays in the field
// with the reason under it.

import {useEffect, useState} from 'react'

/** Mirrors backend/prefs' limits (MaxInstructions, compact bounds). */
export const MAX_INSTRUCTIONS = 32 << 10
export const MIN_COMPACT = 30
export const MAX_COMPACT = 95

export type ApprovalDefault = 'ask' | 'read_only' | 'all'
export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

type Save<T> = (value: T) => Promise<unknown>

function errorText(err: unknown): string {
  if (err && typeof err === 'object' && 'message' in err) return String((err as {message: unknown}).message)
  return String(err)
}

/** A row's save in flight and its refusal, if any. */
function useSave<T>(onSave: Save<T>) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState('')
  async function save(v: T): Promise<boolean> {
    setBusy(true)
    setError('')
    try {
      await onSave(v)
      return true
    } catch (err) {
      setError(errorText(err))
      return false
    } finally {
      setBusy(false)
    }
  }
  return {busy, error, save}
}

function FieldError({text, testId}: {text: string; testId: string}) {
  if (!text) return null
  return (
    <p className="field-error" role="alert" data-testid={testId}>
      {text}
    </p>
  )
}

/** Default instructions: copied into each new chat's instructions. */
export function InstructionsValue({value, onSave}: {value: string; onSave: Save<string>}) {
  const [text, setText] = useState(value)
  const {busy, error, save} = useSave(onSave)
  useEffect(() => setText(value), [value])
  const bytes = new TextEncoder().encode(text).length
  const over = bytes > MAX_INSTRUCTIONS
  const dirty = text.trim() !== value.trim()
  return (
    <div className="settings-stack">
      <textarea
        className="text-input settings-textarea"
        data-testid="settings-instructions"
        aria-label="Default instructions for new chats"
        placeholder="For example: Answer briefly. Use metric units."
        rows={4}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <div className="settings-actions">
        <span className={over ? 'settings-count over' : 'settings-count'} data-testid="settings-instructions-count">
          {over ? `${Math.ceil(bytes / 1024)} KiB: at most 32 KiB` : `${text.length} characters`}
        </span>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          data-testid="settings-instructions-save"
          disabled={!dirty || over || busy}
          onClick={() => void save(text)}
        >
          Save
        </button>
      </div>
      <FieldError text={error} testId="settings-instructions-error" />
    </div>
  )
}

const APPROVALS: {id: ApprovalDefault; label: string}[] = [
  {id: 'ask', label: 'Ask every time'},
  {id: 'read_only', label: 'Allow read-only'},
  {id: 'all', label: 'Allow everything'},
]

/** The approval policy of connectors that set none of their own. */
export function ApprovalDefaultValue({value, onSave}: {value: ApprovalDefault; onSave: Save<ApprovalDefault>}) {
  const {error, save} = useSave(onSave)
  return (
    <div className="settings-stack">
      <div className="segmented" role="radiogroup" aria-label="Approval default" data-testid="settings-approval">
        {APPROVALS.map((a) => (
          <button
            key={a.id}
            type="button"
            role="radio"
            aria-checked={value === a.id}
            className="segment"
            data-testid={`settings-approval-${a.id}`}
            onClick={() => value !== a.id && void save(a.id)}
          >
            {a.label}
          </button>
        ))}
      </div>
      <FieldError text={error} testId="settings-approval-error" />
    </div>
  )
}

/** The share of the context window past which a chat is compacted. */
export function CompactValue({value, onSave}: {value: number; onSave: Save<number>}) {
  const [n, setN] = useState(String(value))
  const {error, save} = useSave(onSave)
  useEffect(() => setN(String(value)), [value])
  const parsed = Number(n)
  const valid = Number.isInteger(parsed) && parsed >= MIN_COMPACT && parsed <= MAX_COMPACT
  function commit() {
    if (valid && parsed !== value) void save(parsed)
  }
  return (
    <div className="settings-stack">
      <label className="settings-inline">
        <input
          className="text-input settings-number"
          type="number"
          min={MIN_COMPACT}
          max={MAX_COMPACT}
          step={5}
          data-testid="settings-compact"
          aria-label="Compact at this share of the context window"
          value={n}
          onChange={(e) => setN(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => e.key === 'Enter' && commit()}
        />
        <span>% of the context window</span>
      </label>
      <FieldError
        text={valid ? error : `Between ${MIN_COMPACT} % and ${MAX_COMPACT} %.`}
        testId="settings-compact-error"
      />
    </div>
  )
}

const LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error']

/** How much the app's log keeps (Diagnostics shows its tail). */
export function LogLevelValue({value, onSave}: {value: LogLevel; onSave: Save<LogLevel>}) {
  const {error, save} = useSave(onSave)
  return (
    <div className="settings-stack">
      <select
        className="text-input"
        data-testid="settings-log-level"
        aria-label="Log level"
        value={value}
        onChange={(e) => void save(e.target.value as LogLevel)}
      >
        {LEVELS.map((l) => (
          <option key={l} value={l}>
            {l[0].toUpperCase() + l.slice(1)}
          </option>
        ))}
      </select>
      <FieldError text={error} testId="settings-log-level-error" />
    </div>
  )
}

/** What is wrong with a base URL as typed, or '' (backend/prefs has the last word). */
export function baseURLProblem(raw: string): string {
  const v = raw.trim()
  if (!v) return ''
  let u: URL
  try {
    u = new URL(v)
  } catch {
    return 'Not a URL like https://host'
  }
  if (u.username || u.password || u.search || u.hash) return 'No user, password, query or fragment'
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname)
  if (u.protocol === 'http:' && !local) return 'http is allowed only for localhost; use https'
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'Use https'
  return ''
}

export interface ProviderRow {
  id: string
  name: string
  /** The host used when the row is empty. */
  placeholder: string
  /** An environment variable sets the host; the row cannot. */
  fromEnv?: boolean
}

/** Provider API hosts for API keys (a proxy), used from the next request. */
export function BaseURLsValue({
  providers,
  value,
  onSave,
}: {
  providers: ProviderRow[]
  value: Record<string, string>
  onSave: Save<Record<string, string>>
}) {
  const [urls, setUrls] = useState(value)
  const [saved, setSaved] = useState(false)
  const {busy, error, save} = useSave(onSave)
  useEffect(() => setUrls(value), [value])
  const problems = Object.fromEntries(providers.map((p) => [p.id, baseURLProblem(urls[p.id] ?? '')]))
  const dirty = providers.some((p) => (urls[p.id] ?? '').trim() !== (value[p.id] ?? ''))
  const invalid = Object.values(problems).some(Boolean)
  return (
    <div className="settings-stack">
      {providers.map((p) => (
        <label key={p.id} className="settings-url">
          <span className="settings-url-name">{p.name}</span>
          <input
            className="text-input"
            data-testid={`settings-base-url-${p.id}`}
            aria-label={`${p.name} base URL`}
            aria-invalid={!!problems[p.id]}
            placeholder={p.fromEnv ? 'Set by an environment variable' : p.placeholder}
            disabled={p.fromEnv}
            spellCheck={false}
            value={p.fromEnv ? '' : (urls[p.id] ?? '')}
            onChange={(e) => {
              setSaved(false)
              setUrls({...urls, [p.id]: e.target.value})
            }}
          />
          {problems[p.id] && <span className="field-error">{problems[p.id]}</span>}
        </label>
      ))}
      <div className="settings-actions">
        <span className="settings-hint" data-testid="settings-base-urls-note">
          {saved ? 'Saved. The next request uses them.' : 'Used with API keys; sign-ins keep their own hosts.'}
        </span>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          data-testid="settings-base-urls-save"
          disabled={!dirty || invalid || busy}
          onClick={async () => setSaved(await save(urls))}
        >
          Save
        </button>
      </div>
      <FieldError text={error} testId="settings-base-urls-error" />
    </div>
  )
}
