import {create} from 'zustand'
import {
  type Connector,
  type ConnectorInput,
  type ConnectorLogEvent,
  connectorsApi,
  type ImportReport,
  type LogLine,
  onConnectorEvents,
  type TestResult,
} from '../api/connectors'
import {type AppError, toAppError} from '../api/errors'
import {toastError, useToasts} from './toasts'

/** The action running on a connector card, to disable its buttons. */
export type ConnectorBusy = 'toggle' | 'restart' | 'delete' | 'signin' | 'signout'

/** At most this many log lines are kept per open log drawer. */
export const MAX_LOG_LINES = 500

interface ConnectorsState {
  loaded: boolean
  /** Sorted by name, as Go sends them. */
  connectors: Connector[]
  busy: Record<string, ConnectorBusy>
  /** The connector whose logs drawer is open, and its lines. */
  logsFor: string | null
  logs: LogLine[]
  load: () => Promise<void>
  /** Adds or edits; resolves with the connector, or rejects with an AppError for the form. */
  save: (input: ConnectorInput) => Promise<Connector>
  test: (input: ConnectorInput) => Promise<TestResult>
  remove: (id: string) => Promise<boolean>
  setEnabled: (id: string, on: boolean) => Promise<void>
  /** Whether new chats start with the connector on (Settings). */
  setNewChats: (id: string, on: boolean) => Promise<void>
  restart: (id: string) => Promise<void>
  signIn: (id: string) => Promise<void>
  cancelSignIn: (id: string) => Promise<void>
  signOut: (id: string) => Promise<void>
  /** Picks a file and imports it; resolves with the report, or null when cancelled or failed. */
  importFile: () => Promise<ImportReport | null>
  exportFile: () => Promise<void>
  openLogs: (id: string) => Promise<void>
  closeLogs: () => void
  /** Applies a connector:state event. */
  handleState: (c: Connector) => void
  /** A bound call's answer (SetApproval): the connector's config and state as Go has them now. */
  put: (c: Connector) => void
  /** Applies a connector:log event. */
  handleLog: (ev: ConnectorLogEvent) => void
}

function byName(a: Connector, b: Connector): number {
  return a.name.localeCompare(b.name) || a.id.localeCompare(b.id)
}

/** The fields a connector:state event updates; the config comes with saves and loads. */
function live(c: Connector): Partial<Connector> {
  const {state, toolCount, error, stderrTail, needsSignIn, nextRetry, restarts, server, protocol, since, version} = c
  return {state, toolCount, error, stderrTail, needsSignIn, nextRetry, restarts, server, protocol, since, version}
}

/**
 * Puts c in the list. Its live state replaces the one there only if it is
 * not older (version): a bound call's answer and a connector:state event
 * can cross, and a failure reported within a millisecond of a save must not
 * be overwritten by the save's earlier "starting".
 */
function upsert(list: Connector[], c: Connector): Connector[] {
  const i = list.findIndex((x) => x.id === c.id)
  if (i < 0) return [...list, c].sort(byName)
  const prev = list[i]
  const next = [...list]
  next[i] = (c.version ?? 0) >= (prev.version ?? 0) ? c : {...c, ...live(prev)}
  return next.sort(byName)
}

