import {type FormEvent, useEffect, useId, useRef, useState} from 'react'
import {CircleAlert, CircleCheck, Eye, FolderOpen, Globe, LoaderCircle, Plus, Radio, Terminal, X} from 'lucide-react'
import type {Connector, ConnectorInput, KeyValueInput, TestResult, Transport} from '../../api/connectors'
import {toolsApi} from '../../api/connectors'
import {toAppError} from '../../api/errors'
import {useConnectors} from '../../stores/connectors'
import {toastError} from '../../stores/toasts'
import {Modal} from '../dialogs/Modal'
import {Switch} from '../tools/Switch'
import {hasOpenQuote, joinArgs, splitArgs} from './ConnectorsPage.args'
import {type SecretChoices, SecretArgs, secretIndexes, useSuggestedSecrets} from './ConnectorsPage.secrets'

interface Row {
  id: number
  key: string
  value: string
  /** The stored value's hint, for rows of a connector being edited. */
  hint?: string
  /** Keep the stored value (until the user types a new one). */
  keep: boolean
}

interface FormState {
  name: string
  transport: Transport
  command: string
  args: string
  cwd: string
  env: Row[]
  url: string
  headers: Row[]
  oauth: boolean
  clientId: string
  clientSecret: string
  keepClientSecret: boolean
  scopes: string
  /** Run the tools the server marks read-only without asking (off by default). */
  trustReadOnly: boolean
  newChats: boolean
  /** The server's MCP Apps render in tool cards (docs/APPS.md). */
  apps: boolean
  /** The user's lock choices for arguments, by argument text. */
  secrets: SecretChoices
}

let nextRow = 1
const row = (key = '', value = '', hint?: string): Row => ({id: nextRow++, key, value, hint, keep: hint !== undefined})

export const TRANSPORTS: {id: Transport; label: string; hint: string; icon: typeof Terminal}[] = [
  {id: 'stdio', label: 'Local command', hint: 'stdio', icon: Terminal},
  {id: 'http', label: 'Streamable HTTP', hint: 'http', icon: Globe},
  {id: 'sse', label: 'SSE', hint: 'legacy', icon: Radio},
]

function initial(c?: Connector): FormState {
  const transport = c?.transport ?? 'stdio'
  return {
    name: c?.name ?? '',
    transport,
    command: c?.command ?? '',
    args: joinArgs(c?.args ?? []),
    cwd: c?.cwd ?? '',
    env: c?.env.map((e) => row(e.key, '', e.hint)) ?? [],
    url: c?.url ?? '',
    headers: c?.headers.map((h) => row(h.key, '', h.hint)) ?? [],
    oauth: !!c?.oauth,
    clientId: c?.oauth?.clientId ?? '',
    clientSecret: '',
    keepClientSecret: !!c?.oauth?.hasClientSecret,
    scopes: c?.oauth?.scopes.join(' ') ?? '',
    trustReadOnly: !!c?.trustReadOnlyHints,
    // A user's first connectors are what they set Maestro up for.
    newChats: c ? !!c.newChats : useConnectors.getState().connectors.length < 5,
    apps: c ? c.apps !== false : true,
    secrets: {},
  }
}

function rows(list: Row[]): KeyValueInput[] {
  return list
    .filter((r) => r.key.trim() !== '' || r.value !== '')
    .map((r) => (r.keep && r.value === '' ? {key: r.key.trim(), value: '', keep: true} : {key: r.key.trim(), value: r.value}))
}

/**
 * The form as SaveConnector and TestConnector take it: only the chosen
 * transport's fields. suggested are the arguments Go says look secret.
 */
export function toInput(f: FormState, id?: string, suggested: ReadonlySet<string> = new Set()): ConnectorInput {
  const base = {
    id: id || undefined, name: f.name.trim(), transport: f.transport,
    trustReadOnlyHints: f.trustReadOnly || undefined, newChats: f.newChats, apps: f.apps,
  }
  if (f.transport === 'stdio') {
    const args = splitArgs(f.args)
    const secretArgs = secretIndexes(args, f.secrets, suggested)
    return {
      ...base,
      command: f.command.trim(),
      args,
      ...(secretArgs.length ? {secretArgs} : {}),
      env: rows(f.env),
      cwd: f.cwd.trim() || undefined,
    }
  }
  const remote: ConnectorInput = {...base, url: f.url.trim(), headers: rows(f.headers)}
  if (f.transport === 'http' && f.oauth) {
    remote.oauth = {
      clientId: f.clientId.trim() || undefined,
      clientSecret: f.clientSecret.trim() || undefined,
      keepClientSecret: f.keepClientSecret && f.clientSecret.trim() === '',
      scopes: f.scopes.split(/[\s,]+/).filter(Boolean),
    }
  }
  return remote
}

