import {create} from 'zustand'
import {copyText} from '../api/client'
import {toastError} from './toasts'

export type View = 'chat' | 'accounts' | 'connectors' | 'settings'

interface UIState {
  /** What the main pane shows; the chat is the default. */
  view: View
  /** Bumped to ask the composer to take focus. */
  composerFocus: number
  /** The provider whose API-key form Accounts should open (an error card asked). */
  keyFormFor?: string
  /** Bumped to ask the chat's model picker to open. */
  pickerRequest: number
  /** Bumped to ask the sidebar's search box to take focus (Ctrl+K). */
  searchRequest: number
  /** The About dialog is open. */
  about: boolean
  setView: (view: View) => void
  /** Shows Accounts with provider's API-key form open. */
  openAPIKeyForm: (provider: string) => void
  /** Accounts opened the form it was asked for. */
  keyFormShown: () => void
  openModelPicker: () => void
  requestSearch: () => void
  setAbout: (open: boolean) => void
  focusComposer: () => void
  /** Copies text to the clipboard; reports failure as a toast. */
  copy: (text: string) => Promise<boolean>
}

export const useUI = create<UIState>()((set) => ({
  view: 'chat',
  composerFocus: 0,
  pickerRequest: 0,
  searchRequest: 0,
  about: false,
  setView: (view) => set({view}),
  openAPIKeyForm: (provider) => set({view: 'accounts', keyFormFor: provider}),
  keyFormShown: () => set({keyFormFor: undefined}),
  openModelPicker: () => set((s) => ({view: 'chat', pickerRequest: s.pickerRequest + 1})),
  requestSearch: () => set((s) => ({searchRequest: s.searchRequest + 1})),
  setAbout: (about) => set({about}),
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
