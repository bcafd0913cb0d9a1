// Requests MCP servers make of the user during a tool call: elicitation (a
// form to fill, or consent to open a URL) and sampling (using the session's
// model). See app/elicit.go and app/sampling.go.

import {call, go} from './client'
import type * as C from './contract.gen'
import {
  type ElicitationAction,
  EventElicitation,
  EventElicitationClosed,
  EventSampling,
  EventSamplingResult,
} from './contract.gen'
import {on} from './events'

export type {ElicitationAction} from './contract.gen'
/** One field of a flat elicitation form (mcp.Field). */
export type FormField = C.Field
/** The flat form (mcp.Form), sent as JSON text in ElicitationEvent.schema. */
export type FormSchema = C.Form
export type ElicitationEvent = C.ElicitationDTO
export type ElicitationClosedEvent = C.ElicitationClosedDTO
export type SamplingMessage = C.SamplingMessageDTO
export type SamplingEvent = C.SamplingDTO
export type SamplingResultEvent = C.SamplingResultDTO

export const mcpRequestsApi = {
  /** Rejects with an 'invalid' AppError when the backend finds the form invalid; the request keeps waiting. */
  answerElicitation: (requestId: string, action: ElicitationAction, content: Record<string, unknown> | null) =>
    call(() => go().Connectors.AnswerElicitation(requestId, action, content ? JSON.stringify(content) : '')),
  answerSampling: (requestId: string, approve: boolean) => call(() => go().Connectors.AnswerSampling(requestId, approve)),
}

export interface McpRequestHandlers {
  elicitation: (ev: ElicitationEvent) => void
  sampling: (ev: SamplingEvent) => void
  samplingResult: (ev: SamplingResultEvent) => void
  elicitationClosed: (ev: ElicitationClosedEvent) => void
}

/** Subscribes to the MCP request events; returns the unsubscribe function. */
export function onMcpRequests(h: McpRequestHandlers): () => void {
  const offs = [
    on(EventElicitation, (ev) => ev && h.elicitation(ev)),
    on(EventSampling, (ev) => ev && h.sampling(ev)),
    on(EventSamplingResult, (ev) => ev && h.samplingResult(ev)),
    on(EventElicitationClosed, (ev) => ev && h.elicitationClosed(ev)),
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
