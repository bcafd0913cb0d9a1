/**
 * What the composer's prompt, resource and attachment components take and
 * give, mirroring backend/mcp's Prompt, Resource, ResourceTemplate and
 * ResourcePage and chat's file and resource parts (backend/chat/parts.go).
 * The components are pure: the data comes in as props and the calls to Go
 * go out as callbacks, so the wiring decides where they come from.
 */

export interface PromptArgument {
  name: string
  title?: string
  description?: string
  required?: boolean
}

export interface Prompt {
  connectorId: string
  server: string
  name: string
  title?: string
  description?: string
  arguments?: PromptArgument[]
}

export interface Resource {
  connectorId: string
  server: string
  uri: string
  name: string
  title?: string
  description?: string
  mimeType?: string
  size?: number
}

export interface ResourcePage {
  resources: Resource[]
  nextCursor?: string
}

export interface ResourceTemplate {
  connectorId: string
  server: string
  uriTemplate: string
  variables: string[]
  name: string
  title?: string
  description?: string
  mimeType?: string
}

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
export interface Offering {
  connectorId: string
  prompts: Prompt[]
  templates: ResourceTemplate[]
  resources: Resource[]
  moreResources?: boolean
  errors?: string[]
}

/** What to show of a failed call: Go's message (an AppError's or an Error's), or the value as text. */
export function errorText(e: unknown): string {
  return e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e)
}
