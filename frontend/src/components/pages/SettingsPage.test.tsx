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

describe('Settings rows and diagnostics', () => {
  it('saves each row over the stored ones and shows a refusal in its row', async () => {
    const {backend, user} = await renderApp()
    await user.click(screen.getByTestId('nav-settings'))
    const area = await screen.findByTestId('settings-instructions')
    await user.type(area, 'Answer in French.')
    await user.click(screen.getByTestId('settings-instructions-save'))
    await waitFor(() => expect(backend.Settings.SavePrefs).toHaveBeenLastCalledWith(expect.objectContaining({instructions: 'Answer in French.', compactPercent: 80})))
    // The theme changed elsewhere is not put back by the next row's save.
    await user.click(screen.getByTestId('settings-theme-dark'))
    await user.click(screen.getByTestId('settings-approval-all'))
    await waitFor(() => expect(backend.Settings.SavePrefs).toHaveBeenLastCalledWith(expect.objectContaining({approval: 'all', theme: 'dark', instructions: 'Answer in French.'})))
    await user.selectOptions(screen.getByTestId('settings-log-level'), 'debug')
    await waitFor(() => expect(backend.Settings.SavePrefs).toHaveBeenLastCalledWith(expect.objectContaining({logLevel: 'debug'})))

    backend.Settings.SavePrefs.mockImplementationOnce(async () => Promise.reject({kind: 'invalid', message: 'compact at 30% to 95% of the context window, not 90%'}))
    const compact = screen.getByTestId('settings-compact')
    await user.clear(compact)
    await user.type(compact, '90{Enter}')
    expect(await screen.findByTestId('settings-compact-error')).toHaveTextContent('not 90%')
    expect(screen.getByTestId('diagnostics-text')).toHaveTextContent('Maestro: 0.1.0-test')
  })

  it("edits a chat's instructions from its header, starting from the default ones", async () => {
    const {backend, user} = await renderApp()
    await user.click(screen.getByTestId('nav-settings'))
    await user.type(await screen.findByTestId('settings-instructions'), 'Use metric units.')
    await user.click(screen.getByTestId('settings-instructions-save'))
    await waitFor(() => expect(backend.Settings.SavePrefs).toHaveBeenCalled())
    await user.click(screen.getByTestId('new-session'))
    const pill = await screen.findByTestId('instructions-button')
    await waitFor(() => expect(pill).toHaveAccessibleName('Instructions (set)'))
    await user.click(pill)
    const text = await screen.findByTestId('instructions-text')
    expect(text).toHaveValue('Use metric units.')
    await user.clear(text)
    await user.type(text, 'Be terse.')
    await user.click(screen.getByTestId('instructions-save'))
    await waitFor(() => expect(screen.queryByTestId('instructions-dialog')).not.toBeInTheDocument())
    expect(backend.Sessions.SetInstructions).toHaveBeenLastCalledWith(expect.stringMatching(/^new-/), 'Be terse.')
  })
})
