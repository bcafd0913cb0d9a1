import {act, fireEvent, screen, waitFor, within} from '@testing-library/react'
import {describe, expect, it} from 'vitest'
import type {Message} from '../api/types'
import {useChat} from '../stores/chat'
import {message, session} from '../test/fakeBackend'
import {renderApp, sessionItem} from '../test/render'

// A long session: Go sends the latest page when it opens and older pages on
// request (EarlierMessages); the list renders what is loaded.

const conversation = (n: number): Message[] =>
  Array.from({length: n}, (_, i) => message(`m${i + 1}`, i + 1, i % 2 ? 'assistant' : 'user', `message ${i + 1}`))

const seqs = () => screen.queryAllByTestId('message').map((e) => Number(e.dataset.seq))

const range = (from: number, to: number) => Array.from({length: to - from + 1}, (_, i) => from + i)

/**
 * Gives the scroll view a layout jsdom does not have: rowHeight px per
 * message row, a clientHeight-high viewport, a scrollTop clamped like a
 * browser's. It starts at the bottom.
 */
function fakeLayout(el: HTMLElement, rowHeight = 300, clientHeight = 500) {
  const height = () => el.querySelectorAll('[data-testid="message"]').length * rowHeight
  let top = height() - clientHeight
  Object.defineProperties(el, {
    clientHeight: {configurable: true, get: () => clientHeight},
    scrollHeight: {configurable: true, get: height},
    scrollTop: {
      configurable: true,
      get: () => top,
      set: (v: number) => {
        top = Math.max(0, Math.min(v, height() - clientHeight))
      },
    },
  })
}

/** The reader scrolls (a wheel turn, then the scroll it makes). */
function scrollTo(el: HTMLElement, top: number) {
  fireEvent.wheel(el)
  el.scrollTop = top
  fireEvent.scroll(el)
}

describe('a long session', () => {
  it('opens on its latest page and loads earlier pages from the button at the top', async () => {
    const {backend, user} = await renderApp({
      sessions: [session('s1', 'Long')],
      messages: {s1: conversation(35)},
      pageSize: 10,
    })
    await waitFor(() => expect(seqs()).toEqual(range(26, 35)))
    const more = screen.getByTestId('load-earlier')
    expect(more).toHaveTextContent('Load earlier messages')

    await user.click(more)
    expect(backend.Sessions.EarlierMessages).toHaveBeenLastCalledWith('s1', 26)
    await waitFor(() => expect(seqs()).toEqual(range(16, 35)))
    await user.click(screen.getByTestId('load-earlier'))
    await waitFor(() => expect(seqs()).toEqual(range(6, 35)))
    await user.click(screen.getByTestId('load-earlier'))
    await waitFor(() => expect(seqs()).toEqual(range(1, 35)))
    expect(backend.Sessions.EarlierMessages).toHaveBeenLastCalledWith('s1', 6)
    expect(screen.queryByTestId('load-earlier')).not.toBeInTheDocument()
  })

  it('loads the page before when the reader scrolls near the top, and keeps their place', async () => {
    const {backend} = await renderApp({
      sessions: [session('s1', 'Long')],
      messages: {s1: conversation(35)},
      pageSize: 10,
    })
    await waitFor(() => expect(seqs()).toEqual(range(26, 35)))
    const view = screen.getByTestId('message-scroll')
    fakeLayout(view) // 10 rows: 3,000 px, at the bottom (2,500)
    scrollTo(view, 2000)
    expect(backend.Sessions.EarlierMessages).not.toHaveBeenCalled()

    scrollTo(view, 100) // 2,900 px from the bottom, within the margin of the top
    await waitFor(() => expect(seqs()).toEqual(range(16, 35)))
    expect(backend.Sessions.EarlierMessages).toHaveBeenCalledTimes(1)
    // 3,000 px were put above: the same rows are still 100 px below the top.
    expect(view.scrollTop).toBe(3100)
    expect(screen.getByTestId('jump-to-latest')).toBeInTheDocument()
  })

  it('does not retry a failed page by itself; the button does', async () => {
    const {backend, user} = await renderApp({
      sessions: [session('s1', 'Long')],
      messages: {s1: conversation(35)},
      pageSize: 10,
    })
    await waitFor(() => expect(seqs()).toEqual(range(26, 35)))
    backend.Sessions.EarlierMessages.mockRejectedValueOnce({kind: 'unavailable', message: 'the data file is busy'})
    const view = screen.getByTestId('message-scroll')
    fakeLayout(view)
    scrollTo(view, 2000)
    scrollTo(view, 100)
    expect(await screen.findByTestId('toast')).toHaveTextContent('the data file is busy')
    scrollTo(view, 50)
    scrollTo(view, 0)
    expect(backend.Sessions.EarlierMessages).toHaveBeenCalledTimes(1)
    expect(seqs()).toEqual(range(26, 35))

    await user.click(screen.getByTestId('load-earlier'))
    await waitFor(() => expect(seqs()).toEqual(range(16, 35)))
    expect(backend.Sessions.EarlierMessages).toHaveBeenCalledTimes(2)
  })

  it('keeps following new messages at the bottom', async () => {
    const {backend} = await renderApp({
      sessions: [session('s1', 'Long')],
      messages: {s1: conversation(35)},
      pageSize: 10,
    })
    await waitFor(() => expect(seqs()).toEqual(range(26, 35)))
    const view = screen.getByTestId('message-scroll')
    fakeLayout(view)
    act(() => backend.emit('message:saved', {runId: 'r', sessionId: 's1', message: message('m36', 36, 'assistant', 'new')}))
    await waitFor(() => expect(seqs()).toEqual(range(26, 36)))
    expect(view.scrollTop).toBe(11 * 300 - 500)
    expect(backend.Sessions.EarlierMessages).not.toHaveBeenCalled()
  })

  it('drops a page that arrives after the user opened another session', async () => {
    const {backend, user} = await renderApp({
      sessions: [session('s1', 'Long', 1), session('s2', 'Short', 2)],
      messages: {s1: conversation(35), s2: conversation(3)},
      pageSize: 10,
    })
    await waitFor(() => expect(seqs()).toEqual(range(26, 35)))
    let deliver: (p: {messages: Message[]; earlierBefore: number}) => void = () => {}
    backend.Sessions.EarlierMessages.mockImplementationOnce(() => new Promise((r) => (deliver = r)))
    await user.click(screen.getByTestId('load-earlier'))
    expect(screen.getByTestId('load-earlier')).toHaveTextContent('Loading earlier messages…')

    await user.click(within(sessionItem('s2')).getByTestId('session-title'))
    await waitFor(() => expect(seqs()).toEqual([1, 2, 3]))
    await act(async () => deliver({messages: conversation(25).slice(15), earlierBefore: 16}))
    expect(seqs()).toEqual([1, 2, 3])
    expect(useChat.getState()).toMatchObject({sessionId: 's2', earlierBefore: 0, loadingEarlier: false})
    expect(screen.queryByTestId('load-earlier')).not.toBeInTheDocument()
  })
})
