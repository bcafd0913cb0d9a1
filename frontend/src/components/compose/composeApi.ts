import type {CompletionRefDTO, DraftPartDTO, OfferDTO} from '../../api/contract.gen'
import type {DraftAttachment, Prompt, Resource, ResourcePage, ResourceTemplate} from './types'

// The shapes Go sends are the generated contract's (api/contract.gen.ts),
// under the names the composer uses.

/** A connector of the chat and what its server offers (backend/mcp ConnectorOffer). */
export type ConnectorOffer = OfferDTO

/** What a completion is for: a prompt (by name) or a resource template (by its URI template). */
export type CompletionRef = CompletionRefDTO

/** A part as Go sends it (chat.Parts as JSON). */
export type WirePart = DraftPartDTO

/**
 * The calls to Go the composer's prompts, resources and attachments need,
 * for one chat. The wiring passes the bound methods; tests pass fakes.
 */
export interface ComposeApi {
  offers: (sessionId: string) => Promise<ConnectorOffer[]>
  prompts: (sessionId: string) => Promise<{prompts: Prompt[]; unavailable?: {server: string; error: string}[]}>
  /** prompts/get, as one user turn's parts (PromptResult.Parts). */
  getPrompt: (sessionId: string, connectorId: string, name: string, args: Record<string, string>) => Promise<WirePart[]>
  complete: (sessionId: string, connectorId: string, ref: CompletionRef, argument: string, value: string, context: Record<string, string>) => Promise<string[]>
  resources: (sessionId: string, connectorId: string, cursor: string) => Promise<ResourcePage>
  templates: (sessionId: string) => Promise<ResourceTemplate[]>
  /** resources/read, as resource parts. */
  readResource: (sessionId: string, connectorId: string, uri: string) => Promise<WirePart[]>
  /** Expands a template and reads the resource. */
  readTemplate: (sessionId: string, connectorId: string, uriTemplate: string, values: Record<string, string>) => Promise<WirePart[]>
  /** Follows a resource for updates (a connector that does not offer them is skipped by the caller). */
  subscribe: (sessionId: string, connectorId: string, uri: string) => Promise<void>
  /** Why the draft's attachments would be refused by the chat's model, checked in Go; [] when they fit. */
  checkAttachments: (sessionId: string, attachments: DraftAttachment[]) => Promise<string[]>
}

export type {Resource}
