import {useEffect, useId, useRef, useState, type FormEvent} from 'react'
import {CircleAlert, ExternalLink, Eye, EyeOff, Info, KeyRound, LoaderCircle, X} from 'lucide-react'
import type {Account, ProviderId} from '../../api/types'
import {type PendingLogin, PROVIDER_NAMES, useAccounts} from '../../stores/accounts'
import {CopyButton} from '../CopyButton'
import {useUI} from '../../stores/ui'
import {Page} from './Page'

interface Provider {
  id: ProviderId
  vendor: string
  description: string
  monogram: string
  /** Whose account an OAuth sign-in uses: "Signed in with …". */
  signInWith: string
  /** The terms risk of subscription sign-in, stated next to the button. */
  note?: string
  /** What the account's plan field holds (Claude reports the organization). */
  planLabel?: string
  /** What the provider's API keys look like. */
  keyPlaceholder: string
  /** The key's name as its owner writes it, and where to create one. */
  keyName: string
  keyWhere: string
  /** The description when an API key is used instead of a sign-in. */
  descriptionWithKey?: string
}

const PROVIDERS: Provider[] = [
  {
    id: 'gemini',
    vendor: 'Google',
    description: "Google's multimodal models, with long context for big documents.",
    monogram: 'G',
    signInWith: 'Google',
    note: "Google's terms restrict using subscription sign-in in third-party apps; an API key is the supported alternative.",
    keyPlaceholder: 'AIza…',
    keyName: 'Gemini API key',
    keyWhere: 'Create one in Google AI Studio, under "Get API key".',
  },
  {
    id: 'anthropic',
    vendor: 'Anthropic',
    description: "Anthropic's models, strong at careful reasoning, writing and code.",
    monogram: 'C',
    signInWith: 'Claude',
    planLabel: 'Organization',
    note: "Anthropic's terms restrict using subscription sign-in in third-party apps; an API key is the supported alternative.",
    keyPlaceholder: 'sk-ant-…',
    keyName: 'Anthropic API key',
    keyWhere: 'Create one in the Claude Console (console.anthropic.com), under Settings → API keys.',
  },
  {
    id: 'openai',
    vendor: 'OpenAI',
    description: "OpenAI's GPT models, through your ChatGPT account.",
    descriptionWithKey: "OpenAI's GPT models, through the OpenAI API.",
    monogram: 'O',
    signInWith: 'ChatGPT',
    keyPlaceholder: 'sk-…',
    keyName: 'OpenAI API key',
    keyWhere: 'Create one on the OpenAI Platform (platform.openai.com), under API keys.',
  },
]

function titleCase(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s
}

function StatusBadge({account, login, loaded}: {account?: Account; login?: PendingLogin; loaded: boolean}) {
  if (login) return <span className="badge badge-pending">Signing in</span>
  if (account?.method === 'oauth') return <span className="badge badge-ok">Signed in</span>
  if (account?.method === 'apikey') return <span className="badge badge-ok">API key</span>
  if (!loaded) return <span className="badge badge-muted">Checking…</span>
  return null
}

function SignedIn({p, account}: {p: Provider; account: Account}) {
  const details: [string, string | undefined, string?][] = [
    ['Account', account.email, `account-email-${p.id}`],
    [p.planLabel ?? 'Plan', account.plan && titleCase(account.plan), `account-plan-${p.id}`],
    ['Project', account.project, `account-project-${p.id}`],
  ]
  return (
    <div className="account-details">
      <p className="account-method" data-testid={`account-method-${p.id}`}>
        {account.method === 'oauth' ? `Signed in with ${p.signInWith}` : 'Using an API key'}
      </p>
      {account.method === 'apikey' && account.keyHint && (
        <dl className="account-facts">
          <div className="account-fact">
            <dt>Key</dt>
            <dd>
              <code className="account-key" data-testid={`apikey-hint-${p.id}`}>
                {account.keyHint}
              </code>
            </dd>
          </div>
        </dl>
      )}
      {account.method === 'oauth' && details.some(([, v]) => v) && (
        <dl className="account-facts">
          {details.map(([label, value, testId]) =>
            value ? (
              <div key={label} className="account-fact">
                <dt>{label}</dt>
                <dd className="selectable" data-testid={testId}>
                  {value}
                </dd>
              </div>
            ) : null,
          )}
        </dl>
      )}
    </div>
  )
}

