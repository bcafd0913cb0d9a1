// Which tool cards' MCP Apps have told the model something
// (ui/update-model-context), and whether it still waits for the chat's
// next message or went with one: the backend keeps the text
// (Chat.SetAppContext) and the next send carries it (docs/APPS.md).

import {create} from 'zustand'

export type AppContextState = 'waiting' | 'sent'

interface AppContextsState {
  /** By session, by call id. */
  byCall: Record<string, Record<string, AppContextState>>
  /** A card's context was kept for the next message. */
  keep: (sessionId: string, callId: string) => void
  /** A message was sent: every waiting context of the chat went with it. */
  sent: (sessionId: string) => void
}

export const useAppContexts = create<AppContextsState>()((set) => ({
  byCall: {},
  keep: (sessionId, callId) =>
    set((s) => ({byCall: {...s.byCall, [sessionId]: {...s.byCall[sessionId], [callId]: 'waiting'}}})),
  sent: (sessionId) =>
    set((s) => {
      const calls = s.byCall[sessionId]
      if (!calls) return s
      const next = Object.fromEntries(Object.keys(calls).map((id) => [id, 'sent' as const]))
      return {byCall: {...s.byCall, [sessionId]: next}}
    }),
}))

/** The state of a card's context; undefined when it never told the model anything (or the backend has not kept it yet). */
export function appContextState(s: AppContextsState, sessionId: string, callId: string): AppContextState | undefined {
  return s.byCall[sessionId]?.[callId]
}
