import './compose.css'
import {useState} from 'react'
import {ChevronDown} from 'lucide-react'
import type {Offering} from './types'
import {errorText} from './types'

interface Props {
  /** Reads what the connector offers (prompts, templates, resources). */
  load: () => Promise<Offering>
  /** Tools the connector gives, as the card counts them. */
  tools?: number
}

/**
 * A connector's prompts and resources next to its tools, on the connectors
 * page: read when the user opens it, so the page does not ask every server
 * at once.
 */
export function ConnectorOffering({load, tools}: Props) {
  const [open, setOpen] = useState(false)
  const [state, setState] = useState<{offering?: Offering; error?: string; loading?: boolean}>({})
  async function toggle() {
    const next = !open
    setOpen(next)
    if (next && !state.offering && !state.loading) {
      setState({loading: true})
      try {
        setState({offering: await load()})
      } catch (e) {
        setState({error: errorText(e)})
      }
    }
  }
  const o = state.offering
  return (
    <div className="connector-offering" data-testid="connector-offering">
      <button type="button" className="link-btn connector-stderr-toggle" aria-expanded={open} data-testid="offering-toggle" onClick={() => void toggle()}>
        <ChevronDown size={12} aria-hidden="true" />
        {open ? 'Hide what it offers' : 'Tools, prompts and resources'}
      </button>
      {open && state.loading && <p className="compose-menu-note">Asking the server…</p>}
      {open && state.error && (
        <p className="compose-form-error" role="alert" data-testid="offering-error">
          {state.error}
        </p>
      )}
      {open && o && (
        <div className="offering-body">
          <p className="offering-counts" data-testid="offering-counts">
            {tools !== undefined && `${tools} ${tools === 1 ? 'tool' : 'tools'} · `}
            {o.prompts.length} {o.prompts.length === 1 ? 'prompt' : 'prompts'} · {o.resources.length}
            {o.moreResources ? '+' : ''} {o.resources.length === 1 && !o.moreResources ? 'resource' : 'resources'} · {o.templates.length}{' '}
            {o.templates.length === 1 ? 'template' : 'templates'}
          </p>
          {o.prompts.length > 0 && (
            <section aria-label="Prompts">
              <h3 className="offering-head">Prompts</h3>
              <ul className="offering-list" data-testid="offering-prompts">
                {o.prompts.map((p) => (
                  <li key={p.name}>
                    <span className="compose-menu-name">/{p.name}</span>
                    {p.arguments && p.arguments.length > 0 && (
                      <span className="compose-picker-mime"> ({p.arguments.map((a) => (a.required ? a.name : `${a.name}?`)).join(', ')})</span>
                    )}
                    {p.description && <span className="compose-menu-desc"> {p.description}</span>}
                  </li>
                ))}
              </ul>
            </section>
          )}
          {(o.resources.length > 0 || o.templates.length > 0) && (
            <section aria-label="Resources">
              <h3 className="offering-head">Resources</h3>
              <ul className="offering-list" data-testid="offering-resources">
                {o.templates.map((t) => (
                  <li key={`t:${t.uriTemplate}`}>
                    {t.title || t.name} <code className="compose-picker-uri">{t.uriTemplate}</code>
                  </li>
                ))}
                {o.resources.map((r) => (
                  <li key={r.uri}>
                    {r.title || r.name} <code className="compose-picker-uri">{r.uri}</code>
                  </li>
                ))}
              </ul>
              {o.moreResources && <p className="compose-menu-note">More in the resource picker of a chat.</p>}
            </section>
          )}
          {o.errors?.map((e) => (
            <p key={e} className="compose-form-error" role="alert">
              {e}
            </p>
          ))}
        </div>
      )}
    </div>
  )
}
