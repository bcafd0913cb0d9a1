import {create} from 'zustand'
import {copyText} from '../api/client'
import {toastError} from './toasts'

export type View = 'chat' | 'accounts' | 'connectors' | 'settings'

interface UIState {
  /** What the main pane shows; the chat is the default. */
  view: View
  /** Bumped to ask the composer to take focus. */
  composerFocus: number
  setView: (view: View) => void
  focusComposer: () => void
  /** Copies text to the clipboard; reports failure as a toast. */
  copy: (text: string) => Promise<boolean>
}

export const useUI = create<UIState>()((set) => ({
  view: 'chat',
  composerFocus: 0,
  setView: (view) => set({view}),
  focusComposer: () => set((s) => ({composerFocus: s.composerFocus + 1})),
  copy: async (text) => {
    try {
      await copyText(text)
      return true
    } catch (err) {
      toastError(err, "Couldn't copy to the clipboard")
      return false
    }
  },
}))
