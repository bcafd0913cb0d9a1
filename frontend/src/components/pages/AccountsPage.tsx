import {Info} from 'lucide-react'
import {Page} from './Page'

interface Provider {
  id: string
  name: string
  vendor: string
  description: string
  monogram: string
  note?: string
}

const PROVIDERS: Provider[] = [
  {
    id: 'gemini',
    name: 'Gemini',
    vendor: 'Google',
    description: "Google's multimodal models, with long context for big documents.",
    monogram: 'G',
    note: "Google's terms restrict using subscription sign-in in third-party apps; an API key is the supported alternative.",
  },
  {
    id: 'claude',
    name: 'Claude',
    vendor: 'Anthropic',
    description: "Anthropic's models, strong at careful reasoning, writing and code.",
    monogram: 'C',
    note: "Anthropic's terms restrict using subscription sign-in in third-party apps; an API key is the supported alternative.",
  },
  {
    id: 'chatgpt',
    name: 'ChatGPT',
    vendor: 'OpenAI',
    description: "OpenAI's GPT models, through your ChatGPT account.",
    monogram: 'O',
  },
]

function ProviderCard({p}: {p: Provider}) {
  return (
    <article className="card provider-card" data-testid={`provider-${p.id}`} aria-labelledby={`provider-${p.id}-name`}>
      <div className="provider-row">
        <div className={`provider-logo provider-logo-${p.id}`} aria-hidden="true">
          {p.monogram}
        </div>
        <div className="provider-info">
          <div className="provider-heading">
            <h2 id={`provider-${p.id}-name`} className="provider-name">
              {p.name}
            </h2>
            <span className="provider-vendor">{p.vendor}</span>
            <span className="badge">Coming next</span>
          </div>
          <p className="provider-description">{p.description}</p>
        </div>
        <button type="button" className="btn btn-secondary" disabled aria-label={`Sign in to ${p.name}`}>
          Sign in
        </button>
      </div>
      {p.note && (
        <p className="provider-note">
          <Info size={14} aria-hidden="true" />
          <span>{p.note}</span>
        </p>
      )}
    </article>
  )
}

export function AccountsPage() {
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
