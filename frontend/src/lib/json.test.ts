import {describe, expect, it} from 'vitest'
import {formatJson, isEmptyJson, prettyJson} from './json'

describe('prettyJson', () => {
  it('keeps short values on one line', () => {
    expect(prettyJson('{"a":1,"b":[true,null]}')).toEqual({text: '{"a": 1, "b": [true, null]}', json: true})
    expect(prettyJson('"x"')).toEqual({text: '"x"', json: true})
  })

  it('breaks long values one item per line, nested ones only as needed', () => {
    const v = {from: 'LIS', to: 'OPO', dates: ['2025-06-16', '2025-06-22'], cabin: 'economy', max_results: 20, x: 1}
    expect(formatJson(v)).toBe(
      '{\n  "from": "LIS",\n  "to": "OPO",\n  "dates": ["2025-06-16", "2025-06-22"],\n  "cabin": "economy",\n  "max_results": 20,\n  "x": 1\n}',
    )
    const deep = {items: [{name: 'a'.repeat(40), size: 1}, {name: 'b'.repeat(40), size: 2}]}
    expect(formatJson(deep)).toBe(
      `{\n  "items": [\n    {"name": "${'a'.repeat(40)}", "size": 1},\n    {"name": "${'b'.repeat(40)}", "size": 2}\n  ]\n}`,
    )
    expect(formatJson({a: [], b: {}}, 0, 4)).toBe('{\n  "a": [],\n  "b": {}\n}')
  })

  it('round-trips', () => {
    const v = {s: 'q"uote\\n', n: -1.5e3, t: true, z: null, arr: [[1, 2], {k: 'v'}], long: 'x'.repeat(100)}
    expect(JSON.parse(formatJson(v))).toEqual(v)
  })

  it('keeps partial or plain text as it is', () => {
    expect(prettyJson('{"city": "Lis')).toEqual({text: '{"city": "Lis', json: false})
    expect(prettyJson('  plain words ')).toEqual({text: 'plain words', json: false})
    expect(prettyJson(undefined)).toEqual({text: '', json: false})
  })

  it('knows empty arguments', () => {
    expect(isEmptyJson('')).toBe(true)
    expect(isEmptyJson(' {} ')).toBe(true)
    expect(isEmptyJson('null')).toBe(true)
    expect(isEmptyJson('{"a":1}')).toBe(false)
  })
})
