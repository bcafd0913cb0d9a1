import {create} from 'zustand'
import {
  type Connector,
  onConnectorEvents,
  onToolsChanged,
  type SessionConnector,
  type SessionTools,
  type ToolsChangedEvent,
  toolsApi,
} from '../api/connectors'
import type {ApprovalPolicy} from '../api/contract.gen'
import {trustApi} from '../api/trust'
import {toastError} from './toasts'

interface ToolsState {
  /** The session whose Tools panel is open, or null when it is closed. */
  openFor: string | null
  /** The chat on screen, whose Tools button shows how many tools it uses. */
  shownFor: string | null
  /** The open (or else shown) session's tools; null until loaded. */
  data: SessionTools | null
  loading: boolean
  error: string | null
  /** Connector ids expanded to their tools. */
  expanded: Record<string, boolean>
  /** Toggles in flight, by connector id or canonical tool name. */
  pending: Record<string, boolean>
  open: (sessionId: string) => void
  close: () => void
  /** The chat on screen changed: load its tools for the Tools button's count. */
  show: (sessionId: string | null) => void
  load: (sessionId: string, opts?: {quiet?: boolean}) => Promise<void>
  toggleExpanded: (connectorId: string) => void
  setConnector: (connectorId: string, on: boolean) => Promise<void>
  setTool: (canonical: string, on: boolean) => Promise<void>
  /** This chat's approval policy for a connector's tools; undefined follows the connector's. */
  setChatApproval: (connectorId: string, policy: ApprovalPolicy | undefined) => Promise<void>
  addFolder: () => Promise<void>
  removeFolder: (path: string) => Promise<void>
  handleChanged: (ev: ToolsChangedEvent) => void
  handleState: (c: Connector) => void
}

function withPending(p: Record<string, boolean>, key: string, on: boolean): Record<string, boolean> {
  const next = {...p}
  if (on) next[key] = true
  else delete next[key]
  return next
}

function mapConnectors(data: SessionTools, fn: (c: SessionConnector) => SessionConnector): SessionTools {
  return {...data, connectors: data.connectors.map(fn)}
}

