import {onMenuCommand, windowApi} from '../api/client'
import {type Command, commandFor, isCommand, runsOverDialogs} from '../lib/shortcuts'
import {useSessions} from './sessions'
import {toastError} from './toasts'
import {useUI} from './ui'

function dialogOpen(): boolean {
  return !!document.querySelector('[aria-modal="true"]')
}

/** Carries out a command from a shortcut or the menu. */
export function runCommand(c: Command): void {
  if (!runsOverDialogs(c) && dialogOpen()) return
  switch (c) {
    case 'new-chat':
      void useSessions.getState().create()
      return
    case 'search':
      useUI.getState().requestSearch()
      return
    case 'settings':
      useUI.getState().setView('settings')
      return
    case 'about':
      useUI.getState().setAbout(true)
      return
    case 'quit':
      windowApi.quit().catch((err) => toastError(err, "Couldn't quit"))
      return
    case 'fullscreen':
      windowApi.toggleFullscreen().catch((err) => toastError(err, "Couldn't change full screen"))
      return
  }
}

/** How long the window must stay the same size before its size is saved. */
export const REMEMBER_DEBOUNCE_MS = 400

/**
 * Listens for shortcuts and menu commands, and saves the window's size and
 * place after a resize and when it loses focus. Returns the cleanup.
 */
export function syncCommands(): () => void {
  function onKeyDown(e: KeyboardEvent) {
    const c = commandFor(e)
    if (!c || e.defaultPrevented) return
    e.preventDefault()
    runCommand(c)
  }
  let timer: ReturnType<typeof setTimeout> | undefined
  const remember = () => windowApi.remember().catch(() => {})
  function onResize() {
    clearTimeout(timer)
    timer = setTimeout(remember, REMEMBER_DEBOUNCE_MS)
  }
  window.addEventListener('keydown', onKeyDown)
  window.addEventListener('resize', onResize)
  window.addEventListener('blur', remember)
  const offMenu = onMenuCommand((c) => {
    if (isCommand(c)) runCommand(c)
  })
  return () => {
    clearTimeout(timer)
    window.removeEventListener('keydown', onKeyDown)
    window.removeEventListener('resize', onResize)
    window.removeEventListener('blur', remember)
    offMenu()
  }
}
