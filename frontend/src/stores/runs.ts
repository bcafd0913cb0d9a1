import {create} from 'zustand'
import {chatApi, onChatEvents} from '../api/client'
import type {AppError} from '../api/errors'
import type {ApprovalDecision, MessageSavedEvent} from '../api/types'
import {useChat} from './chat'
import {useModels} from './models'
import {
  beginRun,
  emptyRuns,
  markStopping,
  pruneRuns,
  reduceRunEvent,
  restoreRun,
  type RunsData,
} from './runReducer'
import {toastError} from './toasts'

interface RunsState extends RunsData {
  /** sessionId → why SendMessage was refused (auth_required: sign in first). */
  notices: Record<string, AppError>
  handle: (name: string, payload: unknown) => void
  begin: (sessionId: string, runId: string) => void
  /** Asks Go whether sessionId has a running reply and shows it if so. */
  restore: (sessionId: string) => Promise<void>
  prune: (keepSessionId: string | null) => void
  stop: (sessionId: string) => Promise<void>
  retry: (sessionId: string) => Promise<void>
  applyNow: (sessionId: string) => Promise<void>
  answer: (requestId: string, decision: ApprovalDecision) => Promise<void>
  setNotice: (sessionId: string, err: AppError | null) => void
  /** Drops the session's failed-turn record (its branch is no longer shown). */
  forgetFailure: (sessionId: string) => void
}

export const useRuns = create<RunsState>()((set, get) => ({
  ...emptyRuns,
  notices: {},

  handle: (name, payload) => {
    if (name === 'models:changed') {
      void useModels.getState().load()
      return
    }
    set((s) => reduceRunEvent(s, name, payload))
    if (name === 'message:saved') {
      const e = payload as MessageSavedEvent
      if (e?.message) useChat.getState().receive(e.sessionId, e.message)
    }
  },

  begin: (sessionId, runId) => set((s) => beginRun(s, sessionId, runId)),

  restore: async (sessionId) => {
    let runId = ''
    try {
      runId = await chatApi.activeRun(sessionId)
    } catch {
      return // An older backend without runs: nothing to restore.
    }
    if (!runId || useChat.getState().sessionId !== sessionId) return
    const checkpoint = [...useChat.getState().messages]
      .reverse()
      .find((m) => m.runId === runId && m.role === 'assistant' && m.status === 'streaming')
    set((s) => restoreRun(s, sessionId, runId, checkpoint))
  },

  prune: (keep) => set((s) => pruneRuns(s, keep)),

  stop: async (sessionId) => {
    const runId = get().active[sessionId]
    if (!runId || get().runs[runId]?.stopping) return
    set((s) => markStopping(s, runId))
    try {
      await chatApi.stopRun(runId)
    } catch (err) {
      set((s) => ({runs: s.runs[runId] ? {...s.runs, [runId]: {...s.runs[runId], stopping: false}} : s.runs}))
      // not_found: the reply finished on its own meanwhile.
      if ((err as AppError).kind !== 'not_found') toastError(err, "Couldn't stop the reply")
    }
  },

  retry: async (sessionId) => {
    if (get().active[sessionId]) return
    try {
      const runId = await chatApi.retryTurn(sessionId)
      get().begin(sessionId, runId)
    } catch (err) {
      toastError(err, "Couldn't retry")
    }
  },

  applyNow: async (sessionId) => {
    const runId = get().active[sessionId]
    if (!runId) return
    try {
      await chatApi.applyNow(runId)
    } catch (err) {
      toastError(err, "Couldn't apply the new tools")
    }
  },

  answer: async (requestId, decision) => {
    set((s) => ({requests: s.requests.filter((r) => r.requestId !== requestId)}))
    try {
      await chatApi.answerApproval(requestId, decision)
    } catch (err) {
      toastError(err, "Couldn't answer the approval request")
    }
  },

  setNotice: (sessionId, err) =>
    set((s) => {
      if (!err) {
        if (!(sessionId in s.notices)) return s
        const notices = {...s.notices}
        delete notices[sessionId]
        return {notices}
      }
      return {notices: {...s.notices, [sessionId]: err}}
    }),

  forgetFailure: (sessionId) =>
    set((s) => {
      if (!(sessionId in s.failures)) return s
      const failures = {...s.failures}
      delete failures[sessionId]
      return {failures}
    }),
}))

/** Feeds every chat event to the runs store; returns the unsubscribe. */
export function syncRuns(): () => void {
  return onChatEvents((e) => useRuns.getState().handle(e.name, e.payload))
}

/** The running run of sessionId, or undefined. */
export function useActiveRun(sessionId: string | null) {
  return useRuns((s) => (sessionId ? s.runs[s.active[sessionId] ?? ''] : undefined))
}
