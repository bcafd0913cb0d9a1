import {create} from 'zustand'
import {api} from '../api/client'
import {toAppError} from '../api/errors'
import type {Message} from '../api/types'
import {canSend, type Drafts, getDraft, removeDraft, setDraft} from '../lib/drafts'
import {prependPage, removeMessage, upsertMessage} from '../lib/messages'
import {useRuns} from './runs'
import {useSessions} from './sessions'
import {toastError} from './toasts'

export type LoadState = 'idle' | 'loading' | 'ready' | 'error'

interface ChatState {
  /** The session whose messages are loaded (or loading). */
  sessionId: string | null
  /** The session's latest messages: Go sends a page at a time, older pages on request. */
  messages: Message[]
  load: LoadState
  /** When not 0, older messages exist: the seq to pass to EarlierMessages. */
  earlierBefore: number
  loadingEarlier: boolean
  /** The last fetch of an earlier page failed: only the user asks again. */
  earlierFailed: boolean
  /** Sessions with a message on its way to the backend. */
  sending: Readonly<Record<string, boolean>>
  drafts: Drafts
  open: (sessionId: string) => Promise<void>
  close: () => void
  /**
   * Fetches the page before the loaded messages, if there is one. auto is
   * set when scrolling asked rather than the user; it does not retry a
   * failed fetch, which would otherwise repeat as long as the view is near
   * the top.
   */
  loadEarlier: (auto?: boolean) => Promise<void>
  setDraft: (sessionId: string, text: string) => void
  dropDraft: (sessionId: string) => void
  send: (sessionId: string, text: string) => Promise<boolean>
  /** A message Go stored (message:saved); kept if its session is open. */
  receive: (sessionId: string, message: Message) => void
}

function place(messages: readonly Message[], m: Message): Message[] {
  return m.status === 'superseded' ? removeMessage(messages, m.id) : upsertMessage(messages, m)
}

// Bumped by open and close, so a page that arrives after the user moved on
// (even back to the same session) is dropped.
let generation = 0

export const useChat = create<ChatState>()((set, get) => ({
  sessionId: null,
  messages: [],
  load: 'idle',
  earlierBefore: 0,
  loadingEarlier: false,
  earlierFailed: false,
  sending: {},
  drafts: {},

  open: async (sessionId) => {
    generation++
    set({sessionId, messages: [], load: 'loading', earlierBefore: 0, loadingEarlier: false, earlierFailed: false})
    useRuns.getState().prune(sessionId)
    try {
      const view = await api.openSession(sessionId)
      if (get().sessionId !== sessionId) return // the user moved on
      // Messages saved while the session loaded arrived as events; keep them.
      const arrived = get().messages
      let messages = [...view.messages].sort((a, b) => a.seq - b.seq)
      for (const m of arrived) messages = place(messages, m)
      set({messages, load: 'ready', earlierBefore: view.earlierBefore ?? 0})
      if (view.session?.id) useSessions.getState().put(view.session)
      await useRuns.getState().restore(sessionId)
    } catch (err) {
      if (get().sessionId !== sessionId) return
      set({load: 'error'})
      toastError(err, "Couldn't open the chat")
    }
  },

  close: () => {
    generation++
    set({sessionId: null, messages: [], load: 'idle', earlierBefore: 0, loadingEarlier: false, earlierFailed: false})
  },

  loadEarlier: async (auto = false) => {
    const {sessionId, earlierBefore, loadingEarlier, earlierFailed, load} = get()
    if (!sessionId || !earlierBefore || loadingEarlier || load !== 'ready' || (auto && earlierFailed)) return
    const mine = generation
    set({loadingEarlier: true})
    try {
      const page = await api.earlierMessages(sessionId, earlierBefore)
      if (mine !== generation) return
      set((s) => ({
        messages: prependPage(s.messages, page.messages),
        earlierBefore: page.earlierBefore ?? 0,
        earlierFailed: false,
      }))
    } catch (err) {
      if (mine !== generation) return
      set({earlierFailed: true})
      toastError(err, "Couldn't load earlier messages")
    } finally {
      if (mine === generation) set({loadingEarlier: false})
    }
  },

  setDraft: (sessionId, text) => set((s) => ({drafts: setDraft(s.drafts, sessionId, text)})),

  dropDraft: (sessionId) => set((s) => ({drafts: removeDraft(s.drafts, sessionId)})),

  send: async (sessionId, text) => {
    const runs = useRuns.getState()
    if (!canSend(text) || get().sending[sessionId] || runs.active[sessionId]) return false
    runs.setNotice(sessionId, null)
    set((s) => ({
      drafts: removeDraft(s.drafts, sessionId),
      sending: {...s.sending, [sessionId]: true},
    }))
    try {
      const {runId, message} = await api.sendMessage(sessionId, text)
      if (get().sessionId === sessionId) set((s) => ({messages: upsertMessage(s.messages, message)}))
      if (runId) useRuns.getState().begin(sessionId, runId)
      return true
    } catch (err) {
      // Give the text back unless the user has started a new one.
      if (getDraft(get().drafts, sessionId) === '') get().setDraft(sessionId, text)
      const e = toAppError(err)
      if (e.kind === 'auth_required') useRuns.getState().setNotice(sessionId, e)
      else toastError(e, "Couldn't send the message")
      return false
    } finally {
      set((s) => {
        const sending = {...s.sending}
        delete sending[sessionId]
        return {sending}
      })
    }
  },

  receive: (sessionId, message) => {
    if (get().sessionId !== sessionId) return
    set((s) => ({messages: place(s.messages, message)}))
  },
}))
