import {useCallback, useEffect, useLayoutEffect, useRef, useState} from 'react'
import {nextStuck, showJumpPill} from './scroll'

/** How long after a wheel, key or touch a scroll counts as the reader's (ms): the first scroll event it causes comes within a frame or two. */
const USER_SCROLL_WINDOW = 400

/** The inputs by which a reader scrolls; a pointer held down on the container is the scroll bar (or a text selection) being dragged. */
const USER_INPUTS = ['wheel', 'keydown', 'touchmove'] as const

/**
 * Keeps a scroll container at the bottom while its content grows, unless
 * the reader scrolled up; then jumpVisible is true until they come back.
 * resetKey (the session) and followKey (e.g. the newest user message)
 * glue the view to the bottom again.
 */
export function useStickToBottom(resetKey: unknown, followKey: unknown) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const contentRef = useRef<HTMLDivElement>(null)
  const stuck = useRef(true)
  const lastTop = useRef(0)
  // When the reader last scrolled by hand, and whether a pointer is held on the view.
  const userAt = useRef(-Infinity)
  const dragging = useRef(false)
  const [jumpVisible, setJumpVisible] = useState(false)

  const toBottom = useCallback(() => {
    const el = scrollRef.current
    if (!el) return
    el.scrollTop = el.scrollHeight
    lastTop.current = el.scrollTop
  }, [])

  useLayoutEffect(() => {
    stuck.current = true
    setJumpVisible(false)
    toBottom()
  }, [resetKey, followKey, toBottom])

  // After every render (a delta, a new card), follow the content if glued.
  useLayoutEffect(() => {
    if (stuck.current) toBottom()
  })

  // Growth without a render: images decoding, sections expanding.
  useEffect(() => {
    const el = contentRef.current
    if (!el || typeof ResizeObserver === 'undefined') return
    const ro = new ResizeObserver(() => {
      if (stuck.current) toBottom()
      else if (scrollRef.current) setJumpVisible(showJumpPill(false, scrollRef.current))
    })
    ro.observe(el)
    return () => ro.disconnect()
  }, [toBottom])

  useEffect(() => {
    const el = scrollRef.current
    if (!el) return
    const input = () => {
      userAt.current = performance.now()
    }
    const down = () => {
      dragging.current = true
    }
    const up = () => {
      dragging.current = false
    }
    for (const t of USER_INPUTS) el.addEventListener(t, input, {passive: true})
    el.addEventListener('pointerdown', down, {passive: true})
    window.addEventListener('pointerup', up, {passive: true})
    window.addEventListener('pointercancel', up, {passive: true})
    return () => {
      for (const t of USER_INPUTS) el.removeEventListener(t, input)
      el.removeEventListener('pointerdown', down)
      window.removeEventListener('pointerup', up)
      window.removeEventListener('pointercancel', up)
    }
  }, [])

  // A scroll the page made while glued (a row above measured smaller, so
  // the list kept its place and scrollTop dropped) is undone, not taken as
  // the reader leaving the bottom.
  const onScroll = useCallback(() => {
    const el = scrollRef.current
    if (!el) return
    const byUser = dragging.current || performance.now() - userAt.current < USER_SCROLL_WINDOW
    stuck.current = nextStuck(stuck.current, lastTop.current, el, byUser)
    if (stuck.current && !byUser) toBottom()
    lastTop.current = el.scrollTop
    setJumpVisible(showJumpPill(stuck.current, el))
  }, [toBottom])

  const jump = useCallback(() => {
    const el = scrollRef.current
    stuck.current = true
    setJumpVisible(false)
    if (!el) return
    if (typeof el.scrollTo === 'function') el.scrollTo({top: el.scrollHeight, behavior: 'smooth'})
    else el.scrollTop = el.scrollHeight
  }, [])

  /** Scrolls row (inside the container) to the middle of the view and stops following the bottom. */
  const reveal = useCallback((row: HTMLElement) => {
    const el = scrollRef.current
    if (!el) return
    stuck.current = false
    const offset = row.getBoundingClientRect().top - el.getBoundingClientRect().top
    el.scrollTop = Math.max(0, el.scrollTop + offset - Math.max(0, (el.clientHeight - row.offsetHeight) / 2))
    lastTop.current = el.scrollTop
    setJumpVisible(showJumpPill(false, el))
  }, [])

  /** Stops following the bottom (something else is about to scroll the view, e.g. to a search hit). */
  const release = useCallback(() => {
    stuck.current = false
  }, [])

  return {scrollRef, contentRef, onScroll, jumpVisible, jump, reveal, release}
}
