import {type RefObject, useLayoutEffect} from 'react'

/**
 * Grows a textarea with its text up to maxLines lines, then scrolls. Runs
 * whenever text changes; the element's line height and padding decide the
 * size, so CSS stays the single source of the look.
 */
export function useAutoGrow(ref: RefObject<HTMLTextAreaElement | null>, text: string, maxLines: number) {
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    const style = getComputedStyle(el)
    const line = parseFloat(style.lineHeight) || 22
    const pad = (parseFloat(style.paddingTop) || 0) + (parseFloat(style.paddingBottom) || 0)
    el.style.height = 'auto'
    const max = line * maxLines + pad
    el.style.height = `${Math.min(el.scrollHeight, max)}px`
    el.style.overflowY = el.scrollHeight > max ? 'auto' : 'hidden'
  }, [ref, text, maxLines])
}
