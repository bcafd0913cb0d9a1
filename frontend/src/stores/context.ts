import {create} from 'zustand'
import {chatApi} from '../api/client'
import {type CompactionDTO, EventCompaction, EventContextMeasured, EventRunFinished} from '../api/contract.gen'
import {on} from '../api/events'
import type {ContextUse, TokenUsage} from '../lib/usage'

/** A compaction under way ("Compact now", or one a turn started). */
export interface Compaction {
  runId: string
  /** What started it: "threshold", "manual" or "too_long". */
  reason: string
  /** The messages and estimated tokens being summarised. */
  messages: number
  tokens: number
  /** Summarising requests done, of requests. */
  done: number
  requests: number
  /** Stop was asked and not yet answered. */
  stopping?: boolean
}

interface ContextState {
  /** The latest measurement of each session's next request (the header's meter). */
  use: Readonly<Record<string, ContextUse>>
  /** Each session's token totals (what its stored answers report). */
  totals: Readonly<Record<string, TokenUsage>>
  /** Compactions under way, by session. */
  compacting: Readonly<Record<string, Compaction>>
  measured: (sessionId: string, use: ContextUse) => void
  setTotals: (sessionId: string, totals: TokenUsage) => void
  started: (sessionId: string, c: Omit<Compaction, 'done'>) => void
  progress: (runId: string, done: number, requests: number) => void
  stopping: (sessionId: string) => void
  /** The compaction of runId ended (finished, stopped or failed). */
  ended: (runId: string) => void
  forget: (sessionId: string) => void
}

const without = <T>(rec: Readonly<Record<string, T>>, key: string) => {
  const next = {...rec}
  delete next[key]
  return next
}

const sessionOf = (compacting: Readonly<Record<string, Compaction>>, runId: string) =>
  Object.keys(compacting).find((id) => compacting[id].runId === runId)

/**
 * What the chat knows about its context: the meter's numbers, the totals,
 * and compaction progress. It holds no requests of its own: the app's events
 * (context measured, compaction started, progress, finished, run finished)
 * and Settings feed it.
 */
export const useContextStore = create<ContextState>()((set) => ({
  use: {},
  totals: {},
  compacting: {},

  measured: (sessionId, use) => set((s) => ({use: {...s.use, [sessionId]: use}})),

  setTotals: (sessionId, totals) => set((s) => ({totals: {...s.totals, [sessionId]: totals}})),

  started: (sessionId, c) => set((s) => ({compacting: {...s.compacting, [sessionId]: {...c, done: 0}}})),

  progress: (runId, done, requests) =>
    set((s) => {
      const id = sessionOf(s.compacting, runId)
      if (!id) return s
      return {compacting: {...s.compacting, [id]: {...s.compacting[id], done, requests}}}
    }),

  stopping: (sessionId) =>
    set((s) => (s.compacting[sessionId] ? {compacting: {...s.compacting, [sessionId]: {...s.compacting[sessionId], stopping: true}}} : s)),

  ended: (runId) =>
    set((s) => {
      const id = sessionOf(s.compacting, runId)
      return id ? {compacting: without(s.compacting, id)} : s
    }),


  forget: (sessionId) =>
    set((s) => ({use: without(s.use, sessionId), totals: without(s.totals, sessionId), compacting: without(s.compacting, sessionId)})),
}))

/** Applies compaction:progress to the store. */
function onCompaction(c: CompactionDTO) {
  const s = useContextStore.getState()
  switch (c.phase) {
    case 'started':
      s.started(c.sessionId, {runId: c.runId, reason: c.reason ?? '', messages: c.messages ?? 0, tokens: c.tokens ?? 0, requests: c.requests})
      break
    case 'progress':
      s.progress(c.runId, c.done, c.requests)
      break
    case 'finished':
      s.ended(c.runId)
      break
  }
}

/** Feeds the store from the app's events; returns the unsubscribe function. */
export function syncContext(): () => void {
  const offs = [
    on(EventContextMeasured, (u) => u && useContextStore.getState().measured(u.sessionId, u)),
    on(EventCompaction, (c) => c && onCompaction(c)),
    on(EventRunFinished, (f) => f && useContextStore.getState().ended(f.runId)),
  ]
  return () => offs.forEach((off) => off())
}

/** Measures the session's next request now (opening a chat, after a turn, a model switch). */
export async function refreshContext(sessionId: string): Promise<void> {
  try {
    const use = await chatApi.contextUse(sessionId)
    useContextStore.getState().measured(sessionId, use)
  } catch {
    // The meter stays as it was; the next measurement replaces it.
  }
}
