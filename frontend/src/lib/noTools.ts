// A chat with no tools on while connectors could give it some: the composer
// says so, with one click to switch those connectors on.

import type {SessionConnector, SessionTools} from '../api/connectors'

/** The connectors a chat could switch on, when it has no tool on at all; [] otherwise. */
export function switchableConnectors(data: SessionTools | null, sessionId: string): SessionConnector[] {
  if (!data || data.sessionId !== sessionId) return []
  const on = data.connectors.some((c) => c.enabledInSession && c.available && c.tools.some((t) => t.enabled))
  if (on) return []
  return data.connectors.filter((c) => c.available && !c.enabledInSession && c.state === 'ready' && c.toolCount > 0)
}
