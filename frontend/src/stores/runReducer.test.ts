import {describe, expect, it} from 'vitest'
import type {Message} from '../api/types'
import {beginRun, emptyRuns, pruneRuns, reduceRunEvent, restoreRun, type RunEvent, type RunsData} from './runReducer'

/** An event from a name and a payload that may leave out what the case does not read. */
const ev = (name: string, payload: unknown) => ({name, payload}) as RunEvent

function play(events: [string, unknown][], start: RunsData = emptyRuns, now = 1000): RunsData {
  return events.reduce((s, [name, payload], i) => reduceRunEvent(s, ev(name, payload), now + i * 1000), start)
}

const started: [string, unknown] = ['run:started', {runId: 'r1', sessionId: 's1'}]

describe('run reducer', () => {
  it('streams text and reasoning into the draft and times the thinking', () => {
    const s = play([
      started,
      ['chat:delta', {runId: 'r1', kind: 'reasoning', text: 'Let me '}],
      ['chat:delta', {runId: 'r1', kind: 'reasoning', text: 'think.'}],
      ['chat:delta', {runId: 'r1', kind: 'text', text: 'Hello'}],
      ['chat:delta', {runId: 'r1', kind: 'text', text: ' **there**'}],
    ])
    expect(s.active).toEqual({s1: 'r1'})
    expect(s.runs.r1).toMatchObject({text: 'Hello **there**', reasoning: 'Let me think.', reasoningMs: 2000})
  })

  it('fills in a tool name announced after the call', () => {
    const s = play([
      started,
      ['tool:started', {runId: 'r1', callId: 'c1', name: ''}],
      ['tool:args', {runId: 'r1', callId: 'c1', fragment: '{"message"'}],
      ['tool:started', {runId: 'r1', callId: 'c1', name: 'everything.echo', server: 'everything'}],
      ['tool:started', {runId: 'r1', callId: 'c1', name: ''}],
    ])
    expect(s.tools.c1).toMatchObject({name: 'everything.echo', server: 'everything', args: '{"message"'})
  })

  it('discards the draft of an abandoned attempt', () => {
    const s = play([
      started,
      ['chat:delta', {runId: 'r1', kind: 'text', text: 'partial'}],
      ['tool:started', {runId: 'r1', callId: 'c1', name: 'fs.read', server: 'fs'}],
      ['run:retrying', {runId: 'r1', attempt: 2, delayMs: 2000, reason: 'overloaded'}],
    ])
    expect(s.runs.r1).toMatchObject({text: '', reasoning: '', calls: [], retrying: {attempt: 2, delayMs: 2000, reason: 'overloaded'}})
    expect(s.tools.c1).toBeUndefined()
    const next = reduceRunEvent(s, ev('chat:delta', {runId: 'r1', kind: 'text', text: 'fresh'}))
    expect(next.runs.r1.text).toBe('fresh')
    expect(next.runs.r1.retrying).toBeUndefined()
  })

  it('follows a tool call from arguments to its result', () => {
    let s = play([
      started,
      ['tool:started', {runId: 'r1', callId: 'c1', name: 'travel.search', server: 'travel'}],
      ['tool:args', {runId: 'r1', callId: 'c1', fragment: '{"city":'}],
      ['tool:args', {runId: 'r1', callId: 'c1', fragment: '"Lisbon"}'}],
    ])
    expect(s.tools.c1).toMatchObject({status: 'preparing', args: '{"city":"Lisbon"}', server: 'travel'})
    s = reduceRunEvent(s, ev('approval:needed', {runId: 'r1', requestId: 'q1', callId: 'c1', name: 'travel.search', server: 'travel', arguments: '{"city":"Lisbon"}'}))
    expect(s.tools.c1.status).toBe('pending')
    expect(s.requests).toEqual([
      {kind: 'approval', requestId: 'q1', runId: 'r1', sessionId: 's1', callId: 'c1', name: 'travel.search', server: 'travel', arguments: '{"city":"Lisbon"}'},
    ])
    const app = {connectorId: 'k1', resourceUri: 'ui://travel/map.html', tool: 'search'}
    s = reduceRunEvent(s, ev('tool:running', {runId: 'r1', callId: 'c1', arguments: '{"city":"Lisbon"}', app}), 5000)
    expect(s.tools.c1).toMatchObject({status: 'running', startedAt: 5000, app}) // its card draws the app while it runs
    expect(s.requests).toEqual([])
    s = reduceRunEvent(s, ev('tool:progress', {runId: 'r1', callId: 'c1', progress: 2, total: 4, message: 'Searching'}))
    s = reduceRunEvent(s, ev('tool:log', {runId: 'r1', callId: 'c1', level: 'info', message: 'connected'}))
    expect(s.tools.c1.progress).toEqual({progress: 2, total: 4, message: 'Searching'})
    expect(s.tools.c1.logs).toEqual([{level: 'info', text: 'connected'}])
    s = reduceRunEvent(s, ev('tool:finished', {runId: 'r1', callId: 'c1', result: {successful: false, error: 'the user denied this tool call'}, durationMs: 12}))
    expect(s.tools.c1).toMatchObject({status: 'denied', durationMs: 12})
  })

  it('clears the draft when the reply is stored and keeps how long it thought', () => {
    const saved: Message = {id: 'm2', seq: 2, role: 'assistant', status: 'complete', parts: [{type: 'reasoning', text: 'hm'}, {type: 'text', text: 'Hi'}], createdAt: 1}
    const s = play([
      started,
      ['chat:delta', {runId: 'r1', kind: 'reasoning', text: 'hm'}],
      ['chat:delta', {runId: 'r1', kind: 'text', text: 'Hi'}],
      ['message:saved', {runId: 'r1', sessionId: 's1', message: saved}],
    ])
    expect(s.runs.r1).toMatchObject({text: '', reasoning: ''})
    expect(s.thoughtMs).toEqual({m2: 1000})
  })

  it('ends the run: stops open cards, drops its requests, records the failure', () => {
    const s = play([
      started,
      ['tool:started', {runId: 'r1', callId: 'c1', name: 'x.y'}],
      ['approval:needed', {runId: 'r1', requestId: 'q1', callId: 'c1', name: 'x.y', server: 'x', arguments: '{}'}],
      ['run:finished', {runId: 'r1', sessionId: 's1', canceled: false, error: {kind: 'unavailable', message: 'overloaded'}, retryAt: 99}],
    ])
    expect(s.active).toEqual({})
    expect(s.runs.r1.finished).toBe(true)
    expect(s.tools.c1.status).toBe('stopped')
    expect(s.requests).toEqual([])
    expect(s.failures.s1).toEqual({runId: 'r1', kind: 'unavailable', message: 'overloaded', retryAt: 99})
    // A stopped run is not a failure.
    const c = play([started, ['run:finished', {runId: 'r1', sessionId: 's1', canceled: true, error: {kind: 'canceled', message: 'x'}}]])
    expect(c.failures).toEqual({})
  })

  it('does not revive a run that finished before SendMessage returned', () => {
    const s = play([started, ['run:finished', {runId: 'r1', sessionId: 's1', canceled: false, error: {kind: 'auth_required', message: 'sign in'}}]])
    const after = beginRun(s, 's1', 'r1')
    expect(after.active).toEqual({})
    expect(after.failures.s1.kind).toBe('auth_required')
    // A new run clears the old failure.
    expect(beginRun(s, 's1', 'r2').failures).toEqual({})
  })

  it('restores a run from its stored checkpoint', () => {
    const checkpoint: Message = {
      id: 'm9', seq: 9, role: 'assistant', status: 'streaming', runId: 'r7', createdAt: 1,
      parts: [{type: 'text', text: 'So far'}, {type: 'tool_call', callId: 'c9', name: 'fs.read', server: 'fs', arguments: '{}'}],
    }
    const s = restoreRun(emptyRuns, 's1', 'r7', checkpoint)
    expect(s.active).toEqual({s1: 'r7'})
    expect(s.runs.r7).toMatchObject({text: 'So far', calls: ['c9']})
    expect(s.tools.c9).toMatchObject({name: 'fs.read', server: 'fs', status: 'preparing'})
  })

  it('prunes finished runs of other sessions', () => {
    const s = play([started, ['tool:started', {runId: 'r1', callId: 'c1', name: 'x.y'}], ['run:finished', {runId: 'r1', sessionId: 's1', canceled: false}]])
    expect(pruneRuns(s, 's1')).toBe(s)
    const p = pruneRuns(s, 's2')
    expect(p.runs).toEqual({})
    expect(p.tools).toEqual({})
  })

  it('ignores events of unknown runs and junk payloads', () => {
    expect(reduceRunEvent(emptyRuns, ev('chat:delta', {runId: 'nope', kind: 'text', text: 'x'}))).toBe(emptyRuns)
    expect(reduceRunEvent(emptyRuns, ev('tool:progress', {runId: 'nope', callId: 'c'}))).toBe(emptyRuns)
    expect(reduceRunEvent(emptyRuns, ev('run:started', null))).toBe(emptyRuns)
  })
})
