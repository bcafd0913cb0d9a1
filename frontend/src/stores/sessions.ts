import {create} from 'zustand'
import {api, onSessionsChanged} from '../api/client'
import type {Session} from '../api/types'
import {sessionSeen} from './bus'
import {useChat} from './chat'
import {toastError} from './toasts'
import {useUI} from './ui'

interface SessionsState {
  /** Most recently active first, as the backend orders them. */
  sessions: Session[]
  loaded: boolean
  activeId: string | null
  load: () => Promise<void>
  /** Shows a chat; with at, scrolled to that message (a search hit). */
  select: (id: string, opts?: {focus?: boolean; at?: number}) => Promise<void>
  create: () => Promise<Session | null>
  rename: (id: string, title: string) => Promise<void>
  remove: (id: string) => Promise<void>
  /** Replaces a session with a fresher copy from Go (e.g. after a model switch). */
  put: (session: Session) => void
}

// Only the newest load may write the list, so a slow reply cannot undo a
// newer one.
let loadSeq = 0

/** The session to show after id is deleted: the next one down, else the one above. */
export function neighbourOf(sessions: readonly Session[], id: string): string | null {
  const i = sessions.findIndex((s) => s.id === id)
  if (i === -1) return sessions[0]?.id ?? null
  return sessions[i + 1]?.id ?? sessions[i - 1]?.id ?? null
}

export const useSessions = create<SessionsState>()((set, get) => ({
  sessions: [],
  loaded: false,
  activeId: null,

  load: async () => {
    const seq = ++loadSeq
    try {
      const sessions = await api.listSessions()
      if (seq === loadSeq) set({sessions, loaded: true})
    } catch (err) {
      if (seq === loadSeq) set({loaded: true})
      toastError(err, "Couldn't load your chats")
    }
  },

  select: async (id, opts = {}) => {
    const ui = useUI.getState()
    ui.setView('chat')
    if (opts.focus !== false && !opts.at) ui.focusComposer()
    if (get().activeId === id && useChat.getState().sessionId === id && !opts.at) return
    set({activeId: id})
    await useChat.getState().open(id, opts.at)
  },

  create: async () => {
    try {
      const session = await api.createSession('')
      set((s) => ({sessions: [session, ...s.sessions.filter((x) => x.id !== session.id)]}))
      await get().select(session.id)
      return session
    } catch (err) {
      toastError(err, "Couldn't start a new chat")
      return null
    }
  },

  rename: async (id, title) => {
    const t = title.trim()
    const before = get().sessions.find((s) => s.id === id)
    if (!before || t === '' || t === before.title) return
    const put = (s: Session) => set((st) => ({sessions: st.sessions.map((x) => (x.id === id ? s : x))}))
    put({...before, title: t})
    try {
      put(await api.renameSession(id, t))
    } catch (err) {
      const now = get().sessions.find((s) => s.id === id)
      if (now && now.title === t) put({...now, title: before.title})
      toastError(err, "Couldn't rename the chat")
    }
  },

  put: (session) =>
    set((s) => ({
      sessions: s.sessions.some((x) => x.id === session.id)
        ? s.sessions.map((x) => (x.id === session.id ? {...x, ...session} : x))
        : s.sessions,
    })),

  remove: async (id) => {
    try {
      await api.deleteSession(id)
    } catch (err) {
      toastError(err, "Couldn't delete the chat")
      return
    }
    const next = neighbourOf(get().sessions, id)
    const wasActive = get().activeId === id
    set((s) => ({sessions: s.sessions.filter((x) => x.id !== id)}))
    useChat.getState().dropDraft(id)
    if (!wasActive) return
    if (next) {
      await get().select(next, {focus: false})
    } else {
      set({activeId: null})
      useChat.getState().close()
    }
  },
}))

/** Reloads the list whenever Go says sessions changed; returns the unsubscribe. */
export function syncSessions(): () => void {
  return onSessionsChanged(() => {
    void useSessions.getState().load()
  })
}

// Chat shows sessions as Go sends them with their messages: keep the list's copy current.
sessionSeen.subscribe((session) => useSessions.getState().put(session))
