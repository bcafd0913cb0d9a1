import {isModernProtocol} from '../../lib/trust'

/**
 * The MCP protocol revision a connector negotiated (ConnectorStatus.Protocol):
 * 2026-07-28 and later are the stateless era (server/discover), older ones
 * were negotiated with initialize. Nothing when none was negotiated yet.
 */
export function ProtocolBadge({version, pinned}: {version?: string; pinned?: string}) {
  if (!version) return null
  const modern = isModernProtocol(version)
  const how = modern ? 'stateless (server/discover)' : 'initialize'
  const pin = pinned && pinned !== 'auto' ? ` · pinned to ${pinned} in the connector’s settings` : ''
  return (
    <span
      className={`badge protocol-badge${modern ? ' is-modern' : ''}`}
      data-testid="connector-protocol"
      data-protocol={version}
      title={`MCP protocol ${version}, negotiated with ${how}${pin}`}
    >
      MCP {version}
    </span>
  )
}