export const useConnectors = create<ConnectorsState>()((set, get) => {
  const setBusy = (id: string, b: ConnectorBusy | null) =>
    set((s) => {
      const busy = {...s.busy}
      if (b) busy[id] = b
      else delete busy[id]
      return {busy}
    })

  async function action(id: string, b: ConnectorBusy, title: string, fn: () => Promise<void>) {
    setBusy(id, b)
    try {
      await fn()
    } catch (err) {
      toastError(err, title)
    } finally {
      setBusy(id, null)
    }
  }

  // A state event for a connector the list does not have yet (added
  // elsewhere, e.g. by an import) reloads the list once.
  let reloading = false

  return {
    loaded: false,
    connectors: [],
    busy: {},
    logsFor: null,
    logs: [],

    load: async () => {
      try {
        const connectors = await connectorsApi.list()
        set((s) => ({connectors: connectors.reduce(upsert, s.connectors.filter((x) => connectors.some((c) => c.id === x.id))), loaded: true}))
      } catch (err) {
        set({loaded: true})
        toastError(err, "Couldn't load the connectors")
      }
    },

    save: async (input) => {
      const c = await connectorsApi.save(input)
      set((s) => ({connectors: upsert(s.connectors, c)}))
      return c
    },

    test: (input) => connectorsApi.test(input),

    remove: async (id) => {
      setBusy(id, 'delete')
      try {
        await connectorsApi.remove(id)
        set((s) => ({connectors: s.connectors.filter((c) => c.id !== id), logsFor: s.logsFor === id ? null : s.logsFor}))
        return true
      } catch (err) {
        toastError(err, "Couldn't delete the connector")
        return false
      } finally {
        setBusy(id, null)
      }
    },

    setEnabled: async (id, on) => {
      const prev = get().connectors.find((c) => c.id === id)
      if (!prev) return
      set((s) => ({connectors: upsert(s.connectors, {...prev, enabled: on})}))
      await action(id, 'toggle', on ? "Couldn't turn the connector on" : "Couldn't turn the connector off", async () => {
        try {
          const c = await connectorsApi.setEnabled(id, on)
          set((s) => ({connectors: upsert(s.connectors, c)}))
        } catch (err) {
          set((s) => ({connectors: upsert(s.connectors, {...(s.connectors.find((x) => x.id === id) ?? prev), enabled: prev.enabled})}))
          throw err
        }
      })
    },

    setNewChats: async (id, on) => {
      const prev = get().connectors.find((c) => c.id === id)
      if (!prev) return
      set((s) => ({connectors: upsert(s.connectors, {...prev, newChats: on})}))
      try {
        const c = await connectorsApi.setNewChats(id, on)
        set((s) => ({connectors: upsert(s.connectors, c)}))
      } catch (err) {
        set((s) => ({connectors: upsert(s.connectors, {...(s.connectors.find((x) => x.id === id) ?? prev), newChats: prev.newChats})}))
        toastError(err, "Couldn't change the connectors for new chats")
      }
    },

    restart: (id) => action(id, 'restart', "Couldn't restart the connector", () => connectorsApi.restart(id)),

    signIn: (id) => action(id, 'signin', "Couldn't sign in", () => connectorsApi.signIn(id)),

    cancelSignIn: async (id) => {
      try {
        await connectorsApi.cancelSignIn(id)
      } catch (err) {
        if (toAppError(err).kind !== 'not_found') toastError(err, "Couldn't cancel the sign-in")
      }
    },

    signOut: (id) => action(id, 'signout', "Couldn't sign out", () => connectorsApi.signOut(id)),

    importFile: async () => {
      try {
        const path = await connectorsApi.pickImportFile()
        if (!path) return null
        const report = await connectorsApi.importFile(path)
        await get().load()
        return report
      } catch (err) {
        toastError(err, "Couldn't import the servers")
        return null
      }
    },

    exportFile: async () => {
      try {
        const path = await connectorsApi.pickExportFile()
        if (!path) return
        const n = await connectorsApi.exportFile(path)
        useToasts.getState().push({
          tone: 'success',
          title: `Exported ${n} connector${n === 1 ? '' : 's'}`,
          message: `${path} holds their env and header values: keep it private.`,
        })
      } catch (err) {
        toastError(err, "Couldn't export the connectors")
      }
    },

    openLogs: async (id) => {
      set({logsFor: id, logs: []})
      try {
        const lines = await connectorsApi.logs(id)
        if (get().logsFor !== id) return
        // Lines that arrived by event while loading are in the snapshot too.
        set({logs: lines.slice(-MAX_LOG_LINES)})
      } catch (err) {
        toastError(err, "Couldn't load the connector's log")
      }
    },

    closeLogs: () => set({logsFor: null, logs: []}),

    handleState: (c) => {
      const known = get().connectors.some((x) => x.id === c.id)
      if (!known) {
        // A connector being added: its state counts from now (a failure can
        // come before SaveConnector answers); its config is fetched with the
        // list, which keeps this state unless it has a newer one.
        if (get().loaded) set((s) => ({connectors: upsert(s.connectors, c)}))
        if (!get().loaded || reloading) return
        reloading = true
        void get()
          .load()
          .finally(() => {
            reloading = false
          })
        return
      }
      set((s) => ({connectors: upsert(s.connectors, {...s.connectors.find((x) => x.id === c.id)!, ...live(c)})}))
    },

    put: (c) => set((s) => ({connectors: upsert(s.connectors, c)})),

    handleLog: (ev) => {
      if (get().logsFor !== ev.id) return
      set((s) => {
        const last = s.logs[s.logs.length - 1]
        if (last && last.time === ev.line.time && last.text === ev.line.text && last.source === ev.line.source) return s
        return {logs: [...s.logs, ev.line].slice(-MAX_LOG_LINES)}
      })
    },
  }
})

/** Applies connector:state and connector:log events; returns the unsubscribe. */
export function syncConnectors(): () => void {
  return onConnectorEvents({
    state: (c) => useConnectors.getState().handleState(c),
    log: (ev) => useConnectors.getState().handleLog(ev),
  })
}

/** What a state badge says. */
export function stateLabel(c: Pick<Connector, 'state' | 'toolCount' | 'enabled' | 'needsSignIn'>): string {
  if (!c.enabled) return 'Off'
  switch (c.state) {
    case 'ready':
      return `Ready · ${c.toolCount} tool${c.toolCount === 1 ? '' : 's'}`
    case 'starting':
      return 'Starting'
    case 'restarting':
      return 'Restarting'
    case 'error':
      return c.needsSignIn ? 'Sign-in needed' : 'Error'
    default:
      return 'Stopped'
  }
}

export type {AppError}
