import {describe, expect, it} from 'vitest'
import {commandFor, isCommand, runsOverDialogs} from './shortcuts'

const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {}) => ({
  key: k, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods,
})

describe('commandFor', () => {
  it.each([
    [key('n', {ctrlKey: true}), 'new-chat'],
    [key('N', {ctrlKey: true}), 'new-chat'],
    [key('k', {metaKey: true}), 'search'],
    [key(',', {ctrlKey: true}), 'settings'],
    [key('q', {ctrlKey: true}), 'quit'],
    [key('F11'), 'fullscreen'],
  ])('%o → %s', (e, want) => {
    expect(commandFor(e)).toBe(want)
  })

  it.each([
    key('n'),
    key('q', {ctrlKey: true, shiftKey: true}),
    key('k', {ctrlKey: true, altKey: true}),
    key('F11', {ctrlKey: true}),
    key('x', {ctrlKey: true}),
    key('Enter', {ctrlKey: true}),
  ])('%o is no command', (e) => {
    expect(commandFor(e)).toBeUndefined()
  })
})

describe('isCommand', () => {
  it('knows the menu commands and nothing else', () => {
    for (const c of ['new-chat', 'search', 'settings', 'about', 'quit', 'fullscreen']) expect(isCommand(c)).toBe(true)
    for (const c of ['', 'rm -rf', 42, null, undefined]) expect(isCommand(c)).toBe(false)
  })
})

describe('runsOverDialogs', () => {
  it('lets quit and full screen through an open dialog, not the others', () => {
    expect(runsOverDialogs('quit')).toBe(true)
    expect(runsOverDialogs('fullscreen')).toBe(true)
    expect(runsOverDialogs('new-chat')).toBe(false)
    expect(runsOverDialogs('settings')).toBe(false)
  })
})
