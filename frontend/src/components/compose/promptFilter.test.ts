import {describe, expect, it} from 'vitest'
import {atQuery, filterPrompts, slashQuery} from './promptFilter'
import type {Prompt} from './types'

const p = (name: string, extra: Partial<Prompt> = {}): Prompt => ({connectorId: 'c', server: 'Everything', name, arguments: [], ...extra})

describe('slashQuery', () => {
  it.each([
    ['/', ''],
    ['/sim', 'sim'],
    ['/simple-prompt', 'simple-prompt'],
    ['/sim ple', null],
    ['hello /sim', null],
    ['', null],
    ['//', '/'],
  ])('%j → %j', (text, want) => {
    expect(slashQuery(text)).toBe(want)
  })
})

describe('atQuery', () => {
  it.each([
    ['@', ''],
    ['look at @res', 'res'],
    ['mail@example', null],
    ['@res and more', null],
  ])('%j → %j', (text, want) => {
    expect(atQuery(text)).toBe(want)
  })
})

describe('filterPrompts', () => {
  const list = [
    p('args-prompt', {description: 'A prompt with arguments'}),
    p('simple-prompt', {title: 'Simple'}),
    p('resource-prompt', {description: 'Embeds a simple resource'}),
    p('review', {server: 'Git'}),
  ]
  it.each([
    ['', ['args-prompt', 'simple-prompt', 'resource-prompt', 'review']],
    ['SIM', ['simple-prompt', 'resource-prompt']],
    ['git', ['review']],
    ['prompt arg', ['args-prompt']],
    ['nothing', []],
  ])('%j', (q, want) => {
    expect(filterPrompts(list, q).map((x) => x.name)).toEqual(want)
  })
})
