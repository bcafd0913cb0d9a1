import {useEffect} from 'react'
import {Wrench} from 'lucide-react'
import {useTools} from '../../stores/tools'
import {ToolsPanel} from './ToolsPanel'
import './tools-panel.css'

/** The chat header's Tools button: opens the session's Tools panel. */
export function ToolsButton({sessionId}: {sessionId: string}) {
  const openFor = useTools((s) => s.openFor)
  const enabled = useTools((s) =>
    s.data?.sessionId === sessionId
      ? s.data.connectors.reduce((n, c) => n + (c.enabledInSession && c.available ? c.tools.filter((t) => t.enabled).length : 0), 0)
      : null,
  )
  const open = openFor !== null

  // The count follows the chat on screen, and so does an open panel.
  useEffect(() => {
    useTools.getState().show(sessionId)
    return () => useTools.getState().show(null)
  }, [sessionId])
  useEffect(() => {
    const {openFor: current, open: openPanel} = useTools.getState()
    if (current !== null && current !== sessionId) openPanel(sessionId)
  }, [sessionId])

  return (
    <>
      <button
        type="button"
        className="pill tools-trigger"
        data-testid="tools-button"
        aria-expanded={open}
        aria-haspopup="dialog"
        title="Choose the tools this chat can use"
        onClick={() => (open ? useTools.getState().close() : useTools.getState().open(sessionId))}
      >
        <Wrench size={14} aria-hidden="true" />
        <span>Tools</span>
        {enabled !== null && enabled > 0 && (
          <span className="tools-trigger-count" data-testid="tools-button-count">
            {enabled}
          </span>
        )}
      </button>
      {open && <ToolsPanel sessionId={sessionId} />}
    </>
  )
}