function KeyValueRows({
  label,
  addLabel,
  keyPlaceholder,
  valuePlaceholder,
  list,
  onChange,
  testId,
}: {
  label: string
  addLabel: string
  keyPlaceholder: string
  valuePlaceholder: string
  list: Row[]
  onChange: (rows: Row[]) => void
  testId: string
}) {
  const update = (id: number, patch: Partial<Row>) => onChange(list.map((r) => (r.id === id ? {...r, ...patch} : r)))
  return (
    <fieldset className="cf-field cf-rows" data-testid={testId}>
      <legend className="field-label">{label}</legend>
      {list.length > 0 && (
        <div className="cf-row-list">
          {list.map((r) => (
            <div key={r.id} className="cf-kv" data-testid={`${testId}-row`}>
              <input
                className="text-input mono cf-kv-key"
                aria-label={`${label}: name`}
                placeholder={keyPlaceholder}
                value={r.key}
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => update(r.id, {key: e.target.value})}
              />
              <input
                className="text-input mono cf-kv-value"
                type="password"
                aria-label={`${label}: value of ${r.key || 'new row'}`}
                placeholder={r.keep && r.hint !== undefined ? `Stored (${r.hint || 'empty'}) — type to replace` : valuePlaceholder}
                value={r.value}
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => update(r.id, {value: e.target.value})}
              />
              <button
                type="button"
                className="icon-btn icon-btn-sm icon-btn-danger"
                aria-label={`Remove ${r.key || 'this row'}`}
                onClick={() => onChange(list.filter((x) => x.id !== r.id))}
              >
                <X size={14} aria-hidden="true" />
              </button>
            </div>
          ))}
        </div>
      )}
      <button type="button" className="link-btn cf-add-row" onClick={() => onChange([...list, row()])}>
        <Plus size={13} aria-hidden="true" />
        {addLabel}
      </button>
    </fieldset>
  )
}

/** A switch with its label and an explanation under it. */
function SwitchRow(p: {
  checked: boolean
  onChange: (on: boolean) => void
  label: string
  hint: string
  testId: string
  hintTestId?: string
}) {
  return (
    <div className="cf-oauth-head">
      <Switch checked={p.checked} onChange={p.onChange} label={p.label} testId={p.testId} />
      <div>
        <span className="cf-oauth-title">{p.label}</span>
        <p className="field-hint cf-oauth-hint" data-testid={p.hintTestId}>
          {p.hint}
        </p>
      </div>
    </div>
  )
}

function TestOutcome({result}: {result: TestResult}) {
  if (result.ok) {
    return (
      <div className="cf-test is-ok" data-testid="connector-test-result" data-ok="true" role="status">
        <div className="cf-test-head">
          <CircleCheck size={16} aria-hidden="true" />
          <span>
            Connected{result.server ? ` to ${result.server}` : ''} · {result.tools.length} tool{result.tools.length === 1 ? '' : 's'} ·{' '}
            {result.durationMs} ms
          </span>
        </div>
        {result.tools.length > 0 && (
          <ul className="cf-test-tools">
            {result.tools.map((t) => (
              <li key={t.name} className="cf-test-tool" title={t.description}>
                {t.readOnly && <Eye size={11} aria-label="read-only (the server's claim)" />}
                {t.name}
              </li>
            ))}
          </ul>
        )}
      </div>
    )
  }
  return (
    <div className="cf-test is-error" data-testid="connector-test-result" data-ok="false" role="alert">
      <div className="cf-test-head">
        <CircleAlert size={16} aria-hidden="true" />
        <span className="selectable">{result.error ? result.error[0].toUpperCase() + result.error.slice(1) : `The server is ${result.state}.`}</span>
      </div>
      {result.stderrTail.length > 0 && <pre className="connector-stderr selectable">{result.stderrTail.join('\n')}</pre>}
    </div>
  )
}

