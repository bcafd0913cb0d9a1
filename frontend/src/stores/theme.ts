import {create} from 'zustand'
import {settingsApi, windowApi} from '../api/client'
import type {ThemeChoice} from '../api/contract.gen'
import {toastError} from './toasts'

/** The key index.html reads to draw the first frame in the right theme. */
export const THEME_HINT_KEY = 'maestro.theme'

export type Shown = 'light' | 'dark'

/** The theme to show for a choice, given whether the desktop prefers dark. */
export function resolveTheme(choice: ThemeChoice, systemDark: boolean): Shown {
  if (choice === 'system') return systemDark ? 'dark' : 'light'
  return choice
}

interface ThemeState {
  choice: ThemeChoice
  shown: Shown
  /** Reads the setting; a failure keeps following the system. */
  load: () => Promise<void>
  /** Chooses a theme; it shows at once and is saved. */
  choose: (choice: ThemeChoice) => Promise<void>
  /** The desktop's preference changed. */
  systemChanged: () => void
}

function systemDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches
}

function show(choice: ThemeChoice): Shown {
  const shown = resolveTheme(choice, systemDark())
  document.documentElement.dataset.theme = shown
  try {
    localStorage.setItem(THEME_HINT_KEY, choice)
  } catch {
    // No storage: the first frame follows the system, as on a first run.
  }
  // The window's background behind the page, now and from the next launch's first frame.
  windowApi.setDark(shown === 'dark').catch(() => {})
  return shown
}

export const useTheme = create<ThemeState>()((set, get) => ({
  choice: 'system',
  shown: 'light',
  load: async () => {
    let choice: ThemeChoice = 'system'
    try {
      choice = await settingsApi.theme()
    } catch {
      // The data file is not open (its error screen says why): follow the system.
    }
    set({choice, shown: show(choice)})
  },
  choose: async (choice) => {
    const prev = get().choice
    set({choice, shown: show(choice)})
    try {
      await settingsApi.setTheme(choice)
    } catch (err) {
      set({choice: prev, shown: show(prev)})
      toastError(err, "Couldn't save the theme")
    }
  },
  systemChanged: () => set((s) => ({shown: show(s.choice)})),
}))

/** Loads the theme and follows the desktop's preference; returns the cleanup. */
export function syncTheme(): () => void {
  void useTheme.getState().load()
  if (typeof matchMedia !== 'function') return () => {}
  const mq = matchMedia('(prefers-color-scheme: dark)')
  const onChange = () => useTheme.getState().systemChanged()
  mq.addEventListener('change', onChange)
  return () => mq.removeEventListener('change', onChange)
}
