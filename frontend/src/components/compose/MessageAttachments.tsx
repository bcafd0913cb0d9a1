import './compose.css'
import {FileText, Link2} from 'lucide-react'
import type {Part} from '../../api/types'
import {formatBytes} from '../../lib/size'
import {dataURL} from './attachFiles'
import {SentResourceUpdate} from './sentResources'

type Wire = Part & {uri?: string; connectorId?: string; title?: string; server?: string; data?: string; size?: number}

/**
 * What a sent user message carried besides text: its files (images shown
 * when the page holds their bytes) and resources by name, server and URI,
 * as export and search show them (never a resource's body here).
 */
export function MessageAttachments({parts}: {parts: Part[]}) {
  const items = (parts as Wire[]).filter((p) => p.type === 'file' || p.type === 'resource')
  if (items.length === 0) return null
  return (
    <ul className="compose-chip-list message-attachments" aria-label="Attachments" data-testid="message-attachments">
      {items.map((p, i) => {
        const image = p.type === 'file' && p.mimeType?.startsWith('image/') && p.data
        const label = p.type === 'resource' ? p.title || p.name || p.uri || 'resource' : p.name || 'file'
        return (
          <li key={i} className={`compose-chip${image ? ' is-image' : ''}`} data-testid="message-attachment" data-kind={p.type} title={p.uri ?? p.name}>
            {image ? (
              <img className="message-attachment-image" src={dataURL(p.mimeType!, p.data!)} alt={label} />
            ) : p.type === 'resource' ? (
              <Link2 size={14} aria-hidden="true" />
            ) : (
              <FileText size={14} aria-hidden="true" />
            )}
            {!image && <span className="compose-chip-name">{label}</span>}
            {!image && (
              <span className="compose-chip-meta">
                {p.type === 'resource' && p.server ? p.server : ''}
                {p.type === 'resource' && p.server && p.size ? ' · ' : ''}
                {p.size ? formatBytes(p.size) : ''}
              </span>
            )}
            {p.type === 'resource' && p.connectorId && p.uri && <SentResourceUpdate connectorId={p.connectorId} uri={p.uri} label={label} />}
          </li>
        )
      })}
    </ul>
  )
}
