import './compose.css'
import {FileText, Image as ImageIcon, Link2, RefreshCw, X} from 'lucide-react'
import {formatBytes} from '../../lib/size'
import {dataURL, drawnImage} from './attachFiles'
import {attachmentLabel, type DraftAttachment} from './types'

interface Props {
  attachments: DraftAttachment[]
  onRemove: (i: number) => void
  /** Reads an updated resource again (its chip shows "updated"). */
  onRefresh?: (i: number) => void
  /** Why the draft cannot be sent as it is (a file too big or of a type the model does not take). */
  refusals?: string[]
}

function isImage(mime?: string): boolean {
  return !!mime && mime.startsWith('image/')
}

/**
 * The chips of what the draft carries besides text: files (images with a
 * thumbnail) and resources (name, server, an "updated" badge with a
 * refresh when the server says the resource changed). Refusals are shown
 * under them, before anything is sent.
 */
export function AttachmentChips({attachments, onRemove, onRefresh, refusals = []}: Props) {
  if (attachments.length === 0 && refusals.length === 0) return null
  return (
    <div className="compose-chips" data-testid="attachment-chips">
      {attachments.length > 0 && (
        <ul className="compose-chip-list" aria-label="Attachments">
          {attachments.map((a, i) => {
            const label = attachmentLabel(a)
            const data = a.data
            const size = a.size
            return (
              <li
                key={`${a.type}:${a.type === 'file' ? a.name : a.uri}:${i}`}
                className={`compose-chip${a.type === 'resource' && a.updated ? ' is-updated' : ''}`}
                data-testid="attachment-chip"
                data-kind={a.type}
                title={a.type === 'resource' ? a.uri : a.name}
              >
                {drawnImage(a.mimeType) && data ? (
                  <img className="compose-chip-thumb" src={dataURL(a.mimeType!, data)} alt="" />
                ) : a.type === 'resource' ? (
                  <Link2 size={14} aria-hidden="true" />
                ) : isImage(a.mimeType) ? (
                  <ImageIcon size={14} aria-hidden="true" />
                ) : (
                  <FileText size={14} aria-hidden="true" />
                )}
                <span className="compose-chip-name">{label}</span>
                <span className="compose-chip-meta">
                  {a.type === 'resource' ? a.server : ''}
                  {a.type === 'resource' && size ? ' · ' : ''}
                  {size ? formatBytes(size) : ''}
                  {a.type === 'resource' && a.truncated ? ' · cut' : ''}
                </span>
                {a.type === 'resource' && a.updated && (
                  <>
                    <span className="compose-chip-badge" data-testid="chip-updated">
                      updated
                    </span>
                    {onRefresh && (
                      <button
                        type="button"
                        className="compose-chip-btn"
                        data-testid="chip-refresh"
                        aria-label={`Read ${label} again`}
                        title="Read it again into this message"
                        onClick={() => onRefresh(i)}
                      >
                        <RefreshCw size={12} aria-hidden="true" />
                      </button>
                    )}
                  </>
                )}
                <button
                  type="button"
                  className="compose-chip-btn"
                  data-testid="chip-remove"
                  aria-label={`Remove ${label}`}
                  onClick={() => onRemove(i)}
                >
                  <X size={12} aria-hidden="true" />
                </button>
              </li>
            )
          })}
        </ul>
      )}
      {refusals.map((r) => (
        <p key={r} className="compose-refusal" role="alert" data-testid="attachment-refusal">
          {r}
        </p>
      ))}
    </div>
  )
}
