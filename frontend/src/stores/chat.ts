import {create} from 'zustand'
import {api} from '../api/client'
import type {Message} from '../api/types'
import {canSend, type Drafts, getDraft, removeDraft, setDraft} from '../lib/drafts'
import {upsertMessage} from '../lib/messages'
import {toastError} from './toasts'

export type LoadState = 'idle' | 'loading' | 'ready' | 'error'

interface ChatState {
  /** The session whose messages are loaded (or loading). */
  sessionId: string | null
  messages: Message[]
  load: LoadState
  /** Sessions with a message on its way to the backend. */
  sending: Readonly<Record<string, boolean>>
  drafts: Drafts
  open: (sessionId: string) => Promise<void>
  close: () => void
  setDraft: (sessionId: string, text: string) => void
  dropDraft: (sessionId: string) => void
  send: (sessionId: string, text: string) => Promise<boolean>
}

export const useChat = create<ChatState>()((set, get) => ({
  sessionId: null,
  messages: [],
  load: 'idle',
  sending: {},
  drafts: {},

  open: async (sessionId) => {
    set({sessionId, messages: [], load: 'loading'})
    try {
      const view = await api.openSession(sessionId)
      if (get().sessionId !== sessionId) return // the user moved on
      set({messages: [...view.messages].sort((a, b) => a.seq - b.seq), load: 'ready'})
    } catch (err) {
      if (get().sessionId !== sessionId) return
      set({load: 'error'})
      toastError(err, "Couldn't open the chat")
    }
  },

  close: () => set({sessionId: null, messages: [], load: 'idle'}),

  setDraft: (sessionId, text) => set((s) => ({drafts: setDraft(s.drafts, sessionId, text)})),

  dropDraft: (sessionId) => set((s) => ({drafts: removeDraft(s.drafts, sessionId)})),

  send: async (sessionId, text) => {
    if (!canSend(text) || get().sending[sessionId]) return false
    set((s) => ({
      drafts: removeDraft(s.drafts, sessionId),
      sending: {...s.sending, [sessionId]: true},
    }))
    try {
      const message = await api.sendMessage(sessionId, text)
      if (get().sessionId === sessionId) set((s) => ({messages: upsertMessage(s.messages, message)}))
      return true
    } catch (err) {
      // Give the text back unless the user has started a new one.
      if (getDraft(get().drafts, sessionId) === '') get().setDraft(sessionId, text)
      toastError(err, "Couldn't send the message")
      return false
    } finally {
      set((s) => {
        const sending = {...s.sending}
        delete sending[sessionId]
        return {sending}
      })
    }
  },
}))
