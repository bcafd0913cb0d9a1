import {act, screen, waitFor} from '@testing-library/react'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {Message} from '../api/types'
import {useChat} from '../stores/chat'
import {message, session} from '../test/fakeBackend'
import {renderApp} from '../test/render'

// The list draws only the rows near the view (issue 14). jsdom does no
// layout, so this gives the scroll view one: a 600 px viewport, 300 px per
// row slot, a scrollTop clamped like a browser's and a scrollTo that
// scrolls, all installed before the list mounts.

const VIEW = 600
const ROW = 300

const conversation = (n: number): Message[] =>
  Array.from({length: n}, (_, i) => message(`m${i + 1}`, i + 1, i % 2 ? 'assistant' : 'user', `message ${i + 1}`))

const seqs = () => screen.queryAllByTestId('message').map((e) => Number(e.dataset.seq))

const isView = (el: Element) => el instanceof HTMLElement && el.dataset.testid === 'message-scroll'
const contentHeight = (el: Element) => {
  const rows = el.querySelector<HTMLElement>('.message-rows')
  return rows ? Number.parseFloat(rows.style.height) || 0 : 0
}

const saved = new Map<string, PropertyDescriptor | undefined>()
const tops = new WeakMap<Element, number>()

function patch(name: string, desc: PropertyDescriptor) {
  saved.set(name, Object.getOwnPropertyDescriptor(HTMLElement.prototype, name))
  Object.defineProperty(HTMLElement.prototype, name, {configurable: true, ...desc})
}

beforeEach(() => {
  const base = Element.prototype.getBoundingClientRect
  patch('clientHeight', {get: function (this: HTMLElement) { return isView(this) ? VIEW : 0 }})
  patch('offsetHeight', {get: function (this: HTMLElement) { return this.classList.contains('message-slot') ? ROW : 0 }})
  patch('scrollHeight', {get: function (this: HTMLElement) { return isView(this) ? Math.max(VIEW, contentHeight(this)) : 0 }})
  patch('scrollTop', {
    get: function (this: HTMLElement) { return tops.get(this) ?? 0 },
    set: function (this: HTMLElement, v: number) {
      const max = isView(this) ? Math.max(0, Math.max(VIEW, contentHeight(this)) - VIEW) : 0
      const top = Math.max(0, Math.min(v, max))
      if (top === (tops.get(this) ?? 0)) return
      tops.set(this, top)
      // A browser tells the page of the new position a moment later.
      setTimeout(() => this.dispatchEvent(new Event('scroll')), 0)
    },
  })
  patch('scrollTo', {
    value: function (this: HTMLElement, opts: ScrollToOptions) {
      this.scrollTop = opts.top ?? this.scrollTop
    },
  })
  patch('getBoundingClientRect', {
    value: function (this: HTMLElement) {
      const r = base.call(this)
      return isView(this) ? new DOMRect(0, 0, 800, VIEW) : r
    },
  })
})

afterEach(() => {
  for (const [name, desc] of saved) {
    if (desc) Object.defineProperty(HTMLElement.prototype, name, desc)
    else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name]
  }
  saved.clear()
})

describe('the message list is virtualized', () => {
  it('draws only the rows near the view, at the bottom when a long session opens', async () => {
    await renderApp({sessions: [session('s1', 'Long')], messages: {s1: conversation(400)}, pageSize: 400})
    await waitFor(() => expect(seqs()).toContain(400))
    const drawn = seqs()
    expect(drawn.length).toBeGreaterThan(0)
    // The view holds 2 rows; the overscan draws a few more either side.
    expect(drawn.length).toBeLessThan(20)
    expect(useChat.getState().messages).toHaveLength(400)
    const view = screen.getByTestId('message-scroll')
    expect(view.scrollTop).toBe(view.scrollHeight - VIEW)
  })

  it('jumps to a search hit that is not drawn, draws it and marks it', async () => {
    await renderApp({sessions: [session('s1', 'Long')], messages: {s1: conversation(400)}, pageSize: 400})
    await waitFor(() => expect(seqs()).toContain(400))
    expect(seqs()).not.toContain(10)
    act(() => useChat.setState({focusSeq: 10}))
    await waitFor(() => expect(document.querySelector('[data-testid="message"][data-seq="10"]')).toHaveAttribute('data-found', 'true'))
    expect(seqs()).not.toContain(400)
    expect(screen.getByTestId('jump-to-latest')).toBeInTheDocument()
  })
})
