import {useEffect, useState, type ReactNode} from 'react'
import {Monitor, Moon, Sun} from 'lucide-react'
import {chatApi, settingsApi} from '../../api/client'
import type {PrefsDTO, ThemeChoice} from '../../api/contract.gen'
import {useAppStore} from '../../stores/app'
import {useModels} from '../../stores/models'
import {useTheme} from '../../stores/theme'
import {toastError} from '../../stores/toasts'
import {CodeField} from '../CopyButton'
import {DiagnosticsSection} from './DiagnosticsSection'
import {Page} from './Page'
import {NewChatsConnectorsValue} from './SettingsNewChats'
import {ApprovalDefaultValue, BaseURLsValue, CompactValue, InstructionsValue, LogLevelValue} from './SettingsPrefs'

/** The API hosts Settings can point elsewhere (a proxy), with their defaults. */
const BASE_URL_PROVIDERS = [
  {id: 'openai', name: 'OpenAI', placeholder: 'https://api.openai.com'},
  {id: 'anthropic', name: 'Claude', placeholder: 'https://api.anthropic.com'},
  {id: 'gemini', name: 'Gemini', placeholder: 'https://generativelanguage.googleapis.com'},
]

/** The rows of backend/prefs: read once, each saved on its own. */
function usePrefs() {
  const [prefs, setPrefs] = useState<PrefsDTO | null>(null)
  useEffect(() => {
    settingsApi
      .prefs()
      .then(setPrefs)
      .catch((err) => toastError(err, "Couldn't read the settings"))
  }, [])
  async function save(patch: Partial<PrefsDTO>) {
    setPrefs(await settingsApi.savePrefs(patch))
  }
  return {prefs, save}
}

function Row({label, hint, children}: {label: string; hint?: string; children: ReactNode}) {
  return (
    <div className="settings-row">
      <div className="settings-label">
        <div>{label}</div>
        {hint && <div className="settings-hint">{hint}</div>}
      </div>
      <div className="settings-value">{children}</div>
    </div>
  )
}

function KeychainValue() {
  const keychain = useAppStore((s) => s.keychain)
  if (!keychain) return <span className="muted">Checking…</span>
  if (keychain.available) {
    return (
      <span className="status status-ok" data-testid="keychain-status">
        <span className="status-dot" aria-hidden="true" />
        Available
      </span>
    )
  }
  return (
    <div className="status-block" data-testid="keychain-status">
      <span className="status status-warn">
        <span className="status-dot" aria-hidden="true" />
        Unavailable
      </span>
      {keychain.message && <p className="status-message">{keychain.message}</p>}
    </div>
  )
}

/** The model new chats start on: the last one used, or one chosen here. */
function DefaultModelValue() {
  const providers = useModels((s) => s.providers)
  const [value, setValue] = useState<string | null>(null)

  useEffect(() => {
    void useModels.getState().load()
    chatApi
      .defaultModel()
      .then((c) => setValue(c.provider ? `${c.provider}/${c.model}` : ''))
      .catch((err) => toastError(err, "Couldn't read the default model"))
  }, [])

  async function choose(v: string) {
    const [provider, ...rest] = v ? v.split('/') : ['']
    const prev = value
    setValue(v)
    try {
      await chatApi.setDefaultModel(provider, rest.join('/'))
    } catch (err) {
      setValue(prev)
      toastError(err, "Couldn't set the default model")
    }
  }

  return (
    <select
      className="text-input"
      data-testid="settings-default-model"
      aria-label="Default model for new chats"
      value={value ?? ''}
      disabled={value === null}
      onChange={(e) => void choose(e.target.value)}
    >
      <option value="">The one last used</option>
      {providers
        .filter((p) => p.available)
        .map((p) => (
          <optgroup key={p.provider} label={p.displayName}>
            {p.models
              .filter((m) => !m.unavailable)
              .map((m) => (
                <option key={m.id} value={`${p.provider}/${m.id}`}>
                  {m.name || m.id}
                </option>
              ))}
          </optgroup>
        ))}
    </select>
  )
}

const THEMES: {id: ThemeChoice; label: string; icon: typeof Sun}[] = [
  {id: 'system', label: 'System', icon: Monitor},
  {id: 'light', label: 'Light', icon: Sun},
  {id: 'dark', label: 'Dark', icon: Moon},
]

