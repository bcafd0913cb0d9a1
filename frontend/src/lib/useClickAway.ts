import {type KeyboardEvent, type RefObject, useEffect} from 'react'

/**
 * While active, a mouse press outside ref's element calls onAway: how a
 * popover or menu closes when the user clicks elsewhere.
 */
export function useClickAway(ref: RefObject<HTMLElement | null>, active: boolean, onAway: () => void) {
  useEffect(() => {
    if (!active) return
    function onDown(e: MouseEvent) {
      if (ref.current && !ref.current.contains(e.target as Node)) onAway()
    }
    document.addEventListener('mousedown', onDown)
    return () => document.removeEventListener('mousedown', onDown)
  }, [ref, active, onAway])
}

/** A keydown handler that closes an open popover on Escape, the key going no further (not to the chat's Stop). */
export function escapeCloses(open: boolean, close: () => void) {
  return (e: KeyboardEvent) => {
    if (e.key === 'Escape' && open) {
      e.stopPropagation()
      close()
    }
  }
}
