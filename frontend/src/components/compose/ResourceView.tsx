import './compose.css'
import {useKept} from '../../lib/useKept'
import {Download, FileText, Link2} from 'lucide-react'
import {formatBytes} from '../../lib/size'
import {Markdown} from '../chat/Markdown'
import {errorText} from './types'

/** A resource's content as read (chat.ResourcePart: text, or base64 bytes of mimeType). */
export interface ResourceContent {
  uri: string
  name?: string
  title?: string
  mimeType?: string
  text?: string
  data?: string
  size?: number
  truncated?: boolean
}

/** A safe MIME type for a data: URL, or octet-stream. */
function safeType(mime?: string): string {
  return mime && /^[\w.+-]+\/[\w.+-]+$/.test(mime) ? mime : 'application/octet-stream'
}

function isMarkdown(mime?: string): boolean {
  return !!mime && /^text\/(markdown|x-markdown)\b/.test(mime)
}

/** The file name a download of the resource gets. */
export function downloadName(r: ResourceContent): string {
  const last = r.uri.split(/[?#]/)[0].split('/').filter(Boolean).pop() ?? ''
  return r.name || last || 'resource'
}

/**
 * A resource's content, by its MIME type: Markdown rendered, other text as
 * it is, images shown, any other bytes as a download. Nothing of it runs:
 * SVG and HTML are text or a download, never a document.
 */
export function ResourceBody({r}: {r: ResourceContent}) {
  const mime = r.mimeType?.toLowerCase()
  if (r.text !== undefined && r.text !== '') {
    return (
      <div className="resource-body" data-testid="resource-body" data-mime={mime}>
        {isMarkdown(mime) ? <Markdown text={r.text} /> : <pre className="resource-text">{r.text}</pre>}
        {r.truncated && (
          <p className="resource-note" data-testid="resource-truncated">
            Cut to what a message carries{r.size ? ` (the resource is ${formatBytes(r.size)})` : ''}.
          </p>
        )}
      </div>
    )
  }
  if (r.data) {
    const type = safeType(mime)
    const src = `data:${type};base64,${r.data}`
    if (type.startsWith('image/') && type !== 'image/svg+xml') {
      return (
        <figure className="resource-body tool-image" data-testid="resource-body" data-mime={mime}>
          <img src={src} alt={r.title || r.name || r.uri} data-testid="resource-image" />
        </figure>
      )
    }
    return (
      <div className="resource-body" data-testid="resource-body" data-mime={mime}>
        <a className="btn btn-secondary resource-download" href={src} download={downloadName(r)} data-testid="resource-download">
          <Download size={14} aria-hidden="true" /> Download {downloadName(r)}
          {r.size ? ` (${formatBytes(r.size)})` : ''}
        </a>
      </div>
    )
  }
  return (
    <p className="resource-note" data-testid="resource-body">
      The resource is empty.
    </p>
  )
}

/** An embedded resource in a tool result or a message: its name and URI over its content. */
export function EmbeddedResource({r}: {r: ResourceContent}) {
  return (
    <div className="resource-card" data-testid="embedded-resource">
      <div className="resource-head">
        <FileText size={14} aria-hidden="true" />
        <span className="resource-name">{r.title || r.name || r.uri}</span>
        {(r.title || r.name) && <code className="resource-uri">{r.uri}</code>}
        {r.mimeType && <span className="resource-mime">{r.mimeType}</span>}
      </div>
      <ResourceBody r={r} />
    </div>
  )
}

interface LinkProps {
  uri: string
  name?: string
  description?: string
  mimeType?: string
  /** Reads the resource (resources/read on the connector that returned the link). */
  read: () => Promise<ResourceContent[]>
  /** Keeps the link's state (opened, what was read) when its row is drawn again; none keeps nothing. */
  keepKey?: string
}

/**
 * A resource_link of a tool result: a link that, on click, reads the
 * resource and shows it inline under the link; a second click hides it.
 * A failed read shows the server's message.
 */
export function ResourceLink({uri, name, description, mimeType, read, keepKey}: LinkProps) {
  const [state, setState] = useKept<{loading: boolean; contents?: ResourceContent[]; error?: string; open: boolean}>(keepKey, {
    loading: false,
    open: false,
  })
  async function toggle() {
    if (state.contents || state.error) {
      setState((s) => ({...s, open: !s.open}))
      return
    }
    setState({loading: true, open: true})
    try {
      setState({loading: false, open: true, contents: await read()})
    } catch (e) {
      setState({loading: false, open: true, error: errorText(e)})
    }
  }
  return (
    <div className="resource-card" data-testid="resource-link" data-uri={uri}>
      <button type="button" className="resource-link-btn" aria-expanded={state.open} data-testid="resource-link-open" onClick={() => void toggle()}>
        <Link2 size={14} aria-hidden="true" />
        <span className="resource-name">{name || uri}</span>
        {name && <code className="resource-uri">{uri}</code>}
        {mimeType && <span className="resource-mime">{mimeType}</span>}
        <span className="resource-action">{state.loading ? 'Reading…' : state.open ? 'Hide' : 'Open'}</span>
      </button>
      {description && !state.open && <p className="resource-desc">{description}</p>}
      {state.open && state.error && (
        <p className="compose-form-error" role="alert" data-testid="resource-link-error">
          {state.error}
        </p>
      )}
      {state.open && state.contents && state.contents.map((c, i) => <ResourceBody key={i} r={c} />)}
    </div>
  )
}
