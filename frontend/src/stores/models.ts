import {create} from 'zustand'
import {chatApi} from '../api/client'
import type {ProviderModels} from '../api/types'
import {useRuns} from './runs'
import {useSessions} from './sessions'
import {toastError} from './toasts'

interface ModelsState {
  providers: ProviderModels[]
  loaded: boolean
  /** Reloads the catalog (credentials may have changed in Accounts). */
  load: () => Promise<void>
  /** Switches sessionId to provider/model; true when it worked. */
  choose: (sessionId: string, provider: string, model: string) => Promise<boolean>
}

let loadSeq = 0

export const useModels = create<ModelsState>()((set) => ({
  providers: [],
  loaded: false,

  load: async () => {
    const seq = ++loadSeq
    try {
      const providers = await chatApi.listModels()
      if (seq === loadSeq) set({providers, loaded: true})
    } catch {
      // The picker shows what it had; the next open tries again.
      if (seq === loadSeq) set({loaded: true})
    }
  },

  choose: async (sessionId, provider, model) => {
    try {
      const session = await chatApi.setSessionModel(sessionId, provider, model)
      useSessions.getState().put(session)
      useRuns.getState().setNotice(sessionId, null)
      return true
    } catch (err) {
      toastError(err, "Couldn't switch the model")
      return false
    }
  },
}))

/** The display name of a model ("Claude Sonnet 4.5"), or its id. */
export function modelName(providers: readonly ProviderModels[], provider?: string, model?: string): string {
  if (!model) return ''
  const p = providers.find((x) => x.provider === provider)
  return p?.models.find((m) => m.id === model)?.name || model
}