function Waiting({p, login}: {p: Provider; login: PendingLogin}) {
  const reopen = useAccounts((s) => s.reopen)
  const submitCode = useAccounts((s) => s.submitCode)
  const busy = useAccounts((s) => s.busy[p.id])
  const [code, setCode] = useState('')
  const codeId = useId()
  const exchanging = login.status === 'exchanging'

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    if (await submitCode(p.id, code)) setCode('')
  }

  return (
    <div className="signin-waiting" data-testid={`signin-waiting-${p.id}`} aria-live="polite">
      <div className="signin-waiting-row">
        <LoaderCircle className="spinner" size={16} aria-hidden="true" />
        <span className="signin-waiting-text">{exchanging ? 'Finishing sign-in…' : 'Waiting for your browser…'}</span>
      </div>
      {!exchanging && login.browserError && (
        <div className="signin-nobrowser" data-testid={`signin-no-browser-${p.id}`}>
          <p className="signin-help">
            <strong>Maestro couldn't open a browser.</strong> Open this link in a browser on this computer to sign in:
          </p>
          <div className="signin-link">
            <code className="selectable mono" data-testid={`signin-link-${p.id}`}>{login.authUrl}</code>
            <CopyButton text={login.authUrl} label="sign-in link" />
          </div>
          <p className="signin-help signin-why selectable">{login.browserError}</p>
        </div>
      )}
      {!exchanging && !login.browserError && (
        <p className="signin-help">
          Finish signing in on the page that opened in your browser. Didn't see it?{' '}
          <button
            type="button"
            className="link-btn"
            data-testid={`signin-reopen-${p.id}`}
            disabled={!login.loginId}
            onClick={() => void reopen(p.id)}
          >
            Open the sign-in page again
            <ExternalLink size={12} aria-hidden="true" />
          </button>
          {login.authUrl && <CopyButton text={login.authUrl} label="sign-in link" />}
        </p>
      )}
      {login.manual && !exchanging && (
        <form className="signin-code" onSubmit={onSubmit}>
          <p className="signin-help">
            Browser on another device, or the page can't reach Maestro?{' '}
            <button
              type="button"
              className="link-btn"
              data-testid={`signin-paste-page-${p.id}`}
              disabled={!login.loginId}
              onClick={() => void reopen(p.id, {paste: true})}
            >
              Get a code to paste instead
              <ExternalLink size={12} aria-hidden="true" />
            </button>
          </p>
          <label htmlFor={codeId} className="field-label">
            Code from the sign-in page
          </label>
          <div className="inline-form">
            <input
              id={codeId}
              className="text-input mono"
              data-testid={`signin-code-${p.id}`}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              placeholder="code#state"
              autoComplete="off"
              spellCheck={false}
            />
            <button
              type="submit"
              className="btn btn-secondary"
              data-testid={`signin-code-submit-${p.id}`}
              disabled={code.trim() === '' || busy === 'code' || !login.loginId}
            >
              Continue
            </button>
          </div>
        </form>
      )}
    </div>
  )
}

function APIKeyForm({p, onDone}: {p: Provider; onDone: () => void}) {
  const saveKey = useAccounts((s) => s.saveKey)
  const busy = useAccounts((s) => s.busy[p.id])
  const [key, setKey] = useState('')
  const [shown, setShown] = useState(false)
  const inputId = useId()

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    if (await saveKey(p.id, key)) {
      setKey('')
      onDone()
    }
  }

  return (
    <form className="apikey-form" onSubmit={onSubmit} data-testid={`apikey-form-${p.id}`}>
      <label htmlFor={inputId} className="field-label">
        {p.keyName}
      </label>
      <div className="inline-form">
        <div className="secret-input">
          <input
            id={inputId}
            className="text-input mono"
            type={shown ? 'text' : 'password'}
            data-testid={`apikey-input-${p.id}`}
            value={key}
            onChange={(e) => setKey(e.target.value)}
            placeholder={p.keyPlaceholder}
            autoComplete="off"
            spellCheck={false}
            autoFocus
          />
          <button
            type="button"
            className="icon-btn icon-btn-sm secret-toggle"
            aria-label={shown ? 'Hide the key' : 'Show the key'}
            aria-pressed={shown}
            data-testid={`apikey-show-${p.id}`}
            onClick={() => setShown((v) => !v)}
          >
            {shown ? <EyeOff size={14} aria-hidden="true" /> : <Eye size={14} aria-hidden="true" />}
          </button>
        </div>
        <button
          type="submit"
          className="btn btn-primary"
          data-testid={`apikey-save-${p.id}`}
          disabled={key.trim() === '' || busy === 'apikey'}
        >
          Save
        </button>
        <button type="button" className="btn btn-secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
      <p className="field-hint" data-testid={`apikey-where-${p.id}`}>
        {p.keyWhere} Stored in your system keychain; Maestro never shows it again.
      </p>
    </form>
  )
}

