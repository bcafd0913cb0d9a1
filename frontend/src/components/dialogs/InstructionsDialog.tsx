import {useRef, useState} from 'react'
import {ScrollText} from 'lucide-react'
import {MAX_INSTRUCTIONS} from '../pages/SettingsPrefs'
import {Modal} from './Modal'

interface Props {
  /** The chat's instructions now (its system prompt). */
  value: string
  /** The default instructions of Settings, offered to start from. */
  defaults: string
  onSave: (text: string) => Promise<unknown>
  onClose: () => void
}

/**
 * A chat's own instructions (sent as its system prompt with every request
 * from the next one on): edited here, started from Settings' default ones
 * when the chat was made.
 */
export function InstructionsDialog({value, defaults, onSave, onClose}: Props) {
  const [text, setText] = useState(value)
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  const areaRef = useRef<HTMLTextAreaElement>(null)
  const over = new TextEncoder().encode(text).length > MAX_INSTRUCTIONS

  async function save() {
    if (over || busy) return
    setBusy(true)
    setError('')
    try {
      await onSave(text.trim())
      onClose()
    } catch (err) {
      setError(err && typeof err === 'object' && 'message' in err ? String(err.message) : String(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Modal
      className="instructions-dialog"
      testId="instructions-dialog"
      initialFocus={areaRef}
      onEscape={onClose}
      title={
        <span className="approval-title">
          <span className="approval-icon" aria-hidden="true">
            <ScrollText size={18} />
          </span>
          <span>Instructions for this chat</span>
        </span>
      }
    >
      <div className="dialog-body">
        <p className="muted">Sent to the model with every request of this chat, from the next one on.</p>
        <textarea
          ref={areaRef}
          className="text-input settings-textarea"
          data-testid="instructions-text"
          aria-label="Instructions for this chat"
          rows={8}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        {over && <p className="field-error">At most 32 KiB.</p>}
        {error && (
          <p className="field-error" role="alert" data-testid="instructions-error">
            {error}
          </p>
        )}
      </div>
      <div className="dialog-actions">
        {defaults && text.trim() !== defaults.trim() && (
          <button type="button" className="btn btn-secondary" data-testid="instructions-defaults" onClick={() => setText(defaults)}>
            Use the default ones
          </button>
        )}
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" data-testid="instructions-save" disabled={over || busy} onClick={() => void save()}>
          Save
        </button>
      </div>
    </Modal>
  )
}
