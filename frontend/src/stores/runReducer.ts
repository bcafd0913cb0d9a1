// The run lifecycle as a pure reducer: chat events in, the state the chat
// pane draws out. stores/runs.ts holds it and feeds it the events.

import type {ChatEvent} from '../api/client'
import type {ApprovalEvent, Message, MessageSavedEvent, RunFinishedEvent, ToolEvent} from '../api/types'
import {isToolActive, splitToolName, statusOfResult} from '../lib/toolCards'
import type {ApprovalRequest, PendingRequest, RunDraft, RunsData, ToolLive} from './runTypes'

export type {ApprovalRequest, LogLine, PendingRequest, RunDraft, RunFailure, RunsData, ToolLive} from './runTypes'

export const emptyRuns: RunsData = {active: {}, runs: {}, tools: {}, requests: [], failures: {}, thoughtMs: {}}

/** At most this many log lines are kept per tool call. */
export const MAX_LOG_LINES = 500

const omit = <T>(rec: Record<string, T>, key: string): Record<string, T> => {
  if (!(key in rec)) return rec
  const next = {...rec}
  delete next[key]
  return next
}

function newRun(runId: string, sessionId: string): RunDraft {
  return {runId, sessionId, text: '', reasoning: '', calls: [], finished: false, stopping: false}
}

/** Records that sessionId is running runId (idempotent). */
export function beginRun(s: RunsData, sessionId: string, runId: string): RunsData {
  if (!runId) return s
  const run = s.runs[runId] ?? newRun(runId, sessionId)
  const failure = s.failures[sessionId]
  const stale = !!failure && failure.runId !== runId
  if (s.runs[runId] && (run.finished || s.active[sessionId] === runId) && !stale) return s
  return {
    ...s,
    active: run.finished ? s.active : {...s.active, [sessionId]: runId},
    runs: {...s.runs, [runId]: run},
    failures: stale ? omit(s.failures, sessionId) : s.failures,
  }
}

/**
 * Restores a run found by ActiveRun after the session was reopened: the
 * draft starts from the stored checkpoint of its reply, if any.
 */
export function restoreRun(s: RunsData, sessionId: string, runId: string, checkpoint?: Message): RunsData {
  if (s.runs[runId]) return beginRun(s, sessionId, runId)
  const run = newRun(runId, sessionId)
  const tools = {...s.tools}
  for (const p of checkpoint?.parts ?? []) {
    if (p.type === 'text' && p.text) run.text += (run.text ? '\n\n' : '') + p.text
    if (p.type === 'reasoning' && p.text) run.reasoning += p.text
    if (p.type === 'tool_call' && p.callId) {
      run.calls.push(p.callId)
      const {server} = splitToolName(p.name ?? '', p.server)
      tools[p.callId] = {callId: p.callId, runId, name: p.name ?? '', server, args: p.arguments ?? '', status: 'preparing', logs: []}
    }
  }
  return beginRun({...s, runs: {...s.runs, [runId]: run}, tools}, sessionId, runId)
}

function patchRun(s: RunsData, runId: string, fn: (r: RunDraft) => Partial<RunDraft>): RunsData {
  const run = s.runs[runId]
  if (!run) return s
  return {...s, runs: {...s.runs, [runId]: {...run, ...fn(run)}}}
}

function patchTool(s: RunsData, callId: string, fn: (t: ToolLive) => Partial<ToolLive>): RunsData {
  const tool = s.tools[callId]
  if (!tool) return s
  return {...s, tools: {...s.tools, [callId]: {...tool, ...fn(tool)}}}
}

/** Ends the reasoning clock when something else starts arriving. */
const endReasoning = (r: RunDraft, now: number): Partial<RunDraft> =>
  r.reasoningStart !== undefined && r.reasoningMs === undefined ? {reasoningMs: now - r.reasoningStart} : {}

function ensureTool(s: RunsData, e: {runId: string; callId: string; name?: string; server?: string}): RunsData {
  const known = s.tools[e.callId]
  if (known) {
    // A call can be announced before its name is known (the agent sends a
    // second tool:started once it is); fill the name in then.
    if (known.name || !e.name) return s
    const {server} = splitToolName(e.name, e.server || undefined)
    return {...s, tools: {...s.tools, [e.callId]: {...known, name: e.name, server}}}
  }
  const {server} = splitToolName(e.name ?? '', e.server || undefined)
  const tool: ToolLive = {callId: e.callId, runId: e.runId, name: e.name ?? '', server, args: '', status: 'preparing', logs: []}
  const next = {...s, tools: {...s.tools, [e.callId]: tool}}
  return patchRun(next, e.runId, (r) => ({calls: r.calls.includes(e.callId) ? r.calls : [...r.calls, e.callId]}))
}

const dropRequests = (s: RunsData, keep: (r: PendingRequest) => boolean): RunsData => {
  const requests = s.requests.filter(keep)
  return requests.length === s.requests.length ? s : {...s, requests}
}

function saved(s: RunsData, e: MessageSavedEvent): RunsData {
  const m = e.message
  if (m.role !== 'assistant' || m.status === 'streaming') return s
  const run = s.runs[e.runId]
  if (!run) return s
  let next = s
  const ms = run.reasoningMs ?? (run.reasoningStart !== undefined ? 0 : undefined)
  if (ms !== undefined && m.parts?.some((p) => p.type === 'reasoning')) {
    next = {...next, thoughtMs: {...next.thoughtMs, [m.id]: ms}}
  }
  return patchRun(next, e.runId, () => ({text: '', reasoning: '', reasoningStart: undefined, reasoningMs: undefined}))
}