/** System, Light or Dark: shown at once, kept for the next launch. */
function ThemeValue() {
  const choice = useTheme((s) => s.choice)
  return (
    <div className="segmented settings-theme" role="radiogroup" aria-label="Theme" data-testid="settings-theme">
      {THEMES.map((t) => (
        <button
          key={t.id}
          type="button"
          role="radio"
          aria-checked={choice === t.id}
          className="segment"
          data-testid={`settings-theme-${t.id}`}
          onClick={() => void useTheme.getState().choose(t.id)}
        >
          <t.icon size={14} aria-hidden="true" />
          {t.label}
        </button>
      ))}
    </div>
  )
}

export function SettingsPage() {
  const status = useAppStore((s) => s.status)
  const loadKeychain = useAppStore((s) => s.loadKeychain)
  const {prefs, save} = usePrefs()

  useEffect(() => {
    void loadKeychain()
  }, [loadKeychain])

  return (
    <Page title="Settings" description="About this copy of Maestro and where it keeps your data." testId="settings-page">
      <section className="settings-section" aria-labelledby="settings-general">
        <h2 id="settings-general" className="section-title">
          General
        </h2>
        <div className="card settings-card">
          <Row label="Version">
            <span className="settings-text" data-testid="settings-version">
              {status?.version || '—'}
            </span>
          </Row>
          <Row label="Data folder" hint="Chats and settings live here.">
            <CodeField text={status?.dataDir ?? ''} label="data folder path" testId="settings-datadir" />
          </Row>
          <Row label="Data file">
            <CodeField text={status?.dataFile ?? ''} label="data file path" testId="settings-datafile" />
          </Row>
        </div>
      </section>
      <section className="settings-section" aria-labelledby="settings-appearance">
        <h2 id="settings-appearance" className="section-title">
          Appearance
        </h2>
        <div className="card settings-card">
          <Row label="Theme" hint="System follows your desktop's light or dark setting.">
            <ThemeValue />
          </Row>
        </div>
      </section>
      <section className="settings-section" aria-labelledby="settings-chats">
        <h2 id="settings-chats" className="section-title">
          Chats
        </h2>
        <div className="card settings-card">
          <Row label="Model for new chats" hint="A provider you are signed out of is skipped.">
            <DefaultModelValue />
          </Row>
          {prefs && (
            <>
              <Row label="Instructions for new chats" hint="Each chat can change its own from its header.">
                <InstructionsValue value={prefs.instructions} onSave={(instructions) => save({instructions})} />
              </Row>
              <Row label="Compact long chats" hint="The oldest part is summarised for the model; the chat keeps it all.">
                <CompactValue value={prefs.compactPercent} onSave={(compactPercent) => save({compactPercent})} />
              </Row>
            </>
          )}
        </div>
      </section>
      {prefs && (
        <section className="settings-section" aria-labelledby="settings-tools">
          <h2 id="settings-tools" className="section-title">
            Tools
          </h2>
          <div className="card settings-card">
            <Row label="Approve tool calls" hint="For connectors without their own choice. Tools that may destroy always ask.">
              <ApprovalDefaultValue value={prefs.approval} onSave={(approval) => save({approval})} />
            </Row>
            <Row label="Connectors for new chats" hint="Each chat can switch them in its Tools panel.">
              <NewChatsConnectorsValue />
            </Row>
          </div>
        </section>
      )}
      {prefs && (
        <section className="settings-section" aria-labelledby="settings-advanced">
          <h2 id="settings-advanced" className="section-title">
            Advanced
          </h2>
          <div className="card settings-card">
            <Row label="Provider base URLs" hint="A proxy in front of a provider's API. Empty: the provider's own host.">
              <BaseURLsValue
                providers={BASE_URL_PROVIDERS.map((p) => ({...p, fromEnv: prefs.baseUrlsFromEnv.includes(p.id)}))}
                value={prefs.baseUrls}
                onSave={(baseUrls) => save({baseUrls})}
              />
            </Row>
            <Row label="Log level" hint="Debug keeps the most; the log never holds keys or tokens.">
              <LogLevelValue value={prefs.logLevel} onSave={(logLevel) => save({logLevel})} />
            </Row>
          </div>
        </section>
      )}
      <section className="settings-section" aria-labelledby="settings-keychain">
        <h2 id="settings-keychain" className="section-title">
          Keychain
        </h2>
        <div className="card settings-card">
          <Row label="System keychain" hint="Stores provider sign-ins and API keys.">
            <KeychainValue />
          </Row>
        </div>
      </section>
      <section className="settings-section" aria-labelledby="settings-diagnostics">
        <h2 id="settings-diagnostics" className="section-title">
          Diagnostics
        </h2>
        <div className="card settings-card">
          <DiagnosticsSection load={settingsApi.diagnostics} />
        </div>
      </section>
    </Page>
  )
}
