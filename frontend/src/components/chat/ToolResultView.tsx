import {useState} from 'react'
import {CircleAlert, FileText, Music} from 'lucide-react'
import type {Attachment, ToolResult} from '../../api/types'
import {isEmptyJson} from '../../lib/json'
import {formatBytes} from '../../lib/size'
import {ToolResourceAttachment} from '../compose/toolResources'
import {attachmentSrc} from '../../lib/toolCards'
import {JsonBlock} from './ToolParts'
import {ToolSection} from './ToolSection'
import {ValueView} from './ValueView'

function AttachmentView({a, tool}: {a: Attachment; tool?: string}) {
  if ((a.type === 'resource_link' || a.type === 'resource') && a.uri) return <ToolResourceAttachment a={a} tool={tool} />
  const src = attachmentSrc(a)
  if (a.type === 'image' && src) {
    return (
      <figure className="tool-image">
        <img src={src} alt={a.name || 'Image from the tool'} data-testid="tool-image" />
        {(a.name || a.text) && (
          <figcaption>
            {a.name}
            {a.text && <span className="tool-attachment-note" data-testid="tool-attachment-note">{a.text}</span>}
          </figcaption>
        )}
      </figure>
    )
  }
  if (a.type === 'audio' && src) {
    return (
      <div className="tool-attachment">
        <Music size={14} aria-hidden="true" />
        <audio controls src={src} aria-label={a.name || 'Audio from the tool'} />
      </div>
    )
  }
  return (
    <div className="tool-attachment">
      <FileText size={14} aria-hidden="true" />
      <div className="tool-attachment-body">
        <span className="tool-attachment-name">{a.name || a.uri || a.mimeType || a.type}</span>
        {a.uri && a.name && <span className="tool-attachment-uri">{a.uri}</span>}
        {a.text && (
          <pre className="tool-attachment-text" data-testid={a.data ? undefined : 'tool-attachment-note'}>
            {a.text}
          </pre>
        )}
      </div>
    </div>
  )
}

/** A tool's result envelope: data, error, attachments, and the raw result on demand. */
export function ToolResultView({result, tool}: {result: ToolResult; tool?: string}) {
  const [raw, setRaw] = useState(false)
  const hasData = !isEmptyJson(result.data)
  const attachments = result.attachments ?? []
  const extra = (
    <>
      {result.truncated && (
        <span
          className="tool-note"
          data-testid="tool-truncated"
          title={`The result${result.size ? ` was ${formatBytes(result.size)}: it` : ''} was too large to keep whole. The model got its first 32 KB, and Maestro kept a shortened copy for you.`}
        >
          {result.size ? `truncated, ${formatBytes(result.size)}` : 'truncated'}
        </span>
      )}
      {result.raw && (
        <button
          type="button"
          className={`tool-chip-btn${raw ? ' is-on' : ''}`}
          aria-pressed={raw}
          data-testid="tool-raw-toggle"
          onClick={() => setRaw(!raw)}
        >
          Raw result
        </button>
      )}
    </>
  )
  return (
    <div className="tool-result" data-testid="tool-result" data-successful={result.successful}>
      <ToolSection label="Result" open extra={extra}>
        {raw && result.raw ? (
          <JsonBlock text={result.raw} testId="tool-raw" />
        ) : (
          <>
            {result.error && (
              <div className="tool-error" data-testid="tool-error" role="alert">
                <CircleAlert size={14} aria-hidden="true" />
                <span>{result.error}</span>
              </div>
            )}
            {hasData && <ValueView text={result.data!} testId="tool-data" />}
            {attachments.length > 0 && (
              <div className="tool-attachments">
                {attachments.map((a, i) => (
                  <AttachmentView key={i} a={a} tool={tool} />
                ))}
              </div>
            )}
            {!result.error && !hasData && attachments.length === 0 && (
              <p className="tool-empty">The tool returned nothing.</p>
            )}
          </>
        )}
      </ToolSection>
    </div>
  )
}
