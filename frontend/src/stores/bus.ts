// News that a store passes up to the stores that import it, so no store
// imports one that imports it back (src/importCycles.test.ts fails on a
// cycle). The stores are layered, lowest first: toasts, ui, bus; runs;
// chat (imports runs); sessions (imports chat); models (imports runs and
// sessions); chatEvents routes the Go side's chat events to all of them.
// A store lower down publishes here; the one above subscribes when its
// module loads.

import type {Session} from '../api/types'

type Listener<T> = (value: T) => void

/** A topic: publish tells every subscriber, in the order they subscribed. */
export interface Topic<T> {
  publish: (value: T) => void
  /** Returns the unsubscribe function. */
  subscribe: (listener: Listener<T>) => () => void
}

function topic<T>(): Topic<T> {
  const listeners = new Set<Listener<T>>()
  return {
    publish: (value) => listeners.forEach((l) => l(value)),
    subscribe: (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
  }
}

/** A session as Go last sent it with a view of its messages (chat → sessions). */
export const sessionSeen: Topic<Session> = topic<Session>()
