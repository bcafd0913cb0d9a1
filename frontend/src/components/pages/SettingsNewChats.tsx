import './SettingsNewChats.css'
import {useEffect} from 'react'
import {useConnectors} from '../../stores/connectors'
import {Switch} from '../tools/Switch'

/**
 * The connectors a new chat starts with: one switch per connector
 * (Connector.newChats, also set in the connector's form). A chat made
 * earlier keeps its own; each chat switches them in its Tools panel.
 */
export function NewChatsConnectorsValue() {
  const loaded = useConnectors((s) => s.loaded)
  const connectors = useConnectors((s) => s.connectors)
  useEffect(() => {
    if (!loaded) void useConnectors.getState().load()
  }, [loaded])
  if (!loaded) return <span className="muted">Loading…</span>
  if (connectors.length === 0) {
    return (
      <span className="muted" data-testid="settings-new-chats-empty">
        No connectors yet: add one on the Connectors page.
      </span>
    )
  }
  return (
    <ul className="settings-new-chats" data-testid="settings-new-chats">
      {connectors.map((c) => (
        <li key={c.id} className="settings-new-chats-row">
          <span className="settings-new-chats-name">
            {c.name}
            {!c.enabled && <span className="muted"> (off everywhere)</span>}
          </span>
          <Switch
            checked={c.newChats}
            onChange={(on) => void useConnectors.getState().setNewChats(c.id, on)}
            label={`Turn ${c.name} on in new chats`}
            size="sm"
            testId="settings-new-chats-switch"
            data={{'connector-id': c.id}}
          />
        </li>
      ))}
    </ul>
  )
}
