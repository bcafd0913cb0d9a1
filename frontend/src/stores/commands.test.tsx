import {fireEvent, screen, waitFor} from '@testing-library/react'
import {describe, expect, it} from 'vitest'
import {renderApp} from '../test/render'

const press = (key: string, mods: {ctrlKey?: boolean} = {}) => fireEvent.keyDown(window, {key, ...mods})

describe('shortcuts and the menu', () => {
  it('open Settings, search and a new chat from the keyboard', async () => {
    const {backend} = await renderApp()
    press(',', {ctrlKey: true})
    expect(await screen.findByTestId('settings-page')).toBeVisible()
    press('k', {ctrlKey: true})
    await waitFor(() => expect(screen.getByRole('searchbox')).toHaveFocus())
    press('n', {ctrlKey: true})
    await waitFor(() => expect(backend.Sessions.Create).toHaveBeenCalledTimes(1))
  })

  it('quit and full screen go to the window', async () => {
    const {backend} = await renderApp()
    press('F11')
    press('q', {ctrlKey: true})
    await waitFor(() => expect(backend.Window.Quit).toHaveBeenCalledTimes(1))
    expect(backend.Window.ToggleFullscreen).toHaveBeenCalledTimes(1)
  })

  it('runs what the menu sends, and only that', async () => {
    const {backend, user} = await renderApp({status: {version: '1.2.3', dataDir: '/home/me/.local/share/maestro', dataFile: '', lastSessionId: ''}})
    backend.emit('menu:command', 'about')
    const about = await screen.findByTestId('about-dialog')
    expect(about).toHaveTextContent('Version 1.2.3')
    expect(about).toHaveTextContent('/home/me/.local/share/maestro')
    // A dialog is open: a new chat waits, quitting does not.
    backend.emit('menu:command', 'new-chat')
    press('n', {ctrlKey: true})
    backend.emit('menu:command', 'quit')
    expect(backend.Sessions.Create).not.toHaveBeenCalled()
    await waitFor(() => expect(backend.Window.Quit).toHaveBeenCalledTimes(1))
    await user.click(screen.getByTestId('about-close'))
    expect(screen.queryByTestId('about-dialog')).not.toBeInTheDocument()
    backend.emit('menu:command', 'settings')
    expect(await screen.findByTestId('settings-page')).toBeVisible()
    backend.emit('menu:command', 'rm -rf /')
    backend.emit('menu:command', {evil: true})
    expect(screen.getByTestId('settings-page')).toBeVisible()
  })
})
