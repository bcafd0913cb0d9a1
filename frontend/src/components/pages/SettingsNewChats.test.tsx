import {screen, waitFor, within} from '@testing-library/react'
import {describe, expect, it} from 'vitest'
import {connector, installFakeConnectors} from '../../test/fakeConnectors'
import {renderApp} from '../../test/render'

describe('Settings: connectors for new chats', () => {
  it('lists every connector with a switch that sets whether new chats start with it', async () => {
    const r = await renderApp()
    const fake = installFakeConnectors(r.backend, {
      connectors: [connector('c1', 'Files', {newChats: true}), connector('c2', 'GitHub', {enabled: false})],
    })
    await r.user.click(screen.getByTestId('nav-settings'))
    const list = await screen.findByTestId('settings-new-chats')
    const [files, github] = within(list).getAllByTestId('settings-new-chats-switch')
    expect(files).toHaveAttribute('aria-checked', 'true')
    expect(github).toHaveAttribute('aria-checked', 'false')
    expect(list).toHaveTextContent('GitHub (off everywhere)')

    await r.user.click(github)
    await waitFor(() => expect(github).toHaveAttribute('aria-checked', 'true'))
    expect(fake.SetNewChats).toHaveBeenCalledWith('c2', true)
    await r.user.click(files)
    await waitFor(() => expect(files).toHaveAttribute('aria-checked', 'false'))
    expect(fake.SetNewChats).toHaveBeenLastCalledWith('c1', false)
  })

  it('puts the switch back and says why when Go refuses', async () => {
    const r = await renderApp()
    const fake = installFakeConnectors(r.backend, {connectors: [connector('c1', 'Files')]})
    fake.SetNewChats.mockRejectedValueOnce({kind: 'unavailable', message: 'the keychain is locked'})
    await r.user.click(screen.getByTestId('nav-settings'))
    const sw = await screen.findByTestId('settings-new-chats-switch')
    await r.user.click(sw)
    expect(await screen.findByText(/the keychain is locked/)).toBeInTheDocument()
    expect(sw).toHaveAttribute('aria-checked', 'false')
  })

  it('points to the Connectors page when there are none', async () => {
    const r = await renderApp()
    installFakeConnectors(r.backend)
    await r.user.click(screen.getByTestId('nav-settings'))
    expect(await screen.findByTestId('settings-new-chats-empty')).toHaveTextContent('No connectors yet')
  })
})