function ErrorLine({p, message}: {p: ProviderId; message: string}) {
  const clearError = useAccounts((s) => s.clearError)
  return (
    <div className="account-error" role="alert" data-testid={`account-error-${p}`}>
      <CircleAlert size={16} aria-hidden="true" />
      <span className="account-error-text selectable">{message}</span>
      <button type="button" className="icon-btn icon-btn-sm" aria-label="Dismiss" onClick={() => clearError(p)}>
        <X size={14} aria-hidden="true" />
      </button>
    </div>
  )
}

function ProviderCard({p}: {p: Provider}) {
  const name = PROVIDER_NAMES[p.id]
  const loaded = useAccounts((s) => s.loaded)
  const account = useAccounts((s) => s.accounts[p.id])
  const login = useAccounts((s) => s.logins[p.id])
  const busy = useAccounts((s) => s.busy[p.id])
  const error = useAccounts((s) => s.errors[p.id])
  const {signIn, cancelSignIn, signOut, removeKey} = useAccounts.getState()
  const [keyForm, setKeyForm] = useState(false)
  const asked = useUI((s) => s.keyFormFor === p.id)
  const cardRef = useRef<HTMLElement>(null)

  // An error card sent the user here for this provider's API key.
  useEffect(() => {
    if (!asked) return
    setKeyForm(true)
    useUI.getState().keyFormShown()
    cardRef.current?.scrollIntoView({block: 'center'})
  }, [asked])

  const signedOut = !account && !login
  let actions
  if (login) {
    actions = (
      <button
        type="button"
        className="btn btn-secondary"
        data-testid={`cancel-signin-${p.id}`}
        disabled={busy === 'cancel'}
        onClick={() => void cancelSignIn(p.id)}
      >
        Cancel
      </button>
    )
  } else if (account?.method === 'oauth') {
    actions = (
      <button
        type="button"
        className="btn btn-secondary"
        data-testid={`signout-${p.id}`}
        disabled={busy === 'signout'}
        onClick={() => void signOut(p.id)}
      >
        Sign out
      </button>
    )
  } else if (account?.method === 'apikey') {
    actions = (
      <button
        type="button"
        className="btn btn-secondary"
        data-testid={`apikey-remove-${p.id}`}
        disabled={busy === 'apikey'}
        onClick={() => void removeKey(p.id)}
      >
        Remove key
      </button>
    )
  } else {
    actions = (
      <button
        type="button"
        className="btn btn-primary"
        data-testid={`signin-${p.id}`}
        aria-label={`Sign in to ${name}`}
        disabled={!loaded}
        onClick={() => {
          setKeyForm(false)
          void signIn(p.id)
        }}
      >
        Sign in
      </button>
    )
  }

  return (
    <article
      ref={cardRef}
      className="card provider-card"
      data-testid={`account-${p.id}`}
      data-state={login ? 'waiting' : account ? account.method : 'signed-out'}
      aria-labelledby={`provider-${p.id}-name`}
    >
      <div className="provider-row">
        <div className={`provider-logo provider-logo-${p.id}`} aria-hidden="true">
          {p.monogram}
        </div>
        <div className="provider-info">
          <div className="provider-heading">
            <h2 id={`provider-${p.id}-name`} className="provider-name">
              {name}
            </h2>
            <span className="provider-vendor">{p.vendor}</span>
            <StatusBadge account={account} login={login} loaded={loaded} />
          </div>
          <p className="provider-description">
            {account?.method === 'apikey' && p.descriptionWithKey ? p.descriptionWithKey : p.description}
          </p>
        </div>
        <div className="provider-actions">{actions}</div>
      </div>

      <div className="provider-body">
        {login && <Waiting p={p} login={login} />}
        {account && !login && <SignedIn p={p} account={account} />}
        {error && <ErrorLine p={p.id} message={error} />}
        {p.note && signedOut && (
          <p className="provider-note" data-testid={`terms-note-${p.id}`}>
            <Info size={14} aria-hidden="true" />
            <span>{p.note}</span>
          </p>
        )}
        {!login &&
          (keyForm ? (
            <APIKeyForm p={p} onDone={() => setKeyForm(false)} />
          ) : (
            <button
              type="button"
              className="link-btn apikey-toggle"
              data-testid={`apikey-toggle-${p.id}`}
              onClick={() => setKeyForm(true)}
            >
              <KeyRound size={14} aria-hidden="true" />
              {account?.method === 'apikey' ? 'Replace the API key' : 'Use an API key instead'}
            </button>
          ))}
      </div>

    </article>
  )
}

export function AccountsPage() {
  const load = useAccounts((s) => s.load)

  useEffect(() => {
    void load()
  }, [load])

  return (
    <Page
      title="Accounts"
      description="Sign in to the model providers Maestro talks to. Credentials stay in your system keychain."
      testId="accounts-page"
    >
      <div className="card-list">
        {PROVIDERS.map((p) => (
          <ProviderCard key={p.id} p={p} />
        ))}
      </div>
    </Page>
  )
}
