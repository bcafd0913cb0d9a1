import {useEffect, useRef, useState} from 'react'
import type {CompleteFn} from './types'

/** How long typing pauses before completions are asked for. */
export const COMPLETE_DELAY_MS = 250

/** At most this many completions are shown. */
export const MAX_COMPLETIONS = 8

/**
 * The server's completions for one field as the user types: asked
 * COMPLETE_DELAY_MS after the last keystroke, and only the answer to the
 * latest question is kept (an older one arriving late is dropped). A
 * failure shows no completions; the form still works without them.
 */
export function useCompletions(complete: CompleteFn | undefined, name: string, value: string, context: Record<string, string>, on: boolean) {
  const [values, setValues] = useState<string[]>([])
  const seq = useRef(0)
  const ctxKey = JSON.stringify(context)
  useEffect(() => {
    if (!complete || !on) {
      setValues([])
      return
    }
    const n = ++seq.current
    const t = setTimeout(() => {
      complete(name, value, JSON.parse(ctxKey) as Record<string, string>).then(
        (got) => {
          if (n === seq.current) setValues(got.filter((v) => v !== value).slice(0, MAX_COMPLETIONS))
        },
        () => {
          if (n === seq.current) setValues([])
        },
      )
    }, COMPLETE_DELAY_MS)
    return () => clearTimeout(t)
  }, [complete, name, value, ctxKey, on])
  return values
}
