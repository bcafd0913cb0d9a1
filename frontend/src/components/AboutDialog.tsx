import {useRef} from 'react'
import {useAppStore} from '../stores/app'
import {useUI} from '../stores/ui'
import {Modal} from './dialogs/Modal'
import {LogoMark} from './LogoMark'

/** Help → About Maestro: the version, and where the data lives. */
export function AboutDialog() {
  const open = useUI((s) => s.about)
  const status = useAppStore((s) => s.status)
  const close = useRef<HTMLButtonElement>(null)
  if (!open) return null
  const done = () => useUI.getState().setAbout(false)
  return (
    <Modal title="About Maestro" onEscape={done} onEnter={done} initialFocus={close} className="about-dialog" testId="about-dialog">
      <div className="dialog-body about-body">
        <LogoMark size={48} />
        <p data-testid="about-version">Version {status?.version || 'unknown'}</p>
        <p className="muted">Chat with Gemini, Claude and ChatGPT through the MCP tools you switch on, per chat.</p>
        {status?.dataDir && (
          <p className="muted about-data">
            Your chats are kept in <code>{status.dataDir}</code>
          </p>
        )}
      </div>
      <div className="dialog-actions">
        <button ref={close} type="button" className="btn btn-primary" data-testid="about-close" onClick={done}>
          Close
        </button>
      </div>
    </Modal>
  )
}
