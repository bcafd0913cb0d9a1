import {create} from 'zustand'
import {api} from '../api/client'
import type {KeychainStatus, Status} from '../api/types'
import {useSessions} from './sessions'
import {toastError} from './toasts'

export type Phase = 'loading' | 'ready' | 'store-error'

interface AppState {
  phase: Phase
  status: Status | null
  keychain: KeychainStatus | null
  init: () => Promise<void>
  loadKeychain: () => Promise<void>
}

let started = false

export const useAppStore = create<AppState>()((set) => ({
  phase: 'loading',
  status: null,
  keychain: null,

  // Status first: with a store error nothing else can work. Otherwise load
  // the sessions and reopen the last one (or the newest) before showing the
  // shell, so it appears complete.
  init: async () => {
    if (started) return
    started = true
    let status: Status
    try {
      status = await api.status()
    } catch (err) {
      toastError(err, "Couldn't reach Maestro's backend")
      set({phase: 'ready'})
      return
    }
    set({status})
    if (status.storeError) {
      set({phase: 'store-error'})
      return
    }
    const sessions = useSessions.getState()
    await sessions.load()
    const list = useSessions.getState().sessions
    const last = status.lastSessionId
    const target = last && list.some((s) => s.id === last) ? last : list[0]?.id
    if (target) await sessions.select(target)
    set({phase: 'ready'})
  },

  loadKeychain: async () => {
    try {
      set({keychain: await api.keychainStatus()})
    } catch (err) {
      toastError(err, "Couldn't check the keychain")
    }
  },
}))

/** For tests: lets init run again. */
export function resetAppInit(): void {
  started = false
}
