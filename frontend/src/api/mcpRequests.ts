// Requests MCP servers make of the user during a tool call: elicitation (a
// form to fill, or consent to open a URL) and sampling (using the session's
// model). See app/elicit.go and app/sampling.go.

import * as Connectors from '../../wailsjs/go/app/Connectors'
import {EventsOn} from '../../wailsjs/runtime/runtime'
import {toAppError} from './errors'

export const EVENT_ELICITATION = 'elicitation:needed'
export const EVENT_SAMPLING = 'sampling:needed'
export const EVENT_SAMPLING_RESULT = 'sampling:result'
export const EVENT_ELICITATION_CLOSED = 'elicitation:closed'

/** One field of a flat elicitation form (mcp.Field). */
export interface FormField {
  name: string
  kind: 'string' | 'number' | 'integer' | 'boolean' | 'multi'
  title?: string
  description?: string
  required?: boolean
  format?: 'email' | 'uri' | 'date' | 'date-time'
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  options?: string[]
  labels?: string[]
  minItems?: number
  maxItems?: number
  default?: unknown
}

/** The flat form (mcp.Form), sent as JSON text in ElicitationEvent.schema. */
export interface FormSchema {
  title?: string
  fields: FormField[]
}

/** elicitation:needed */
export interface ElicitationEvent {
  requestId: string
  sessionId: string
  connector: string
  message: string
  mode: 'form' | 'url'
  schema?: string
  url?: string
}

/** elicitation:closed: the request stopped waiting without an answer. */
export interface ElicitationClosedEvent {
  requestId: string
  reason: string
}

export interface SamplingMessage {
  role: string
  text: string
}

/** sampling:needed */
export interface SamplingEvent {
  requestId: string
  sessionId: string
  connector: string
  messages: SamplingMessage[] | null
  systemPrompt?: string
  maxTokens: number
  modelHint?: string
}

/** sampling:result */
export interface SamplingResultEvent {
  requestId: string
  text: string
  model?: string
  error?: string
}

export type ElicitationAction = 'accept' | 'decline' | 'cancel'

async function call(fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn()
  } catch (err) {
    throw toAppError(err)
  }
}

export const mcpRequestsApi = {
  /** Rejects with an 'invalid' AppError when the backend finds the form invalid; the request keeps waiting. */
  answerElicitation: (requestId: string, action: ElicitationAction, content: Record<string, unknown> | null) =>
    call(() => Connectors.AnswerElicitation(requestId, action, content ? JSON.stringify(content) : '')),
  answerSampling: (requestId: string, approve: boolean) => call(() => Connectors.AnswerSampling(requestId, approve)),
}

function hasRuntime(): boolean {
  return typeof window !== 'undefined' && !!(window as {runtime?: unknown}).runtime
}

export interface McpRequestHandlers {
  elicitation: (ev: ElicitationEvent) => void
  sampling: (ev: SamplingEvent) => void
  samplingResult: (ev: SamplingResultEvent) => void
  elicitationClosed: (ev: ElicitationClosedEvent) => void
}

/** Subscribes to the MCP request events; returns the unsubscribe function. */
export function onMcpRequests(h: McpRequestHandlers): () => void {
  if (!hasRuntime()) return () => {}
  const offs = [
    EventsOn(EVENT_ELICITATION, (ev: ElicitationEvent) => ev && h.elicitation(ev)),
    EventsOn(EVENT_SAMPLING, (ev: SamplingEvent) => ev && h.sampling(ev)),
    EventsOn(EVENT_SAMPLING_RESULT, (ev: SamplingResultEvent) => ev && h.samplingResult(ev)),
    EventsOn(EVENT_ELICITATION_CLOSED, (ev: ElicitationClosedEvent) => ev && h.elicitationClosed(ev)),
  ]
  return () => offs.forEach((off) => off())
}

/** Parses an elicitation's schema text; a bad one is an empty form. */
export function parseFormSchema(text: string | undefined): FormSchema {
  if (!text) return {fields: []}
  try {
    const f = JSON.parse(text) as FormSchema
    return {title: f.title, fields: Array.isArray(f.fields) ? f.fields : []}
  } catch {
    return {fields: []}
  }
}
