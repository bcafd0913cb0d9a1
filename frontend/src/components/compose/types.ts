/**
 * What the composer's prompt, resource and attachment components take and
 * give: backend/mcp's Prompt, Resource, ResourceTemplate and ResourcePage as
 * the contract has them, and chat's file and resource parts
 * (backend/chat/parts.go).
 * The components are pure: the data comes in as props and the calls to Go
 * go out as callbacks, so the wiring decides where they come from.
 */

import type {OfferingDTO, PromptArgumentDTO, PromptDTO, ResourceDTO, ResourcePageDTO, ResourceTemplateDTO} from '../../api/contract.gen'

// The shapes Go sends are the generated contract's: a renamed Go field
// fails tsc here too.
export type PromptArgument = PromptArgumentDTO
export type Prompt = PromptDTO
export type Resource = ResourceDTO
export type ResourcePage = ResourcePageDTO
export type ResourceTemplate = ResourceTemplateDTO

/** A connector of the chat that offers resources, for the picker's tabs. */
export interface ResourceSource {
  connectorId: string
  server: string
}

/** A file part of a draft: a file the user attached (data is base64). */
export interface FileDraft {
  type: 'file'
  name: string
  mimeType: string
  size: number
  data: string
}

/** A resource part of a draft: a resource attached from a connector. */
export interface ResourceDraft {
  type: 'resource'
  uri: string
  connectorId: string
  server: string
  name?: string
  title?: string
  mimeType?: string
  text?: string
  data?: string
  size?: number
  truncated?: boolean
  /** The server said the resource changed since it was read. */
  updated?: boolean
}

export type DraftAttachment = FileDraft | ResourceDraft

/** Asks the server for completions of one argument or variable. */
export type CompleteFn = (name: string, value: string, context: Record<string, string>) => Promise<string[]>

/** How a draft attachment is named on its chip. */
export function attachmentLabel(a: DraftAttachment): string {
  if (a.type === 'file') return a.name
  return a.title || a.name || a.uri
}

/** What one connector offers besides tools (backend/mcp Offering), for the connectors page. */
export type Offering = OfferingDTO

/** What to show of a failed call: Go's message (an AppError's or an Error's), or the value as text. */
export function errorText(e: unknown): string {
  return e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e)
}
