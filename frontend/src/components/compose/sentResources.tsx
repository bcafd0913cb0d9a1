import './compose.css'
import {createContext, useContext, useEffect, useState} from 'react'
import {RefreshCw} from 'lucide-react'
import {create} from 'zustand'
import type {ComposeApi, WirePart} from './composeApi'
import {readDrafts, useDraftAttachments} from './draftAttachments'
import {errorText} from './types'

/**
 * A chat keeps following the resources its sent messages carry (issue 15:
 * "an attached resource the server marks as updated shows an 'updated'
 * badge; the user can refresh it into the next message"). The sent
 * message's chip follows its resource each time the chat is opened (Go's
 * Subscribe asks the server only for the first follower, so following
 * again costs nothing, and a chat opened after a restart follows again),
 * shows "updated" when resource:updated names the chat, and its Refresh
 * reads the resource into the chat's draft.
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

/**
 * The sent chips' calls for one opened chat: follow asks Go once per
 * resource while the chat stays open (a failure, such as a server without
 * subscriptions or a connector turned off, is tried again when a chip
 * carrying the resource is shown again).
 */
export function sentResourceApi(sessionId: string, api: Pick<ComposeApi, 'readResource' | 'subscribe'>): SentResourceApi {
  const followed = new Set<string>()
  return {
    sessionId,
    read: (connectorId, uri) => api.readResource(sessionId, connectorId, uri),
    follow: async (connectorId, uri) => {
      const k = updateKey(connectorId, uri)
      if (followed.has(k)) return
      followed.add(k)
      try {
        await api.subscribe(sessionId, connectorId, uri)
      } catch (e) {
        followed.delete(k)
        throw e
      }
    },
  }
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
    api?.follow(connectorId, uri).catch(() => {}) // not followed: no badge, the chip still names it
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
      setState({busy: false, error: errorText(e)})
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
