import {describe, expect, it} from 'vitest'
import {
  hintBadges,
  isModernProtocol,
  isPunycode,
  mayDestroy,
  pickIcon,
  safeIconSrc,
  taskFraction,
  toJsonLines,
  urlDomain,
  type AuditRecord,
  type ToolHints,
} from './trust'

const png = 'data:image/png;base64,iVBORw0KGgo='

describe('safeIconSrc', () => {
  it.each([
    [png, true],
    ['data:image/svg+xml;utf8,<svg xmlns="http://www.w3.org/2000/svg"/>', true],
    ['https://example.com/icon.png', true],
    ['  https://example.com/icon.png  ', true],
    ['http://example.com/icon.png', false],
    ['https://user:pw@example.com/icon.png', false],
    ['javascript:alert(1)', false],
    ['file:///etc/passwd', false],
    ['/icon.png', false],
    ['data:text/html;base64,PGgxPg==', false],
    [`data:image/png;base64,${'A'.repeat(70 * 1024)}`, false],
    [`https://example.com/${'a'.repeat(2100)}`, false],
  ])('%s → %s', (src, want) => {
    expect(safeIconSrc(src)).toBe(want)
  })
})

describe('pickIcon', () => {
  const dark = {src: 'https://e.com/dark.png', theme: 'dark', sizes: ['32x32']}
  const light = {src: 'https://e.com/light.png', theme: 'light', sizes: ['16x16']}
  const big = {src: 'https://e.com/big.png', sizes: ['128x128']}
  const any = {src: 'https://e.com/any.svg', sizes: ['any']}
  const unsafe = {src: 'http://e.com/x.png', sizes: ['16x16']}
  it.each([
    ['theme first', [dark, light], 'light', 16, light.src],
    ['the dark one on dark', [dark, light], 'dark', 16, dark.src],
    ['smallest that fits', [big, any, {src: png, sizes: ['24x24']}], 'light', 20, png],
    ['falls back to a smaller one', [light], 'light', 64, light.src],
    ['other theme when none of this one', [dark], 'light', 16, dark.src],
    ['unsafe ones never', [unsafe], 'light', 16, undefined],
    ['none', undefined, 'light', 16, undefined],
  ] as const)('%s', (_, icons, theme, px, want) => {
    expect(pickIcon(icons as never, theme, px)?.src).toBe(want)
  })
})

describe('hintBadges', () => {
  it.each<[string, ToolHints | undefined, boolean, string[]]>([
    ['none stated', {}, false, []],
    ['none stated, presumed destructive', {}, true, ['destructive']],
    ['read-only never destructive', {readOnlyHint: true, destructiveHint: true}, true, ['read-only']],
    ['all four', {destructiveHint: true, idempotentHint: true, openWorldHint: true}, false, ['destructive', 'idempotent', 'open-world']],
    ['not destructive', {destructiveHint: false}, true, []],
    ['false hints show nothing', {readOnlyHint: false, idempotentHint: false, openWorldHint: false}, false, []],
  ])('%s', (_, hints, presume, want) => {
    expect(hintBadges(hints, {presumeDestructive: presume}).map((b) => b.key)).toEqual(want)
  })

  it('words a presumed one differently from a claimed one', () => {
    expect(hintBadges({}, {presumeDestructive: true})[0].label).toBe('May destroy')
    expect(hintBadges({destructiveHint: true})[0].label).toBe('Destructive')
  })
})

describe('mayDestroy', () => {
  it.each<[ToolHints | undefined, boolean]>([
    [undefined, true],
    [{}, true],
    [{readOnlyHint: true}, false],
    [{destructiveHint: false}, false],
    [{readOnlyHint: false, destructiveHint: true}, true],
  ])('%j → %s', (h, want) => {
    expect(mayDestroy(h)).toBe(want)
  })
})

describe('urlDomain and isPunycode', () => {
  it.each([
    ['https://example.com/a?b=c', 'example.com', false],
    ['https://EXAMPLE.com', 'example.com', false],
    ['https://xn--pple-43d.com/login', 'xn--pple-43d.com', true],
    ['https://sub.xn--80ak6aa92e.com', 'sub.xn--80ak6aa92e.com', true],
    ['not a url', '', false],
  ])('%s', (url, domain, puny) => {
    expect(urlDomain(url)).toBe(domain)
    expect(isPunycode(domain)).toBe(puny)
  })
})

describe('taskFraction', () => {
  it.each([
    [undefined, undefined],
    ['task working', undefined],
    ['task working: 40% done', 0.4],
    ['task working: step 3 of 4', 0.75],
    ['task working: 2/8 sources', 0.25],
    ['150%', 1],
    ['0/0', undefined],
  ])('%s → %s', (msg, want) => {
    expect(taskFraction(msg)).toBe(want)
  })
})

describe('isModernProtocol', () => {
  it.each([
    ['2026-07-28', true],
    ['2026-11-30', true],
    ['2025-11-25', false],
    ['2024-11-05', false],
    ['', false],
    [undefined, false],
    ['latest', false],
  ])('%s → %s', (v, want) => {
    expect(isModernProtocol(v)).toBe(want)
  })
})

describe('toJsonLines', () => {
  it('writes one compact record a line', () => {
    const r: AuditRecord = {
      time: '2026-11-25T10:00:00Z',
      sessionId: 's1',
      connectorId: 'c1',
      connector: 'Files',
      tool: 'delete',
      callId: 'k1',
      arguments: {path: '/tmp/x'},
      approvedBy: 'user',
      how: 'allow_once',
      outcome: 'ok',
      durationMs: 12,
    }
    const got = toJsonLines([r, {...r, callId: 'k2'}])
    expect(got.split('\n')).toHaveLength(3)
    expect(JSON.parse(got.split('\n')[1]).callId).toBe('k2')
    expect(toJsonLines([])).toBe('')
  })
})
