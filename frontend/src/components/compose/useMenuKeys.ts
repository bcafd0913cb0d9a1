import {type KeyboardEvent, useEffect, useState} from 'react'

/**
 * Arrow keys, Enter, Tab and Escape for a menu that opens over a text box
 * which keeps the focus: onKeyDown returns true when it handled the key
 * (the text box then does nothing else with it). The highlight goes back
 * to the first item whenever the items change.
 */
export function useMenuKeys(count: number, resetKey: unknown, pick: (i: number) => void, close: () => void) {
  const [active, setActive] = useState(0)
  useEffect(() => setActive(0), [resetKey, count])
  function onKeyDown(e: KeyboardEvent): boolean {
    switch (e.key) {
      case 'ArrowDown':
        if (count === 0) return false
        setActive((a) => (a + 1) % count)
        break
      case 'ArrowUp':
        if (count === 0) return false
        setActive((a) => (a - 1 + count) % count)
        break
      case 'Enter':
      case 'Tab':
        if (count === 0 || e.shiftKey) return false
        pick(Math.min(active, count - 1))
        break
      case 'Escape':
        close()
        break
      default:
        return false
    }
    e.preventDefault()
    return true
  }
  return {active, setActive, onKeyDown}
}