export const useTools = create<ToolsState>()((set, get) => {
  // Loads are numbered so that an older answer never replaces a newer one.
  let seq = 0

  /** The session whose tools are kept: the panel's, else the chat on screen. */
  const current = () => get().openFor ?? get().shownFor

  /** Keeps the revision monotonic: answers and events may cross. */
  const bump = (sessionId: string, revision: number) =>
    set((s) =>
      s.data && s.data.sessionId === sessionId && revision > s.data.revision ? {data: {...s.data, revision}} : s,
    )

  return {
    openFor: null,
    shownFor: null,
    data: null,
    loading: false,
    error: null,
    expanded: {},
    pending: {},

    open: (sessionId) => {
      if (get().openFor === sessionId) return
      set({openFor: sessionId, data: get().data?.sessionId === sessionId ? get().data : null, error: null})
      void get().load(sessionId)
    },

    close: () => set({openFor: null}),

    show: (sessionId) => {
      if (get().shownFor === sessionId) return
      set({shownFor: sessionId})
      if (sessionId && get().openFor === null) void get().load(sessionId, {quiet: true})
    },

    load: async (sessionId, {quiet = false} = {}) => {
      const n = ++seq
      if (!quiet) set({loading: true, error: null})
      try {
        const data = await toolsApi.sessionTools(sessionId)
        if (n !== seq || current() !== sessionId) return
        const cur = get().data
        const revision = cur?.sessionId === sessionId ? Math.max(cur.revision, data.revision) : data.revision
        set({data: {...data, revision}, loading: false, error: null})
      } catch (err) {
        if (n !== seq) return
        const message = (err as {message?: string}).message ?? 'Something went wrong.'
        set({loading: false, error: quiet && get().data ? get().error : message})
      }
    },

    toggleExpanded: (id) => set((s) => ({expanded: {...s.expanded, [id]: !s.expanded[id]}})),

    setConnector: async (connectorId, on) => {
      // The open panel's chat, else the chat on screen (the composer's
      // one-click "turn on" works with the panel closed).
      const sessionId = current()
      const data = get().data
      if (!sessionId || !data || data.sessionId !== sessionId || get().pending[connectorId]) return
      const flip = (v: boolean) =>
        set((s) => ({
          data: s.data && mapConnectors(s.data, (c) => (c.id === connectorId ? {...c, enabledInSession: v} : c)),
        }))
      flip(on)
      set((s) => ({pending: withPending(s.pending, connectorId, true)}))
      try {
        bump(sessionId, await toolsApi.setConnector(sessionId, connectorId, on))
      } catch (err) {
        flip(!on)
        toastError(err, on ? "Couldn't turn the connector on for this chat" : "Couldn't turn the connector off for this chat")
      } finally {
        set((s) => ({pending: withPending(s.pending, connectorId, false)}))
      }
    },

    setTool: async (canonical, on) => {
      const sessionId = get().openFor
      if (!sessionId || !get().data || get().pending[canonical]) return
      const flip = (v: boolean) =>
        set((s) => ({
          data:
            s.data &&
            mapConnectors(s.data, (c) => ({
              ...c,
              tools: c.tools.map((t) => (t.canonical === canonical ? {...t, enabled: v} : t)),
            })),
        }))
      flip(on)
      set((s) => ({pending: withPending(s.pending, canonical, true)}))
      try {
        bump(sessionId, await toolsApi.setTool(sessionId, canonical, on))
      } catch (err) {
        flip(!on)
        toastError(err, on ? "Couldn't turn the tool on" : "Couldn't turn the tool off")
      } finally {
        set((s) => ({pending: withPending(s.pending, canonical, false)}))
      }
    },

    setChatApproval: async (connectorId, policy) => {
      const sessionId = get().openFor
      if (!sessionId || !get().data || get().pending[`policy:${connectorId}`]) return
      const put = (v: ApprovalPolicy | undefined) =>
        set((s) => ({
          data: s.data && mapConnectors(s.data, (c) => (c.id === connectorId ? {...c, chatApproval: v} : c)),
        }))
      const was = get().data?.connectors.find((c) => c.id === connectorId)?.chatApproval
      put(policy)
      set((s) => ({pending: withPending(s.pending, `policy:${connectorId}`, true)}))
      try {
        await trustApi.setSessionApproval(sessionId, connectorId, policy ?? '')
      } catch (err) {
        put(was)
        toastError(err, "Couldn't change how this chat approves the connector's tools")
      } finally {
        set((s) => ({pending: withPending(s.pending, `policy:${connectorId}`, false)}))
      }
    },

    addFolder: async () => {
      const sessionId = get().openFor
      const data = get().data
      if (!sessionId || !data) return
      try {
        const path = await toolsApi.pickFolder()
        if (!path) return
        const roots = await toolsApi.setRoots(sessionId, [...data.roots, path])
        set((s) => (s.data?.sessionId === sessionId ? {data: {...s.data, roots}} : s))
      } catch (err) {
        toastError(err, "Couldn't add the folder")
      }
    },

    removeFolder: async (path) => {
      const sessionId = get().openFor
      const data = get().data
      if (!sessionId || !data) return
      try {
        const roots = await toolsApi.setRoots(
          sessionId,
          data.roots.filter((r) => r !== path),
        )
        set((s) => (s.data?.sessionId === sessionId ? {data: {...s.data, roots}} : s))
      } catch (err) {
        toastError(err, "Couldn't remove the folder")
      }
    },

    handleChanged: (ev) => {
      if (ev.sessionId !== current()) return
      bump(ev.sessionId, ev.revision)
      // A server's tool list may have changed: refresh without a spinner.
      if (Object.keys(get().pending).length === 0) void get().load(ev.sessionId, {quiet: true})
    },

    handleState: (c) => {
      const data = get().data
      const sessionId = current()
      if (!sessionId || !data) return
      if (!data.connectors.some((x) => x.id === c.id)) {
        void get().load(sessionId, {quiet: true})
        return
      }
      const wasReady = data.connectors.find((x) => x.id === c.id)?.state === 'ready'
      set((s) => ({
        data:
          s.data &&
          mapConnectors(s.data, (x) =>
            x.id === c.id ? {...x, state: c.state, error: c.error, toolCount: c.state === 'ready' ? c.toolCount : x.toolCount} : x,
          ),
      }))
      // Ready again (or for the first time): its tool list may be new.
      if (c.state === 'ready' && !wasReady) void get().load(sessionId, {quiet: true})
    },
  }
})

/** Applies tools:changed and connector:state events to the open panel; returns the unsubscribe. */
export function syncTools(): () => void {
  const offTools = onToolsChanged((ev) => useTools.getState().handleChanged(ev))
  const offState = onConnectorEvents({state: (c) => useTools.getState().handleState(c)})
  return () => {
    offTools()
    offState()
  }
}
