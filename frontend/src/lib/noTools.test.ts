import {describe, expect, it} from 'vitest'
import type {SessionConnector} from '../api/connectors'
import {switchableConnectors} from './noTools'

const conn = (id: string, patch: Partial<SessionConnector> = {}): SessionConnector => ({
  id, name: id, state: 'ready', toolCount: 2, available: true, enabledInSession: false, approval: 'ask',
  tools: [{name: 'a', canonical: `${id}.a`, enabled: true}, {name: 'b', canonical: `${id}.b`, enabled: true}] as SessionConnector['tools'],
  ...patch,
})

describe('switchableConnectors', () => {
  it('offers the ready connectors when the chat has no tool on', () => {
    const data = {sessionId: 's1', revision: 1, roots: [], connectors: [conn('files'), conn('web', {state: 'error'}), conn('off', {available: false})]}
    expect(switchableConnectors(data, 's1').map((c) => c.id)).toEqual(['files'])
  })

  it('offers nothing when a tool is on, or for another chat', () => {
    const data = {sessionId: 's1', revision: 1, roots: [], connectors: [conn('files', {enabledInSession: true}), conn('web')]}
    expect(switchableConnectors(data, 's1')).toEqual([])
    expect(switchableConnectors({...data, connectors: [conn('web')]}, 's2')).toEqual([])
    expect(switchableConnectors(null, 's1')).toEqual([])
  })
})
