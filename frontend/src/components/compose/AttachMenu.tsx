import './compose.css'
import {useRef, useState} from 'react'
import {FileUp, Link2, Paperclip} from 'lucide-react'

interface Props {
  onFiles: (files: File[]) => void
  /** Opens the resource picker; absent when no connector of the chat offers resources. */
  onResources?: () => void
  disabled?: boolean
}

/** The paperclip: a file from the disk (images, PDFs, text files), or a connector's resource. */
export function AttachMenu({onFiles, onResources, disabled}: Props) {
  const [open, setOpen] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  return (
    <div className="compose-attach">
      <button
        type="button"
        className="compose-attach-btn"
        data-testid="attach"
        aria-label="Attach"
        aria-haspopup="menu"
        aria-expanded={open}
        title="Attach files or resources"
        disabled={disabled}
        onClick={() => setOpen(!open)}
      >
        <Paperclip size={16} aria-hidden="true" />
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        data-testid="attach-input"
        accept="image/*,application/pdf,text/*,.md,.json,.yaml,.yml,.toml,.csv,.ts,.tsx,.go,.py,.rs,.sh,.sql"
        onChange={(e) => {
          const files = Array.from(e.target.files ?? [])
          e.target.value = ''
          if (files.length) onFiles(files)
        }}
      />
      {open && (
        <div className="compose-attach-menu" role="menu" onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
          <button
            type="button"
            role="menuitem"
            data-testid="attach-file"
            onClick={() => {
              setOpen(false)
              input.current?.click()
            }}
          >
            <FileUp size={14} aria-hidden="true" /> Upload a file…
          </button>
          <button
            type="button"
            role="menuitem"
            data-testid="attach-resource"
            disabled={!onResources}
            title={onResources ? undefined : 'No connector turned on in this chat offers resources'}
            onClick={() => {
              setOpen(false)
              onResources?.()
            }}
          >
            <Link2 size={14} aria-hidden="true" /> Attach a resource…
          </button>
        </div>
      )}
    </div>
  )
}

/** The files of a drop or a paste (none when it carries only text). */
export function filesOf(data: DataTransfer | null): File[] {
  if (!data) return []
  return Array.from(data.files ?? [])
}