/** Add or edit a connector, with "Test connection". */
export function ConnectorForm({connector, onClose}: {connector?: Connector; onClose: () => void}) {
  const [f, setF] = useState<FormState>(() => initial(connector))
  const [saving, setSaving] = useState(false)
  const [testing, setTesting] = useState(false)
  const [tested, setTested] = useState<TestResult | null>(null)
  const [error, setError] = useState<string | null>(null)
  // A failed save disables and re-enables its button, which drops the
  // focus to the page: the error takes it, so it is read out and Escape
  // still closes the dialog.
  const errorRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (error) errorRef.current?.focus()
  }, [error])
  const nameRef = useRef<HTMLInputElement>(null)
  const ids = {name: useId(), command: useId(), args: useId(), cwd: useId(), url: useId(), cid: useId(), cs: useId(), sc: useId()}
  const set = (patch: Partial<FormState>) => {
    setF((cur) => ({...cur, ...patch}))
    setError(null)
  }
  const openQuote = f.transport === 'stdio' && hasOpenQuote(f.args)
  const args = f.transport === 'stdio' ? splitArgs(f.args) : []
  const suggested = useSuggestedSecrets(args)

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    if (saving) return
    setSaving(true)
    setError(null)
    try {
      await useConnectors.getState().save(toInput(f, connector?.id, suggested))
      onClose()
    } catch (err) {
      setError(toAppError(err).message)
    } finally {
      setSaving(false)
    }
  }

  async function onTest() {
    setTesting(true)
    setTested(null)
    setError(null)
    try {
      setTested(await useConnectors.getState().test(toInput(f, connector?.id, suggested)))
    } catch (err) {
      setError(toAppError(err).message)
    } finally {
      setTesting(false)
    }
  }

  async function browse() {
    try {
      const dir = await toolsApi.pickFolder()
      if (dir) set({cwd: dir})
    } catch (err) {
      toastError(err, "Couldn't open the folder picker")
    }
  }

  return (
    <Modal
      title={connector ? `Edit ${connector.name}` : 'Add connector'}
      onEscape={onClose}
      initialFocus={nameRef}
      className="connector-dialog"
      testId="connector-dialog"
    >
      <form className="connector-form" data-testid="connector-form" onSubmit={onSubmit} noValidate>
        <div className="cf-field">
          <label htmlFor={ids.name} className="field-label">
            Name
          </label>
          <input
            id={ids.name}
            ref={nameRef}
            className="text-input"
            data-testid="connector-name"
            value={f.name}
            placeholder="e.g. Files"
            maxLength={64}
            autoComplete="off"
            onChange={(e) => set({name: e.target.value})}
          />
          <p className="field-hint">Tools are named after it: {f.name.trim() ? <code>{slug(f.name)}.tool</code> : 'name.tool'}.</p>
        </div>

        <div className="cf-field">
          <span className="field-label" id={`${ids.name}-transport`}>
            Transport
          </span>
          <div className="segmented" role="radiogroup" aria-labelledby={`${ids.name}-transport`} data-testid="connector-transport">
            {TRANSPORTS.map((t) => (
              <button
                key={t.id}
                type="button"
                role="radio"
                aria-checked={f.transport === t.id}
                className="segment"
                data-value={t.id}
                data-testid={`connector-transport-${t.id}`}
                onClick={() => set({transport: t.id})}
              >
                <t.icon size={14} aria-hidden="true" />
                {t.label}
              </button>
            ))}
          </div>
        </div>

        {f.transport === 'stdio' ? (
          <>
            <div className="cf-field">
              <label htmlFor={ids.command} className="field-label">
                Command
              </label>
              <input
                id={ids.command}
                className="text-input mono"
                data-testid="connector-command"
                value={f.command}
                placeholder="npx"
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => set({command: e.target.value})}
              />
            </div>
            <div className="cf-field">
              <label htmlFor={ids.args} className="field-label">
                Arguments
              </label>
              <input
                id={ids.args}
                className="text-input mono"
                data-testid="connector-args"
                value={f.args}
                placeholder="-y @modelcontextprotocol/server-filesystem ~/Documents"
                spellCheck={false}
                autoComplete="off"
                aria-invalid={openQuote || undefined}
                onChange={(e) => set({args: e.target.value})}
              />
              <p className={`field-hint${openQuote ? ' is-warning' : ''}`}>
                {openQuote
                  ? 'A quote is not closed: it runs to the end of the line.'
                  : 'Separated by spaces; quote an argument that contains spaces.'}
              </p>
              <SecretArgs args={args} choices={f.secrets} suggested={suggested} onChange={(secrets) => set({secrets})} />
            </div>
            <KeyValueRows
              label="Environment"
              addLabel="Add variable"
              keyPlaceholder="NAME"
              valuePlaceholder="value"
              list={f.env}
              onChange={(env) => set({env})}
              testId="connector-env"
            />
            <div className="cf-field">
              <label htmlFor={ids.cwd} className="field-label">
                Working directory <span className="cf-optional">optional</span>
              </label>
              <div className="inline-form">
                <input
                  id={ids.cwd}
                  className="text-input mono"
                  data-testid="connector-cwd"
                  value={f.cwd}
                  placeholder="Maestro's own"
                  spellCheck={false}
                  autoComplete="off"
                  onChange={(e) => set({cwd: e.target.value})}
                />
                <button type="button" className="btn btn-secondary" onClick={() => void browse()}>
                  <FolderOpen size={14} aria-hidden="true" />
                  Browse
                </button>
              </div>
            </div>
          </>
        ) : (
          <>
            <div className="cf-field">
              <label htmlFor={ids.url} className="field-label">
                URL
              </label>
              <input
                id={ids.url}
                className="text-input mono"
                data-testid="connector-url"
                value={f.url}
                placeholder={f.transport === 'sse' ? 'https://example.com/sse' : 'https://example.com/mcp'}
                spellCheck={false}
                autoComplete="off"
                inputMode="url"
                onChange={(e) => set({url: e.target.value})}
              />
            </div>
            <KeyValueRows
              label="Headers"
              addLabel="Add header"
              keyPlaceholder="Authorization"
              valuePlaceholder="Bearer …"
              list={f.headers}
              onChange={(headers) => set({headers})}
              testId="connector-headers"
            />
            {f.transport === 'http' && (
              <div className="cf-field cf-oauth">
                <SwitchRow
                  checked={f.oauth}
                  onChange={(oauth) => set({oauth})}
                  label="Sign in with OAuth"
                  testId="connector-oauth"
                  hint="For servers that ask you to sign in. Maestro discovers the rest; tokens stay in your keychain."
                />
                {f.oauth && (
                  <div className="cf-oauth-fields">
                    <div className="cf-field">
                      <label htmlFor={ids.cid} className="field-label">
                        Client ID <span className="cf-optional">optional</span>
                      </label>
                      <input id={ids.cid} className="text-input mono" value={f.clientId} autoComplete="off" spellCheck={false}
                        placeholder="Registered automatically when empty" onChange={(e) => set({clientId: e.target.value})} />
                    </div>
                    <div className="cf-field">
                      <label htmlFor={ids.cs} className="field-label">
                        Client secret <span className="cf-optional">optional</span>
                      </label>
                      <input id={ids.cs} className="text-input mono" type="password" value={f.clientSecret} autoComplete="off"
                        placeholder={f.keepClientSecret ? 'Stored — type to replace' : ''} onChange={(e) => set({clientSecret: e.target.value})} />
                    </div>
                    <div className="cf-field">
                      <label htmlFor={ids.sc} className="field-label">
                        Scopes <span className="cf-optional">optional</span>
                      </label>
                      <input id={ids.sc} className="text-input mono" value={f.scopes} autoComplete="off" spellCheck={false}
                        placeholder="The server's when empty" onChange={(e) => set({scopes: e.target.value})} />
                    </div>
                  </div>
                )}
              </div>
            )}
          </>
        )}

        <div className="cf-field cf-trust">
          <SwitchRow
            checked={f.newChats}
            onChange={(newChats) => set({newChats})}
            label="On in new chats"
            testId="connector-new-chats"
            hintTestId="connector-new-chats-hint"
            hint="New chats start with this connector's tools on. You can switch it off in a chat's Tools panel."
          />
        </div>

        <div className="cf-field cf-trust">
          <SwitchRow
            checked={f.apps}
            onChange={(apps) => set({apps})}
            label="Show this server's apps in tool cards"
            testId="connector-apps"
            hintTestId="connector-apps-hint"
            hint="Some servers ship an interface for a tool (MCP Apps). It runs sandboxed in the tool card; off, results show as text."
          />
        </div>

        <div className="cf-field cf-trust">
          <SwitchRow
            checked={f.trustReadOnly}
            onChange={(trustReadOnly) => set({trustReadOnly})}
            label="Run the tools this server marks read-only without asking"
            testId="connector-trust-readonly"
            hintTestId="connector-trust-hint"
            hint={
              'Which tools are read-only is the server’s own claim, and Maestro cannot check it: a server can mark a tool ' +
              'that sends your data away as read-only. Leave this off unless you trust this server. Chats set to deny all ' +
              'still deny every tool.'
            }
          />
        </div>

        {tested && <TestOutcome result={tested} />}
        {error && (
          <div className="account-error" role="alert" data-testid="connector-form-error" ref={errorRef} tabIndex={-1}>
            <CircleAlert size={16} aria-hidden="true" />
            <span className="account-error-text selectable">{error}</span>
          </div>
        )}

        <div className="cf-actions">
          <button type="button" className="btn btn-secondary" data-testid="connector-test" disabled={testing || saving} onClick={() => void onTest()}>
            {testing && <LoaderCircle className="spinner" size={14} aria-hidden="true" />}
            {testing ? 'Testing…' : 'Test connection'}
          </button>
          <span className="cf-actions-spacer" />
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={saving}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" data-testid="connector-save" disabled={saving}>
            {saving ? 'Saving…' : connector ? 'Save' : 'Add connector'}
          </button>
        </div>
      </form>
    </Modal>
  )
}

/** The server part of the tools' canonical names (backend/mcp ServerSlug, roughly). */
function slug(name: string): string {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
  return s.slice(0, 24).replace(/_+$/, '') || 'server'
}
