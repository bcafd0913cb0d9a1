import {screen, waitFor} from '@testing-library/react'
import {afterEach, describe, expect, it, vi} from 'vitest'
import {renderApp} from '../../test/render'

describe('Settings', () => {
  it('chooses the model new chats start on, or the one last used', async () => {
    const {backend, user} = await renderApp()
    await user.click(screen.getByTestId('nav-settings'))
    const select = await screen.findByTestId('settings-default-model')
    await waitFor(() => expect(select).toBeEnabled())
    expect(select).toHaveValue('')
    // Only providers with credentials are offered (DEFAULT_MODELS: ChatGPT is signed out).
    expect(screen.queryByRole('option', {name: 'GPT-5'})).not.toBeInTheDocument()
    await user.selectOptions(select, 'gemini/gemini-2.5-flash')
    expect(backend.Settings.SetDefaultModel).toHaveBeenCalledWith('gemini', 'gemini-2.5-flash')
    await user.selectOptions(select, '')
    expect(backend.Settings.SetDefaultModel).toHaveBeenLastCalledWith('', '')
  })

  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('switches the theme at once, keeps it, and follows the desktop on System', async () => {
    // The desktop prefers dark; a listener hears it change.
    let dark = true
    const listeners = new Set<() => void>()
    vi.stubGlobal('matchMedia', (q: string) => ({
      get matches() { return q.includes('dark') && dark },
      addEventListener: (_: string, cb: () => void) => listeners.add(cb),
      removeEventListener: (_: string, cb: () => void) => listeners.delete(cb),
    }))
    const {backend, user} = await renderApp()
    const root = document.documentElement
    await waitFor(() => expect(root.dataset.theme).toBe('dark'))
    expect(backend.Window.SetDark).toHaveBeenLastCalledWith(true)

    await user.click(screen.getByTestId('nav-settings'))
    expect(await screen.findByTestId('settings-theme-system')).toHaveAttribute('aria-checked', 'true')
    await user.click(screen.getByTestId('settings-theme-light'))
    expect(root.dataset.theme).toBe('light')
    expect(screen.getByTestId('settings-theme-light')).toHaveAttribute('aria-checked', 'true')
    expect(backend.Settings.SetTheme).toHaveBeenLastCalledWith('light')
    expect(backend.Window.SetDark).toHaveBeenLastCalledWith(false)
    // index.html draws the next first frame from this.
    expect(localStorage.getItem('maestro.theme')).toBe('light')

    // A forced theme ignores the desktop; System follows it.
    dark = false
    listeners.forEach((cb) => cb())
    expect(root.dataset.theme).toBe('light')
    await user.click(screen.getByTestId('settings-theme-system'))
    expect(root.dataset.theme).toBe('light')
    dark = true
    listeners.forEach((cb) => cb())
    expect(root.dataset.theme).toBe('dark')
    expect(backend.state.theme).toBe('system')
  })

  it('puts the theme back and says so when it cannot be saved', async () => {
    const {backend, user} = await renderApp()
    backend.Settings.SetTheme.mockRejectedValueOnce({kind: 'unavailable', message: 'maestro is shutting down'})
    await user.click(screen.getByTestId('nav-settings'))
    await user.click(await screen.findByTestId('settings-theme-dark'))
    expect(await screen.findByText(/Couldn't save the theme/)).toBeVisible()
    expect(screen.getByText(/maestro is shutting down/)).toBeVisible()
    expect(document.documentElement.dataset.theme).toBe('light')
    expect(screen.getByTestId('settings-theme-system')).toHaveAttribute('aria-checked', 'true')
  })
})
