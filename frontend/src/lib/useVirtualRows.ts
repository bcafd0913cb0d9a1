import {defaultRangeExtractor, measureElement, observeElementRect, type Range, useVirtualizer, type Virtualizer, type VirtualItem} from '@tanstack/react-virtual'
import {type RefObject, useCallback, useRef} from 'react'

/** A row's height before any row is measured (px); then the average of those measured stands in. */
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
  // The rows measured so far, by element: their average is the estimate of
  // the rows not drawn yet, so the total height (and the scroll bar) is
  // close to the truth and a row drawn above the view moves little.
  const measured = useRef({sizes: new WeakMap<Element, number>(), sum: 0, n: 0})
  const measure = useCallback((el: Element, entry: ResizeObserverEntry | undefined, v: Virtualizer<HTMLDivElement, Element>) => {
    const size = measureElement(el, entry, v)
    const m = measured.current
    const old = m.sizes.get(el)
    if (old === undefined) m.n++
    m.sum += size - (old ?? 0)
    m.sizes.set(el, size)
    return size
  }, [])
  const estimateSize = useCallback(() => (measured.current.n > 0 ? Math.max(24, measured.current.sum / measured.current.n) : ESTIMATED_ROW), [])
  const v = useVirtualizer<HTMLDivElement, Element>({
    count,
    getScrollElement,
    estimateSize,
    measureElement: measure,
    getItemKey: keyOf,
    overscan: OVERSCAN,
    observeElementRect: observeRect,
    rangeExtractor,
  })
  // A row measured above the view keeps what the reader sees in place,
  // except while the view moves up: Home or Page Up (a smooth scroll) must
  // reach where it was going, not be pushed back by each row drawn on the
  // way.
  v.shouldAdjustScrollPositionOnItemSizeChange = adjustUnlessGoingUp
  return v
}

function adjustUnlessGoingUp(item: VirtualItem, _delta: number, v: Virtualizer<HTMLDivElement, Element>): boolean {
  return v.scrollDirection !== 'backward' && item.start < (v.scrollOffset ?? 0)
}
