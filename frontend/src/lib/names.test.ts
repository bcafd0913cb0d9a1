import {describe, expect, it} from 'vitest'
import {hasForeignChars, nameSegments, plainName} from './names'
import {formatBytes} from './size'

describe('tool names', () => {
  it('marks each character outside printable ASCII', () => {
    expect(nameSegments('get_d\u0430ta')).toEqual([
      {text: 'get_d'},
      {text: '\u0430', foreign: true, code: 'U+0430'},
      {text: 'ta'},
    ])
    expect(plainName('get_d\u0430ta')).toBe('get_d[U+0430]ta')
    expect(hasForeignChars('get_data')).toBe(false)
    expect(hasForeignChars('get-data')).toBe(false)
    expect(hasForeignChars('send\u200breport')).toBe(true) // a zero-width space
    expect(plainName('😀x')).toBe('[U+1F600]x')
  })
})

describe('formatBytes', () => {
  it('says sizes as Go notes do, in powers of 1024', () => {
    expect(formatBytes(512)).toBe('512 bytes')
    expect(formatBytes(32 * 1024)).toBe('32 KB')
    expect(formatBytes(1536 * 1024)).toBe('1.5 MB')
    expect(formatBytes(50 * 1024 * 1024)).toBe('50 MB')
    expect(formatBytes(undefined)).toBe('')
  })
})
