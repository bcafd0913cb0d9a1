import {useCallback, useState} from 'react'

/** How many values are kept in all; the least recently set go first. */
export const MAX_KEPT = 2000

const kept = new Map<string, unknown>()

function keep(key: string, value: unknown) {
  kept.delete(key)
  kept.set(key, value)
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value as string)
}

/**
 * useState whose value outlives the component, by key: the virtualized
 * message list drops rows that scroll out of view, and a row drawn again
 * (a tool card opened, a resource link read) comes back as the reader left
 * it. Without a key it is plain useState.
 */
export function useKept<T>(key: string | undefined, initial: T): [T, (next: T | ((prev: T) => T)) => void] {
  const [value, setValue] = useState<T>(() => (key !== undefined && kept.has(key) ? (kept.get(key) as T) : initial))
  const set = useCallback(
    (next: T | ((prev: T) => T)) =>
      setValue((prev) => {
        const v = typeof next === 'function' ? (next as (p: T) => T)(prev) : next
        if (key !== undefined) keep(key, v)
        return v
      }),
    [key],
  )
  return [value, set]
}

/** Forgets every kept value (tests). */
export function forgetKept() {
  kept.clear()
}
