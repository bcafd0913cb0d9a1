import {create} from 'zustand'
import {api, chatApi} from '../api/client'
import {toAppError} from '../api/errors'
import {useAppContexts} from './appContexts'
import type {DraftPartDTO} from '../api/contract.gen'
import type {Message} from '../api/types'
import {canSend, type Drafts, getDraft, removeDraft, setDraft} from '../lib/drafts'
import {afterEdit, endsMidTurn, prependPage, removeMessage, upsertMessage} from '../lib/messages'
import {sessionSeen} from './bus'
import {useRuns} from './runs'
import {toastError} from './toasts'

export type LoadState = 'idle' | 'loading' | 'ready' | 'error'

interface ChatState {
  /** The session whose messages are loaded (or loading). */
  sessionId: string | null
  /** The session's latest messages: Go sends a page at a time, older pages on request. */
  messages: Message[]
  load: LoadState
  /**
   * The open session stopped mid-turn when it was loaded, with no reply
   * running: the app was killed before the model answered. Cleared as soon
   * as a message is sent or arrives.
   */
  midTurn: boolean
  /** When not 0, older messages exist: the seq to pass to EarlierMessages. */
  earlierBefore: number
  loadingEarlier: boolean
  /** The last fetch of an earlier page failed: only the user asks again. */
  earlierFailed: boolean
  /** Sessions with a message (new or edited) on its way to the backend. */
  sending: Readonly<Record<string, boolean>>
  /** Sessions switching to another branch. */
  switching: Readonly<Record<string, boolean>>
  drafts: Drafts
  /** Opens a session; with at, down to that message (a search hit), which then becomes focusSeq. */
  open: (sessionId: string, at?: number) => Promise<void>
  /** A message the list should scroll to and mark once it is drawn; 0 for none. */
  focusSeq: number
  clearFocus: () => void
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
  /** Sends text with the draft's attachments (files and resources). */
  send: (sessionId: string, text: string, attachments?: DraftPartDTO[]) => Promise<boolean>
  /**
   * Sends text as a new version of the user message seq and starts its
   * reply. Once Go has stored it, the edited message and what followed it
   * leave the view (they stay stored, on their own branch).
   */
  editAndResend: (sessionId: string, seq: number, text: string) => Promise<boolean>
  /** Shows the branch through the message seq (another version of an edited message). */
  switchBranch: (sessionId: string, seq: number) => Promise<void>
  /** A message Go stored (message:saved); kept if its session is open. */
  receive: (sessionId: string, message: Message) => void
}

const without = (rec: Readonly<Record<string, boolean>>, key: string) => {
  const next = {...rec}
  delete next[key]
  return next
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
  midTurn: false,
  focusSeq: 0,
  earlierBefore: 0,
  loadingEarlier: false,
  earlierFailed: false,
  sending: {},
  switching: {},
  drafts: {},

  open: async (sessionId, at) => {
    generation++
    set({sessionId, messages: [], load: 'loading', midTurn: false, focusSeq: 0, earlierBefore: 0, loadingEarlier: false, earlierFailed: false})
    useRuns.getState().prune(sessionId)
    try {
      const view = at ? await api.openSessionAt(sessionId, at) : await api.openSession(sessionId)
      if (get().sessionId !== sessionId) return // the user moved on
      // Messages saved while the session loaded arrived as events; keep them.
      const arrived = get().messages
      let messages = [...view.messages].sort((a, b) => a.seq - b.seq)
      for (const m of arrived) messages = place(messages, m)
      set({messages, load: 'ready', earlierBefore: view.earlierBefore ?? 0, focusSeq: at ?? 0})
      if (view.session?.id) sessionSeen.publish(view.session)
      await useRuns.getState().restore(sessionId, () => (get().sessionId === sessionId ? get().messages : null))
      if (get().sessionId === sessionId && !useRuns.getState().active[sessionId] && endsMidTurn(get().messages)) set({midTurn: true})
    } catch (err) {
      if (get().sessionId !== sessionId) return
      set({load: 'error'})
      toastError(err, "Couldn't open the chat")
    }
  },

  clearFocus: () => set({focusSeq: 0}),

  close: () => {
    generation++
    set({sessionId: null, messages: [], load: 'idle', midTurn: false, earlierBefore: 0, loadingEarlier: false, earlierFailed: false})
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

  send: async (sessionId, text, attachments = []) => {
    const runs = useRuns.getState()
    if (!canSend(text) || get().sending[sessionId] || runs.active[sessionId]) return false
    runs.setNotice(sessionId, null)
    set((s) => ({
      drafts: removeDraft(s.drafts, sessionId),
      sending: {...s.sending, [sessionId]: true},
      midTurn: false,
    }))
    try {
      const {runId, message} = await api.sendMessage(sessionId, text, attachments)
      useAppContexts.getState().sent(sessionId) // the apps' waiting contexts went with it
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
      set((s) => ({sending: without(s.sending, sessionId)}))
    }
  },

  editAndResend: async (sessionId, seq, text) => {
    const runs = useRuns.getState()
    const busy = get().sending[sessionId] || get().switching[sessionId] || runs.active[sessionId]
    if (!canSend(text) || busy) return false
    runs.setNotice(sessionId, null)
    set((s) => ({sending: {...s.sending, [sessionId]: true}, midTurn: false}))
    try {
      const {runId, message} = await chatApi.editAndResend(sessionId, seq, text)
      if (get().sessionId === sessionId) set((s) => ({messages: afterEdit(s.messages, seq, message)}))
      if (runId) useRuns.getState().begin(sessionId, runId)
      return true
    } catch (err) {
      const e = toAppError(err)
      if (e.kind === 'auth_required') useRuns.getState().setNotice(sessionId, e)
      else toastError(e, "Couldn't send the edited message")
      return false
    } finally {
      set((s) => ({sending: without(s.sending, sessionId)}))
    }
  },

  switchBranch: async (sessionId, seq) => {
    const busy = get().sending[sessionId] || get().switching[sessionId] || useRuns.getState().active[sessionId]
    if (busy) return
    set((s) => ({switching: {...s.switching, [sessionId]: true}}))
    try {
      const view = await chatApi.switchBranch(sessionId, seq)
      if (get().sessionId === sessionId) {
        generation++ // a page of the branch left behind must not land
        const messages = [...view.messages].sort((a, b) => a.seq - b.seq)
        set({messages, midTurn: endsMidTurn(messages), earlierBefore: view.earlierBefore ?? 0, loadingEarlier: false, earlierFailed: false})
      }
      if (view.session?.id) sessionSeen.publish(view.session)
      // A failed turn of the branch left behind is not this branch's.
      useRuns.getState().forgetFailure(sessionId)
    } catch (err) {
      toastError(err, "Couldn't show that version")
    } finally {
      set((s) => ({switching: without(s.switching, sessionId)}))
    }
  },

  receive: (sessionId, message) => {
    if (get().sessionId !== sessionId) return
    set((s) => ({messages: place(s.messages, message), midTurn: false}))
  },
}))
