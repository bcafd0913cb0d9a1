import './compose.css'
import {useEffect, useMemo, useState} from 'react'
import {CompletingField} from './CompletingField'
import type {CompleteFn, Resource, ResourcePage, ResourceSource, ResourceTemplate} from './types'
import {errorText} from './types'

interface Props {
  /** The chat's connectors whose servers offer resources. */
  sources: ResourceSource[]
  /** One page of a connector's resources (resources/list); "" is the first. */
  listPage: (connectorId: string, cursor: string) => Promise<ResourcePage>
  /** The chat's resource templates. */
  templates: ResourceTemplate[]
  /** Completions for a template's variable. */
  completeVariable?: (t: ResourceTemplate) => CompleteFn | undefined
  /** Reads and attaches a listed resource; a rejection's message is shown. */
  onPick: (r: Resource) => Promise<void>
  /** Fills a template, reads and attaches the resource; a rejection's message is shown. */
  onPickTemplate: (t: ResourceTemplate, values: Record<string, string>) => Promise<void>
  onClose: () => void
  /** What was typed after "@", as the first search. */
  initialQuery?: string
}

interface Listing {
  items: Resource[]
  cursor: string
  loading: boolean
  error: string
}

const emptyListing: Listing = {items: [], cursor: '', loading: false, error: ''}

/**
 * What a resource read from a template is called on its chip: the
 * template's title with the values that made it ("Dynamic Text Resource
 * (resourceId: 3)"), so two read from one template are told apart.
 */
export function templateLabel(t: Pick<ResourceTemplate, 'name' | 'title'>, values: Record<string, string>): string {
  const filled = Object.entries(values)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')
  const base = t.title || t.name
  return filled ? `${base} (${filled})` : base
}

/** Whether a resource's name, title or URI contains every word of the query. */
export function matchesResource(r: Resource, query: string): boolean {
  const hay = `${r.name} ${r.title ?? ''} ${r.uri}`.toLowerCase()
  return query.toLowerCase().split(/\s+/).filter(Boolean).every((w) => hay.includes(w))
}

/**
 * The resource picker (paperclip menu and "@"): a tab per connector to
 * browse its resources a page at a time (the server's cursors; "More"
 * asks for the next), a search by name over what is loaded, and the
 * connector's templates, filled with the server's completions for their
 * variables.
 */
