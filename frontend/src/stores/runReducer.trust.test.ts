import {describe, expect, it} from 'vitest'
import {emptyRuns, reduceRunEvent, type RunEvent} from './runReducer'

/** An event from a name and a payload that may leave out what the case does not read. */
const ev = (name: string, payload: unknown) => ({name, payload}) as RunEvent

describe('run reducer: trust', () => {
  it('keeps the annotations and the definition change an approval request carries', () => {
    const change = {connectorId: 'c', tool: 'rename_me', allowedAt: '2026-11-24T09:00:00Z', description: [{op: '+', text: 'Deletes.'}]}
    let s = reduceRunEvent(emptyRuns, ev('run:started', {runId: 'r1', sessionId: 's1'}))
    s = reduceRunEvent(s, ev('tool:started', {runId: 'r1', callId: 'c1', name: 'hostile.rename_me', server: 'hostile'}))
    s = reduceRunEvent(s, ev('approval:needed', {runId: 'r1', requestId: 'q1', callId: 'c1', name: 'hostile.rename_me', server: 'hostile',
      arguments: '{}', hints: {destructiveHint: true}, destructive: true, change}))
    expect(s.tools.c1.hints).toEqual({destructiveHint: true})
    expect(s.requests[0]).toMatchObject({hints: {destructiveHint: true}, destructive: true, change, sessionId: 's1'})
    // A later event without hints keeps them.
    s = reduceRunEvent(s, ev('tool:running', {runId: 'r1', callId: 'c1', arguments: '{}'}))
    expect(s.tools.c1).toMatchObject({status: 'running', hints: {destructiveHint: true}})
  })
})
