import {type RefObject, useCallback, useLayoutEffect, useRef} from 'react'
import {keepFromBottom} from './scroll'

/**
 * Keeps what the reader sees in place when older rows are put above it
 * (a page of earlier messages): without this the view would stay at the
 * same scrollTop and show the new rows instead. firstSeq is the seq of the
 * first row; a smaller one within the same resetKey (the session) is a
 * prepend. Call the returned function from the scroll handler.
 *
 * WebKitGTK has no CSS scroll anchoring, so this is done by hand: the
 * distance from the bottom is recorded after every commit and scroll, and
 * restored in the layout effect of the commit that prepended, before paint.
 */
export function usePrependAnchor(scrollRef: RefObject<HTMLElement | null>, resetKey: unknown, firstSeq: number | undefined) {
  const fromBottom = useRef<number | null>(null)
  const prev = useRef<{key: unknown; first: number | undefined}>({key: resetKey, first: firstSeq})

  useLayoutEffect(() => {
    const el = scrollRef.current
    if (!el) return
    const p = prev.current
    if (p.key === resetKey && p.first !== undefined && firstSeq !== undefined && firstSeq < p.first && fromBottom.current !== null) {
      el.scrollTop = keepFromBottom(el.scrollHeight, fromBottom.current)
    }
    prev.current = {key: resetKey, first: firstSeq}
    fromBottom.current = el.scrollHeight - el.scrollTop
  })

  return useCallback(() => {
    const el = scrollRef.current
    if (el) fromBottom.current = el.scrollHeight - el.scrollTop
  }, [scrollRef])
}
