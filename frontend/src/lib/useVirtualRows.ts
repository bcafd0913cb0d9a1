import {defaultRangeExtractor, observeElementRect, type Range, useVirtualizer, type Virtualizer} from '@tanstack/react-virtual'
import {type RefObject, useCallback} from 'react'

/** A row's height before it is drawn and measured (px); measured rows keep their own. */
export const ESTIMATED_ROW = 160

/** Rows drawn beyond each edge of the view, so a short scroll meets drawn rows. */
export const OVERSCAN = 6

/** The view height assumed for a container that is not laid out: every row. */
const UNLAID = 1e7

/**
 * The scroll container's size, as the virtualizer sees it. A container that
 * reports no height is not laid out (inside something hidden; jsdom never
 * lays out): there is no view to size a range by, so every row is drawn,
 * as before the list was virtualized, until it has a height.
 */
function observeRect(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: {width: number; height: number}) => void) {
  return observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : {width: rect.width, height: UNLAID}))
}

/**
 * Draws only the rows near the view of scrollRef (issue 14: the list kept
 * every row it had drawn). keyOf names row i across pages and branch
 * switches, so a row measured once keeps its height when a page is put
 * above it. Scrolling to the bottom, keeping the place when a page is
 * prepended and revealing a search hit stay with useStickToBottom and
 * usePrependAnchor, which work on the container's scrollTop and
 * scrollHeight; the virtualizer only decides which rows exist.
 */
export function useVirtualRows(scrollRef: RefObject<HTMLDivElement | null>, count: number, keyOf: (index: number) => string) {
  const getScrollElement = useCallback(() => scrollRef.current, [scrollRef])
  const rangeExtractor = useCallback(
    (range: Range) => {
      const el = scrollRef.current
      if (el && el.clientHeight === 0) return Array.from({length: range.count}, (_, i) => i)
      return defaultRangeExtractor(range)
    },
    [scrollRef],
  )
  return useVirtualizer<HTMLDivElement, Element>({
    count,
    getScrollElement,
    estimateSize: () => ESTIMATED_ROW,
    getItemKey: keyOf,
    overscan: OVERSCAN,
    observeElementRect: observeRect,
    rangeExtractor,
  })
}
