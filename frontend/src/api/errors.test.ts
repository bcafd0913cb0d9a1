import {describe, expect, it} from 'vitest'
import {FALLBACK_MESSAGE, isAppError, toAppError} from './errors'

describe('toAppError', () => {
  it('keeps a Go ErrorDTO as it is', () => {
    expect(toAppError({kind: 'not_found', message: 'session s1 not found'})).toEqual({
      kind: 'not_found',
      message: 'session s1 not found',
    })
  })

  it('maps unknown or missing kinds to internal', () => {
    expect(toAppError({kind: 'weird', message: 'x'})).toEqual({kind: 'internal', message: 'x'})
    expect(toAppError({message: 'y'})).toEqual({kind: 'internal', message: 'y'})
  })

  it('reads an Error', () => {
    expect(toAppError(new TypeError("Cannot read properties of undefined (reading 'App')"))).toEqual({
      kind: 'internal',
      message: "Cannot read properties of undefined (reading 'App')",
    })
  })

  it('reads the Error the Wails runtime rejects with: new Error(FormatError JSON)', () => {
    const dto = {kind: 'unavailable', message: 'anthropic: entitlement (HTTP 400)', provider: 'anthropic', reason: 'entitlement',
      code: 'third_party_gate', detail: 'Third-party apps now draw from your extra usage'}
    expect(toAppError(new Error(JSON.stringify(dto)))).toEqual(dto)
    expect(toAppError(new Error(JSON.stringify({kind: 'invalid', message: 'a connector named "x" already exists'})))).toEqual({
      kind: 'invalid', message: 'a connector named "x" already exists',
    })
  })

  it('reads a plain string and a JSON-encoded ErrorDTO', () => {
    expect(toAppError('  disk full ')).toEqual({kind: 'internal', message: 'disk full'})
    expect(toAppError('{"kind":"conflict","message":"data file is locked"}')).toEqual({
      kind: 'conflict',
      message: 'data file is locked',
    })
    expect(toAppError('{not json')).toEqual({kind: 'internal', message: '{not json'})
  })

  it('never returns an empty message', () => {
    for (const v of [undefined, null, '', '   ', {}, {message: ''}, new Error('')]) {
      expect(toAppError(v).message.length).toBeGreaterThan(0)
    }
    expect(toAppError(undefined).message).toBe(FALLBACK_MESSAGE)
    expect(toAppError(42)).toEqual({kind: 'internal', message: '42'})
  })

  it('accepts {error} objects', () => {
    expect(toAppError({error: 'boom'})).toEqual({kind: 'internal', message: 'boom'})
  })

  it('recognises AppErrors', () => {
    expect(isAppError(toAppError('x'))).toBe(true)
    expect(isAppError({kind: 'nope', message: 'x'})).toBe(false)
    expect(isAppError('x')).toBe(false)
  })
})
