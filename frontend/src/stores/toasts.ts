import {create} from 'zustand'
import {toAppError} from '../api/errors'

export type ToastTone = 'error' | 'info' | 'success'

export interface Toast {
  id: number
  tone: ToastTone
  /** A short summary such as "Couldn't rename the chat". */
  title?: string
  message: string
}

/** At most this many toasts are shown; older ones make way. */
export const MAX_TOASTS = 4

interface ToastState {
  toasts: Toast[]
  push: (t: Omit<Toast, 'id'>) => number
  dismiss: (id: number) => void
  clear: () => void
}

let nextId = 1

export const useToasts = create<ToastState>()((set) => ({
  toasts: [],
  push: (t) => {
    const id = nextId++
    set((s) => {
      // The same failure twice in a row shows once.
      const rest = s.toasts.filter((x) => !(x.title === t.title && x.message === t.message))
      return {toasts: [...rest, {...t, id}].slice(-MAX_TOASTS)}
    })
    return id
  },
  dismiss: (id) => set((s) => ({toasts: s.toasts.filter((t) => t.id !== id)})),
  clear: () => set({toasts: []}),
}))

/** Shows a failure (any rejection value) as an error toast. */
export function toastError(err: unknown, title?: string): void {
  const e = toAppError(err)
  useToasts.getState().push({tone: 'error', title, message: e.message})
}
