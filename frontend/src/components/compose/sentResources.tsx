import './compose.css'
import {createContext, useContext, useEffect, useState} from 'react'
import {RefreshCw} from 'lucide-react'
import {create} from 'zustand'
import type {WirePart} from './composeApi'
import {readDrafts, useDraftAttachments} from './draftAttachments'

/**
 * A chat keeps following the resources its sent messages carry (issue 15:
 * "an attached resource the server marks as updated shows an 'updated'
 * badge; the user can refresh it into the next message"). The sent
 * message's chip follows its resource once per run of the app (Go's
 * Subscribe asks the server only for the first follower, so a chat opened
 * again costs nothing), shows "updated" when resource:updated names the
 * chat, and its Refresh reads the resource into the chat's draft.
 */

/** What a chat's sent chips need from Go, for the chat on screen. */
export interface SentResourceApi {
  sessionId: string
  /** resources/read, as resource parts. */
  read: (connectorId: string, uri: string) => Promise<WirePart[]>
  /** Follows the resource for updates (resource:updated). */
  follow: (connectorId: string, uri: string) => Promise<void>
}

/** Provided around a chat's messages; without it a sent chip only names its resource. */
export const SentResourceContext = createContext<SentResourceApi | null>(null)

const updateKey = (connectorId: string, uri: string) => `${connectorId}\n${uri}`

interface SentUpdatesState {
  /** session id → the resources (connector, URI) the server changed since they were sent or refreshed. */
  bySession: Readonly<Record<string, Readonly<Record<string, true>>>>
  mark: (connectorId: string, uri: string, sessionIds: string[]) => void
  clear: (sessionId: string, connectorId: string, uri: string) => void
}

export const useSentUpdates = create<SentUpdatesState>((set) => ({
  bySession: {},
  mark: (connectorId, uri, sessionIds) =>
    set((s) => {
      const next = {...s.bySession}
      for (const id of sessionIds) next[id] = {...next[id], [updateKey(connectorId, uri)]: true}
      return {bySession: next}
    }),
  clear: (sessionId, connectorId, uri) =>
    set((s) => {
      const cur = s.bySession[sessionId]
      if (!cur?.[updateKey(connectorId, uri)]) return s
      const rest = {...cur}
      delete rest[updateKey(connectorId, uri)]
      return {bySession: {...s.bySession, [sessionId]: rest}}
    }),
}))

// The (session, connector, URI) followed in this run of the app; a failed
// follow (a server without subscriptions, a connector turned off) is tried
// again the next time the chip is shown.
const followed = new Set<string>()

/** Forgets what was followed (tests). */
export function resetFollowed() {
  followed.clear()
}

function message(e: unknown): string {
  return e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e)
}

/**
 * The live part of a sent resource's chip: it follows the resource, and
 * when the server says it changed shows "updated" with a Refresh that puts
 * the fresh read in the chat's draft (replacing an older read there).
 */
export function SentResourceUpdate({connectorId, uri, label}: {connectorId: string; uri: string; label: string}) {
  const api = useContext(SentResourceContext)
  const sessionId = api?.sessionId ?? ''
  const updated = useSentUpdates((s) => !!s.bySession[sessionId]?.[updateKey(connectorId, uri)])
  const [state, setState] = useState<{busy: boolean; error?: string}>({busy: false})

  useEffect(() => {
    if (!api) return
    const k = `${api.sessionId}\n${updateKey(connectorId, uri)}`
    if (followed.has(k)) return
    followed.add(k)
    api.follow(connectorId, uri).catch(() => followed.delete(k))
  }, [api, connectorId, uri])

  if (!api || (!updated && !state.error)) return null
  async function refresh() {
    setState({busy: true})
    try {
      const drafts = readDrafts(await api!.read(connectorId, uri), label)
      if (drafts.length === 0) throw new Error('The server sent nothing for this resource.')
      useDraftAttachments.getState().add(sessionId, drafts)
      useSentUpdates.getState().clear(sessionId, connectorId, uri)
      setState({busy: false})
    } catch (e) {
      setState({busy: false, error: message(e)})
    }
  }
  return (
    <>
      {updated && (
        <>
          <span className="compose-chip-badge" data-testid="sent-updated" title="The server changed this resource since it was sent">
            updated
          </span>
          <button
            type="button"
            className="compose-chip-btn sent-refresh"
            data-testid="sent-refresh"
            disabled={state.busy}
            aria-label={`Read ${label} again into the next message`}
            title="Read it again into the next message"
            onClick={() => void refresh()}
          >
            <RefreshCw size={12} aria-hidden="true" className={state.busy ? 'spin' : undefined} />
            Refresh
          </button>
        </>
      )}
      {state.error && (
        <span className="sent-refresh-error" role="alert" data-testid="sent-refresh-error" title={state.error}>
          {state.error}
        </span>
      )}
    </>
  )
}
