// Events from the Go side, typed by the generated contract: every name is
// one of its Event* constants and every payload the DTO Go sends with it
// (app/events.go lists them; app's tests check what is emitted).

import {EventsOn} from '../../wailsjs/runtime/runtime'
import type {EventName, EventPayloads} from './contract.gen'

/** One event: its name and what it carries. */
export type EventOf<K extends EventName> = {name: K; payload: EventPayloads[K]}

/** Any one of the events named in Names, told apart by name. */
export type OneOf<Names extends readonly EventName[]> = {[K in Names[number]]: EventOf<K>}[Names[number]]

function hasRuntime(): boolean {
  return typeof window !== 'undefined' && !!(window as {runtime?: unknown}).runtime
}

/** Subscribes cb to the event name; returns the unsubscribe function. */
export function on<K extends EventName>(name: K, cb: (payload: EventPayloads[K]) => void): () => void {
  if (!hasRuntime()) return () => {}
  return EventsOn(name, (payload: EventPayloads[K]) => cb(payload))
}

/** Subscribes cb to every event of names (a group of the contract); returns the unsubscribe function. */
export function onEach<const Names extends readonly EventName[]>(names: Names, cb: (e: OneOf<Names>) => void): () => void {
  const offs = names.map((name) => on(name, (payload) => cb({name, payload} as OneOf<Names>)))
  return () => offs.forEach((off) => off())
}
