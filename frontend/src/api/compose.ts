// The composer's prompts, resources and attachments (components/compose):
// the bound methods behind ComposeApi, and the events that say a
// connector's prompts or resources changed.

import type {ComposeApi} from '../components/compose/composeApi'
import type {DraftAttachment} from '../components/compose/types'
import {call, go} from './client'
import {EventPromptsChanged, EventResourcesChanged, EventResourceUpdated, type ResourceUpdatedDTO} from './contract.gen'
import {on} from './events'

export const composeApi: ComposeApi = {
  offers: (sessionId) => call(() => go().Connectors.Offers(sessionId)),
  prompts: (sessionId) => call(() => go().Connectors.Prompts(sessionId)),
  getPrompt: (sessionId, connectorId, name, args) => call(() => go().Connectors.GetPrompt(sessionId, connectorId, name, args)),
  complete: (sessionId, connectorId, ref, argument, value, context) =>
    call(() => go().Connectors.Complete(sessionId, connectorId, ref, argument, value, context)),
  resources: (sessionId, connectorId, cursor) => call(() => go().Connectors.Resources(sessionId, connectorId, cursor)),
  templates: (sessionId) => call(() => go().Connectors.ResourceTemplates(sessionId)),
  readResource: (sessionId, connectorId, uri) => call(() => go().Connectors.ReadResource(sessionId, connectorId, uri)),
  readTemplate: (sessionId, connectorId, uriTemplate, values) =>
    call(() => go().Connectors.ReadTemplate(sessionId, connectorId, uriTemplate, values)),
  subscribe: (sessionId, connectorId, uri) => call(() => go().Connectors.SubscribeResource(sessionId, connectorId, uri)),
  checkAttachments: (sessionId, attachments: DraftAttachment[]) => call(() => go().Chat.CheckAttachments(sessionId, attachments)),
}

/** Reads a resource a tool's result linked to, in a chat. */
export const readToolResource = (sessionId: string, tool: string, uri: string) =>
  call(() => go().Connectors.ReadToolResource(sessionId, tool, uri))

/** What a connector offers besides tools, for the connectors page. */
export const connectorOffering = (connectorId: string) => call(() => go().Connectors.Offering(connectorId))

/** Subscribes to prompts:changed and resources:changed; returns the unsubscribe function. */
export function onOfferChanged(cb: (connectorId: string) => void): () => void {
  const a = on(EventPromptsChanged, (p) => p && cb(p.connectorId))
  const b = on(EventResourcesChanged, (p) => p && cb(p.connectorId))
  return () => {
    a()
    b()
  }
}

/** Subscribes to resource:updated; returns the unsubscribe function. */
export function onResourceUpdated(cb: (e: ResourceUpdatedDTO) => void): () => void {
  return on(EventResourceUpdated, (p) => p && cb(p))
}
