import {render, screen, within} from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import App from '../App'
import {type FakeOptions, installFakeBackend} from './fakeBackend'

/** Installs a fake backend, renders the app and waits for startup to finish. */
export async function renderApp(opts: FakeOptions = {}, {waitFor = 'shell'}: {waitFor?: 'shell' | 'none'} = {}) {
  const backend = installFakeBackend(opts)
  const user = userEvent.setup()
  const view = render(<App />)
  if (waitFor === 'shell') await screen.findByTestId('new-session')
  return {backend, user, ...view}
}

export function sessionItems(): HTMLElement[] {
  return screen.queryAllByTestId('session-item')
}

export function sessionItem(id: string): HTMLElement {
  const el = sessionItems().find((e) => e.dataset.sessionId === id)
  if (!el) throw new Error(`no session item ${id}`)
  return el
}

export function titles(): string[] {
  return screen.queryAllByTestId('session-title').map((e) => e.textContent ?? '')
}

export {within}
