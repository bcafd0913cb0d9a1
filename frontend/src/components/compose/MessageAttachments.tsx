import './compose.css'
import './messageFiles.css'
import {useEffect, useState} from 'react'
import {Download, FileText, ImageOff, Link2} from 'lucide-react'
import {api} from '../../api/client'
import type {Part, StoredFile} from '../../api/types'
import {formatBytes} from '../../lib/size'
import {dataURL, drawnImage} from './attachFiles'
import {ResourceBody} from './ResourceView'
import {SentResourceUpdate} from './sentResources'
import {decodeText, isTextType, readStoredFile} from './storedFiles'

type Wire = Part & {data?: string; connectorId?: string}

function message(e: unknown): string {
  return e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e)
}

/**
 * A part's bytes: inline (a small file) or read from Go by ref when want
 * is set (cached per ref, storedFiles.ts). Nothing is read for a part that
 * has neither.
 */
function useBytes(sessionId: string, p: Wire, want: boolean): {file?: Pick<StoredFile, 'data'>; error?: string} {
  const [state, setState] = useState<{ref: string; file?: StoredFile; error?: string} | null>(null)
  const ref = p.data ? '' : (p.ref ?? '')
  useEffect(() => {
    if (!want || !ref) return
    let live = true
    readStoredFile(sessionId, ref).then(
      (file) => live && setState({ref, file}),
      (e) => live && setState({ref, error: message(e)}),
    )
    return () => {
      live = false
    }
  }, [want, ref, sessionId])
  if (p.data) return {file: {data: p.data}}
  return state?.ref === ref ? {file: state.file, error: state.error} : {}
}

function isImage(p: Wire): boolean {
  const m = p.mimeType?.toLowerCase() ?? ''
  return p.type === 'file' && drawnImage(m) && !!(p.data || p.ref)
}

/** A sent image, inline: its bytes from the page, else read by ref. */
function SentImage({sessionId, p, label}: {sessionId: string; p: Wire; label: string}) {
  const {file, error} = useBytes(sessionId, p, true)
  if (error) {
    return (
      <span className="message-file-missing" data-testid="message-attachment-error" title={error}>
        <ImageOff size={14} aria-hidden="true" /> {label}: {error}
      </span>
    )
  }
  if (!file) return <span className="message-file-loading" role="status" aria-label={`Loading ${label}`} style={{aspectRatio: '4 / 3'}} />
  return <img className="message-attachment-image" data-testid="message-attachment-image" src={dataURL(p.mimeType!, file.data)} alt={label} />
}

/** An opened file: its text shown, or what it is and a way to save it. */
function FilePanel({sessionId, p, label}: {sessionId: string; p: Wire; label: string}) {
  const text = isTextType(p.mimeType)
  const {file, error} = useBytes(sessionId, p, text)
  const [saved, setSaved] = useState<{path?: string; error?: string} | null>(null)
  async function save() {
    try {
      const path = await api.saveStoredFile(sessionId, p.ref!, label)
      setSaved(path ? {path} : null)
    } catch (e) {
      setSaved({error: message(e)})
    }
  }
  return (
    <div className="resource-card message-file-panel" data-testid="message-attachment-panel">
      <div className="resource-head">
        <FileText size={14} aria-hidden="true" />
        <span className="resource-name">{label}</span>
        {p.mimeType && <span className="resource-mime">{p.mimeType}</span>}
        {p.size ? <span className="resource-mime">{formatBytes(p.size)}</span> : null}
        {p.ref && (
          <button type="button" className="btn btn-secondary message-file-save" data-testid="message-attachment-save" onClick={() => void save()}>
            <Download size={14} aria-hidden="true" /> Save a copy…
          </button>
        )}
      </div>
      {error && (
        <p className="compose-form-error" role="alert" data-testid="message-attachment-error">
          {error}
        </p>
      )}
      {text && !error && !file && <p className="resource-note">Reading…</p>}
      {text && file && <ResourceBody r={{uri: label, name: label, mimeType: p.mimeType, text: decodeText(file.data)}} />}
      {!text && !p.ref && p.data && <ResourceBody r={{uri: label, name: label, mimeType: p.mimeType, data: p.data, size: p.size}} />}
      {saved?.path && (
        <p className="resource-note" data-testid="message-attachment-saved">
          Saved to {saved.path}
        </p>
      )}
      {saved?.error && (
        <p className="compose-form-error" role="alert">
          {saved.error}
        </p>
      )}
    </div>
  )
}

/**
 * What a sent user message carried besides text: its images inline (read
 * by ref when the page names them), its other files as chips that open to
 * their text or a Save button, and resources by name, server and URI, as
 * export and search show them (never a resource's body here).
 */
export function MessageAttachments({parts, sessionId}: {parts: Part[]; sessionId: string}) {
  const [open, setOpen] = useState<number | null>(null)
  const items = (parts as Wire[]).filter((p) => p.type === 'file' || p.type === 'resource')
  if (items.length === 0) return null
  const opened = open === null ? undefined : items[open]
  const label = (p: Wire) => (p.type === 'resource' ? p.title || p.name || p.uri || 'resource' : p.name || 'file')
  return (
    <>
      <ul className="compose-chip-list message-attachments" aria-label="Attachments" data-testid="message-attachments">
        {items.map((p, i) => {
          const image = isImage(p)
          const openable = p.type === 'file' && !image && !!(p.ref || p.data)
          const meta = (
            <span className="compose-chip-meta">
              {p.type === 'resource' && p.server ? p.server : ''}
              {p.type === 'resource' && p.server && p.size ? ' · ' : ''}
              {p.size ? formatBytes(p.size) : ''}
            </span>
          )
          return (
            <li key={i} className={`compose-chip${image ? ' is-image' : ''}`} data-testid="message-attachment" data-kind={p.type} title={p.uri ?? p.name}>
              {image ? (
                <SentImage sessionId={sessionId} p={p} label={label(p)} />
              ) : openable ? (
                <button
                  type="button"
                  className="message-file-open"
                  data-testid="message-attachment-open"
                  aria-expanded={open === i}
                  title={open === i ? `Hide ${label(p)}` : `Open ${label(p)}`}
                  onClick={() => setOpen(open === i ? null : i)}
                >
                  <FileText size={14} aria-hidden="true" />
                  <span className="compose-chip-name">{label(p)}</span>
                  {meta}
                </button>
              ) : (
                <>
                  {p.type === 'resource' ? <Link2 size={14} aria-hidden="true" /> : <FileText size={14} aria-hidden="true" />}
                  <span className="compose-chip-name">{label(p)}</span>
                  {meta}
                </>
              )}
              {p.type === 'resource' && p.connectorId && p.uri && <SentResourceUpdate connectorId={p.connectorId} uri={p.uri} label={label(p)} />}
            </li>
          )
        })}
      </ul>
      {opened && <FilePanel key={open} sessionId={sessionId} p={opened} label={label(opened)} />}
    </>
  )
}
