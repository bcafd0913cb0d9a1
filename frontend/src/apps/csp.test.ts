import {describe, expect, it} from 'vitest'
import {buildCsp, safeOrigins} from './csp'

describe('buildCsp', () => {
  it('is restrictive when the resource declares nothing', () => {
    const csp = buildCsp(undefined)
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("connect-src 'none'")
    expect(csp).toContain("frame-src 'none'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).not.toContain("'self'")
  })

  it('maps each declared list to its directives', () => {
    const csp = buildCsp({
      connectDomains: ['https://api.example.com', 'wss://rt.example.com'],
      resourceDomains: ['https://cdn.example.com'],
      frameDomains: ['https://www.youtube.com'],
    })
    expect(csp).toContain('connect-src https://api.example.com wss://rt.example.com')
    expect(csp).toContain("script-src 'unsafe-inline' https://cdn.example.com")
    expect(csp).toContain('img-src data: blob: https://cdn.example.com')
    expect(csp).toContain('frame-src https://www.youtube.com')
  })

  it.each([
    ['a directive smuggled in', 'https://a.example.com; script-src *'],
    ['a keyword', "'unsafe-eval'"],
    ['everything', '*'],
    ['a scheme', 'data:'],
    ['a path', 'https://a.example.com/x'],
    ['not a string', 42],
  ])('drops %s', (_, entry) => {
    expect(safeOrigins([entry])).toEqual([])
    expect(buildCsp({connectDomains: [entry as string]})).toContain("connect-src 'none'")
  })
})