function finished(s: RunsData, e: RunFinishedEvent): RunsData {
  const run = s.runs[e.runId] ?? newRun(e.runId, e.sessionId)
  const sessionId = e.sessionId || run.sessionId
  const tools = {...s.tools}
  for (const id of run.calls) {
    const t = tools[id]
    if (t && isToolActive(t.status)) tools[id] = {...t, status: 'stopped'}
  }
  const failures =
    e.error && !e.canceled
      ? {...s.failures, [sessionId]: {...e.error, runId: e.runId, retryAt: e.retryAt || e.error.retryAt || undefined}}
      : s.failures
  return {
    ...s,
    active: s.active[sessionId] === e.runId ? omit(s.active, sessionId) : s.active,
    runs: {...s.runs, [e.runId]: {...run, finished: true, stopping: false, retrying: undefined}},
    tools,
    failures,
    requests: s.requests.filter((r) => r.runId !== e.runId),
  }
}

/** A chat event of a run: every chat event but models:changed. */
export type RunEvent = Exclude<ChatEvent, {name: 'models:changed'}>

/** Applies one chat event. Unknown runs are ignored except where the event names the session. */
export function reduceRunEvent(s: RunsData, ev: RunEvent, now: number = Date.now()): RunsData {
  if (!ev.payload || typeof ev.payload !== 'object') return s
  switch (ev.name) {
    case 'run:started': {
      const e = ev.payload
      return beginRun(s, e.sessionId, e.runId)
    }
    case 'run:step': {
      const e = ev.payload
      const next = s.runs[e.runId] ? s : beginRun(s, e.sessionId, e.runId)
      return patchRun(next, e.runId, () => ({
        step: e.step, provider: e.provider, model: e.model, toolsRevision: e.toolsRevision, retrying: undefined,
      }))
    }
    case 'chat:delta': {
      const e = ev.payload
      if (!e.text) return s
      return patchRun(s, e.runId, (r) =>
        e.kind === 'reasoning'
          ? {reasoning: r.reasoning + e.text, reasoningStart: r.reasoningStart ?? now, retrying: undefined}
          : {text: r.text + e.text, ...endReasoning(r, now), retrying: undefined},
      )
    }
    case 'run:retrying': {
      const e = ev.payload
      const run = s.runs[e.runId]
      if (!run) return s
      // The abandoned attempt's calls never ran: only complete steps run tools.
      const dropped = run.calls.filter((id) => s.tools[id]?.status === 'preparing')
      const tools = {...s.tools}
      dropped.forEach((id) => delete tools[id])
      return patchRun({...s, tools}, e.runId, (r) => ({
        text: '', reasoning: '', reasoningStart: undefined, reasoningMs: undefined,
        calls: r.calls.filter((id) => !dropped.includes(id)),
        retrying: {attempt: e.attempt, delayMs: e.delayMs, reason: e.reason},
      }))
    }
    case 'tool:started': {
      const e = ev.payload
      const next = ensureTool(s, e)
      return patchRun(next, e.runId, (r) => endReasoning(r, now))
    }
    case 'tool:args': {
      const e = ev.payload
      return patchTool(ensureTool(s, e), e.callId, (t) => ({args: t.args + (e.fragment ?? '')}))
    }
    case 'approval:needed': {
      const e = ev.payload
      const next = patchTool(ensureTool(s, e), e.callId, (t) => ({status: 'pending', args: e.arguments || t.args, hints: e.hints ?? t.hints}))
      if (next.requests.some((r) => r.requestId === e.requestId)) return next
      const sessionId = s.runs[e.runId]?.sessionId ?? ''
      const req: ApprovalRequest = {kind: 'approval', sessionId, ...e, arguments: e.arguments ?? ''}
      return {...next, requests: [...next.requests, req]}
    }
    case 'tool:running': {
      const e = ev.payload
      const next = patchTool(ensureTool(s, e), e.callId, (t) => ({
        status: 'running', args: e.arguments || t.args, startedAt: now, app: e.app ?? t.app,
      }))
      return dropRequests(next, (r) => r.callId !== e.callId)
    }
    case 'tool:progress': {
      const e = ev.payload
      return patchTool(s, e.callId, () => ({
        progress: {progress: e.progress ?? 0, total: e.total || undefined, message: e.message || undefined},
      }))
    }
    case 'tool:log': {
      const e = ev.payload
      const text = e.text ?? e.message ?? ''
      return patchTool(s, e.callId, (t) => ({logs: [...t.logs, {level: e.level || 'info', text}].slice(-MAX_LOG_LINES)}))
    }
    case 'tool:finished': {
      const e = ev.payload
      if (!e.result) return s
      const result = e.result
      const next = patchTool(ensureTool(s, e), e.callId, () => ({
        status: statusOfResult(result), result, durationMs: e.durationMs ?? result.durationMs,
      }))
      return dropRequests(next, (r) => r.callId !== e.callId)
    }
    case 'message:saved':
      return saved(s, ev.payload)
    case 'run:finished':
      return finished(s, ev.payload)
    default:
      return s
  }
}

/** Marks a run as being stopped (the Stop button shows progress). */
export function markStopping(s: RunsData, runId: string): RunsData {
  return patchRun(s, runId, () => ({stopping: true}))
}

/** Forgets finished runs (and their cards) of sessions other than keep. */
export function pruneRuns(s: RunsData, keep: string | null): RunsData {
  const drop = Object.values(s.runs).filter((r) => r.finished && r.sessionId !== keep)
  if (drop.length === 0) return s
  const runs = {...s.runs}
  const tools = {...s.tools}
  for (const r of drop) {
    delete runs[r.runId]
    r.calls.forEach((id) => delete tools[id])
  }
  return {...s, runs, tools}
}