export function ResourcePicker({sources, listPage, templates, completeVariable, onPick, onPickTemplate, onClose, initialQuery = ''}: Props) {
  const [chosen, setConnector] = useState('')
  // The sources may arrive after the picker opens: the first is the default.
  const connector = sources.some((s) => s.connectorId === chosen) ? chosen : (sources[0]?.connectorId ?? '')
  const [query, setQuery] = useState(initialQuery)
  const [listings, setListings] = useState<Record<string, Listing>>({})
  const [template, setTemplate] = useState<ResourceTemplate | null>(null)
  const [values, setValues] = useState<Record<string, string>>({})
  const [busy, setBusy] = useState('')
  const [error, setError] = useState('')
  const listing = listings[connector] ?? emptyListing

  async function load(id: string, cursor: string) {
    setListings((s) => ({...s, [id]: {...(s[id] ?? emptyListing), loading: true, error: ''}}))
    try {
      const page = await listPage(id, cursor)
      setListings((s) => {
        const prev = s[id] ?? emptyListing
        return {...s, [id]: {items: [...(cursor ? prev.items : []), ...page.resources], cursor: page.nextCursor ?? '', loading: false, error: ''}}
      })
    } catch (e) {
      setListings((s) => ({...s, [id]: {...(s[id] ?? emptyListing), loading: false, error: errorText(e)}}))
    }
  }

  useEffect(() => {
    if (connector && !listings[connector]) void load(connector, '')
  }, [connector])

  const shown = useMemo(() => listing.items.filter((r) => matchesResource(r, query)), [listing.items, query])
  const connectorTemplates = templates.filter(
    (t) => t.connectorId === connector && `${t.name} ${t.title ?? ''} ${t.uriTemplate}`.toLowerCase().includes(query.toLowerCase().trim()),
  )

  async function run(key: string, fn: () => Promise<void>) {
    setBusy(key)
    setError('')
    try {
      await fn()
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy('')
    }
  }

  const missing = template ? template.variables.filter((v) => !(values[v] ?? '').trim()) : []

  return (
    <div
      className="compose-picker"
      data-testid="resource-picker"
      role="dialog"
      aria-label="Attach a resource"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault()
          onClose()
        }
      }}
    >
      <header className="compose-picker-head">
        <span className="compose-picker-title">Attach a resource</span>
        <button type="button" className="link-btn" onClick={onClose} data-testid="picker-close">
          Close
        </button>
      </header>
      {sources.length === 0 ? (
        <p className="compose-menu-empty" data-testid="picker-empty">
          No connector turned on in this chat offers resources.
        </p>
      ) : (
        <>
          <div className="compose-picker-tabs" role="tablist" aria-label="Connectors">
            {sources.map((s) => (
              <button
                key={s.connectorId}
                type="button"
                role="tab"
                aria-selected={s.connectorId === connector}
                className={`compose-tab${s.connectorId === connector ? ' is-on' : ''}`}
                data-testid="picker-source"
                onClick={() => {
                  setConnector(s.connectorId)
                  setTemplate(null)
                }}
              >
                {s.server}
              </button>
            ))}
          </div>
          {template ? (
            // A div, not a nested <form> inside the composer's (see PromptForm).
            <div
              role="form"
              className="compose-form"
              data-testid="template-form"
              onKeyDown={(e) => {
                if (e.key !== 'Enter' || e.shiftKey || (e.target as HTMLElement).tagName !== 'INPUT') return
                e.preventDefault()
                e.stopPropagation()
                if (missing.length === 0) void run('template', () => onPickTemplate(template, values))
              }}
            >
              <header className="compose-form-head">
                <span className="compose-menu-name">{template.title || template.name}</span>
                <code className="compose-picker-uri">{template.uriTemplate}</code>
              </header>
              {template.variables.map((v, i) => (
                <CompletingField
                  key={v}
                  id={`template-var-${v}`}
                  name={v}
                  label={v}
                  required
                  value={values[v] ?? ''}
                  onChange={(x) => setValues((s) => ({...s, [v]: x}))}
                  complete={completeVariable?.(template)}
                  context={Object.fromEntries(Object.entries(values).filter(([k, x]) => k !== v && x !== ''))}
                  autoFocus={i === 0}
                />
              ))}
              <div className="compose-form-actions">
                <button type="button" className="btn btn-secondary" onClick={() => setTemplate(null)}>
                  Back
                </button>
                <button
                  type="button"
                  className="btn btn-primary"
                  data-testid="template-attach"
                  disabled={missing.length > 0 || !!busy}
                  onClick={() => void run('template', () => onPickTemplate(template, values))}
                >
                  {busy ? 'Reading…' : 'Attach'}
                </button>
              </div>
            </div>
          ) : (
            <>
              <input
                className="input compose-picker-search"
                data-testid="picker-search"
                aria-label="Search resources by name"
                placeholder="Search by name or URI"
                value={query}
                autoFocus
                onChange={(e) => setQuery(e.target.value)}
              />
              <ul className="compose-picker-list" aria-label="Resources" data-testid="picker-list">
                {connectorTemplates.map((t) => (
                  <li key={`t:${t.uriTemplate}`}>
                    <button
                      type="button"
                      className="compose-picker-item is-template"
                      data-testid="picker-template"
                      onClick={() => {
                        setTemplate(t)
                        setValues({})
                        setError('')
                      }}
                    >
                      <span className="compose-picker-name">{t.title || t.name}</span>
                      <code className="compose-picker-uri">{t.uriTemplate}</code>
                    </button>
                  </li>
                ))}
                {shown.map((r) => (
                  <li key={r.uri}>
                    <button
                      type="button"
                      className="compose-picker-item"
                      data-testid="picker-resource"
                      data-uri={r.uri}
                      disabled={!!busy}
                      onClick={() => void run(r.uri, () => onPick(r))}
                    >
                      <span className="compose-picker-name">{r.title || r.name}</span>
                      <code className="compose-picker-uri">{r.uri}</code>
                      {r.mimeType && <span className="compose-picker-mime">{r.mimeType}</span>}
                      {busy === r.uri && <span className="compose-picker-mime">Reading…</span>}
                    </button>
                  </li>
                ))}
              </ul>
              {listing.loading && <p className="compose-menu-note">Listing…</p>}
              {!listing.loading && shown.length === 0 && connectorTemplates.length === 0 && !listing.error && (
                <p className="compose-menu-empty" data-testid="picker-none">
                  {query ? `Nothing loaded matches “${query}”.` : 'This connector lists no resources.'}
                </p>
              )}
              {listing.cursor && !listing.loading && (
                <button type="button" className="link-btn" data-testid="picker-more" onClick={() => void load(connector, listing.cursor)}>
                  More resources
                </button>
              )}
              {listing.error && (
                <p className="compose-form-error" role="alert" data-testid="picker-list-error">
                  {listing.error}
                </p>
              )}
            </>
          )}
          {error && (
            <p className="compose-form-error" role="alert" data-testid="picker-error">
              {error}
            </p>
          )}
        </>
      )}
    </div>
  )
}
