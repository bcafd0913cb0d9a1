import {describe, expect, it} from 'vitest'
import {displayModeFor, linkToOpen, MAX_CONTEXT, MAX_DRAFT, messageDraft, modelContext, toolCallOf} from './policy'

describe('messageDraft', () => {
  it.each([
    ['a user text', {role: 'user', content: [{type: 'text', text: 'hello'}]}, {ok: true, value: 'hello'}],
    ['several blocks', {role: 'user', content: [{type: 'text', text: 'a'}, {type: 'image', data: 'x'}, {type: 'text', text: 'b'}]},
      {ok: true, value: 'a\n\nb'}],
    ['one block, not a list', {role: 'user', content: {type: 'text', text: 'one'}}, {ok: true, value: 'one'}],
    ['an assistant message', {role: 'assistant', content: [{type: 'text', text: 'x'}]}, {ok: false, reason: 'only user messages are supported'}],
    ['no text', {role: 'user', content: [{type: 'image', data: 'x'}]}, {ok: false, reason: 'the message has no text'}],
    ['too long', {role: 'user', content: [{type: 'text', text: 'x'.repeat(MAX_DRAFT + 1)}]}, {ok: false, reason: 'the message is over 32 KiB'}],
  ])('%s', (_, params, want) => {
    expect(messageDraft(params)).toEqual(want)
  })
})

describe('linkToOpen', () => {
  it.each([
    ['https', 'https://example.com/a?b=1', true],
    ['http', 'http://example.com', true],
    ['mailto', 'mailto:a@example.com', true],
    ['javascript', 'javascript:alert(1)', false],
    ['file', 'file:///etc/passwd', false],
    ['wails', 'wails://wails/', false],
    ['credentials', 'https://user:pw@example.com', false],
    ['not a URL', 'not a url', false],
    ['not a string', 7, false],
  ])('%s', (_, url, ok) => {
    expect(linkToOpen({url}).ok).toBe(ok)
  })
})

describe('modelContext', () => {
  it('keeps text and structured content', () => {
    expect(modelContext({content: [{type: 'text', text: 'picked 3'}], structuredContent: {n: 3}})).toEqual({
      ok: true,
      value: {text: 'picked 3', structured: '{"n":3}'},
    })
  })
  it('refuses an empty or oversized update', () => {
    expect(modelContext({}).ok).toBe(false)
    expect(modelContext({content: [{type: 'text', text: 'x'.repeat(MAX_CONTEXT + 1)}]}).ok).toBe(false)
  })
})

describe('displayModeFor', () => {
  it.each([
    ['fullscreen, offered', 'fullscreen', 'inline', undefined, 'fullscreen'],
    ['back inline', 'inline', 'fullscreen', ['inline', 'fullscreen'], 'inline'],
    ['pip is not offered', 'pip', 'inline', ['pip'], 'inline'],
    ['the app did not declare it', 'fullscreen', 'inline', ['inline'], 'inline'],
    ['garbage', 42, 'inline', undefined, 'inline'],
  ] as const)('%s', (_, requested, current, appModes, want) => {
    expect(displayModeFor(requested, current, appModes)).toBe(want)
  })
})

describe('toolCallOf', () => {
  it('accepts a name and an object', () => {
    expect(toolCallOf({name: 'get-time', arguments: {a: 1}})).toEqual({ok: true, value: {name: 'get-time', args: {a: 1}}})
    expect(toolCallOf({name: 'get-time'})).toEqual({ok: true, value: {name: 'get-time', args: {}}})
  })
  it.each([
    ['no name', {arguments: {}}],
    ['array arguments', {name: 't', arguments: [1]}],
    ['string arguments', {name: 't', arguments: 'x'}],
  ])('refuses %s', (_, params) => {
    expect(toolCallOf(params).ok).toBe(false)
  })
})
