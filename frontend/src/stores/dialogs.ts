import {create} from 'zustand'
import {toAppError} from '../api/errors'
import {
  type ElicitationAction,
  type ElicitationClosedEvent,
  type ElicitationEvent,
  mcpRequestsApi,
  onMcpRequests,
  type SamplingEvent,
  type SamplingResultEvent,
} from '../api/mcpRequests'
import {toastError, useToasts} from './toasts'

export interface ElicitationRequest extends ElicitationEvent {
  kind: 'elicitation'
}

export interface SamplingRequest extends SamplingEvent {
  kind: 'sampling'
  /** pending: waiting for Approve/Deny; running: approved, the model is answering; done: result (or error) shown. */
  status: 'pending' | 'running' | 'done'
  result?: string
  model?: string
  error?: string
}

export type McpRequest = ElicitationRequest | SamplingRequest

interface DialogsState {
  /** MCP requests waiting for the user, oldest first; DialogHost shows the first. */
  queue: McpRequest[]
  addElicitation: (ev: ElicitationEvent) => void
  addSampling: (ev: SamplingEvent) => void
  samplingResult: (ev: SamplingResultEvent) => void
  /** Answers an elicitation; resolves to the backend's validation message, or null once answered. */
  answerElicitation: (requestId: string, action: ElicitationAction, content: Record<string, unknown> | null) => Promise<string | null>
  answerSampling: (requestId: string, approve: boolean) => Promise<void>
  dismiss: (requestId: string) => void
  /** The backend stopped waiting for an elicitation (Stop, timeout): its dialog goes, with a note why. */
  elicitationClosed: (ev: ElicitationClosedEvent) => void
}

function without(queue: McpRequest[], id: string) {
  return queue.filter((r) => r.requestId !== id)
}

export const useDialogs = create<DialogsState>()((set, get) => ({
  queue: [],
  addElicitation: (ev) =>
    set((s) => (s.queue.some((r) => r.requestId === ev.requestId) ? s : {queue: [...s.queue, {...ev, kind: 'elicitation'}]})),
  addSampling: (ev) =>
    set((s) =>
      s.queue.some((r) => r.requestId === ev.requestId) ? s : {queue: [...s.queue, {...ev, kind: 'sampling', status: 'pending'}]},
    ),
  samplingResult: (ev) =>
    set((s) => ({
      queue: s.queue.map((r) =>
        r.kind === 'sampling' && r.requestId === ev.requestId
          ? {...r, status: 'done', result: ev.text ?? '', model: ev.model, error: ev.error || undefined}
          : r,
      ),
    })),
  answerElicitation: async (requestId, action, content) => {
    try {
      await mcpRequestsApi.answerElicitation(requestId, action, action === 'accept' ? content : null)
    } catch (err) {
      const e = toAppError(err)
      if (e.kind === 'invalid' && action === 'accept') return e.message
      if (e.kind !== 'not_found') toastError(e, "Couldn't answer the request")
    }
    set((s) => ({queue: without(s.queue, requestId)}))
    return null
  },
  answerSampling: async (requestId, approve) => {
    if (approve) {
      set((s) => ({
        queue: s.queue.map((r) => (r.kind === 'sampling' && r.requestId === requestId ? {...r, status: 'running'} : r)),
      }))
    }
    try {
      await mcpRequestsApi.answerSampling(requestId, approve)
    } catch (err) {
      const e = toAppError(err)
      if (e.kind !== 'not_found') toastError(e, "Couldn't answer the request")
      set((s) => ({queue: without(s.queue, requestId)}))
      return
    }
    if (!approve) set((s) => ({queue: without(s.queue, requestId)}))
  },
  dismiss: (requestId) => set((s) => ({queue: without(s.queue, requestId)})),
  elicitationClosed: (ev) => {
    const req = get().queue.find((r) => r.requestId === ev.requestId)
    if (!req) return
    set((s) => ({queue: without(s.queue, ev.requestId)}))
    useToasts.getState().push({tone: 'info', title: `${req.connector || 'The connector'} withdrew its question`, message: capitalize(ev.reason)})
  },
}))

function capitalize(s: string): string {
  const t = s.trim() || 'it stopped waiting for an answer'
  return t.charAt(0).toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? '' : '.')
}

/** Subscribes the dialogs queue to the backend's MCP request events. */
export function syncDialogs(): () => void {
  const s = useDialogs.getState()
  return onMcpRequests({
    elicitation: s.addElicitation,
    sampling: s.addSampling,
    samplingResult: s.samplingResult,
    elicitationClosed: s.elicitationClosed,
  })
}
