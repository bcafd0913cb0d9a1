import {fireEvent, screen, waitFor, within} from '@testing-library/react'
import {describe, expect, it, vi} from 'vitest'
import {renderApp} from '../../test/render'
import {connector, installFakeConnectors} from '../../test/fakeConnectors'

describe('Connectors page: the negotiated protocol', {timeout: 20_000}, () => {
  it('shows each ready connector’s MCP version, and none before it is negotiated', async () => {
    const r = await renderApp()
    const fake = installFakeConnectors(r.backend, {
      connectors: [
        connector('new', 'Modern', {protocol: '2026-07-28', server: 'maestro-mcp-test'}),
        connector('old', 'Legacy', {protocol: '2025-11-25'}),
        connector('boot', 'Booting', {state: 'starting', protocol: ''}),
      ],
    })
    await r.user.click(screen.getByTestId('nav-connectors'))
    await waitFor(() => expect(fake.List).toHaveBeenCalled())
    const item = (id: string) => screen.getAllByTestId('connector-item').find((e) => e.dataset.connectorId === id)!
    await waitFor(() => expect(within(item('new')).getByTestId('connector-protocol')).toHaveTextContent('MCP 2026-07-28'))
    expect(within(item('new')).getByTestId('connector-protocol').classList.contains('is-modern')).toBe(true)
    expect(within(item('old')).getByTestId('connector-protocol')).toHaveTextContent('MCP 2025-11-25')
    expect(within(item('boot')).queryByTestId('connector-protocol')).toBeNull()
  })

  it('draws the server’s own icon, and the transport’s when it gives none or it fails to load', async () => {
    const png = 'data:image/png;base64,iVBORw0KGgo='
    const r = await renderApp()
    const fake = installFakeConnectors(r.backend, {
      connectors: [connector('own', 'Own', {icons: [{src: png, mimeType: 'image/png'}]}), connector('none', 'None')],
    })
    await r.user.click(screen.getByTestId('nav-connectors'))
    await waitFor(() => expect(fake.List).toHaveBeenCalled())
    const item = (id: string) => screen.getAllByTestId('connector-item').find((e) => e.dataset.connectorId === id)!
    const img = await waitFor(() => within(item('own')).getByTestId('connector-server-icon'))
    expect(img).toHaveAttribute('src', png)
    expect(img).toHaveAttribute('referrerpolicy', 'no-referrer')
    expect(within(item('none')).queryByTestId('connector-server-icon')).toBeNull()
    expect(item('none').querySelector('.connector-icon svg')).not.toBeNull()
    fireEvent.error(img)
    await waitFor(() => expect(within(item('own')).queryByTestId('connector-server-icon')).toBeNull())
    expect(item('own').querySelector('.connector-icon svg')).not.toBeNull()
  })

  it('the Trust drawer\'s policy shows what SetApproval answers (the server is not restarted, so no state event follows)', async () => {
    const r = await renderApp()
    const fake = installFakeConnectors(r.backend, {connectors: [connector('c1', 'Files')]})
    const SetApproval = vi.fn(async (id: string, policy: string) => ({...fake.state.connectors.find((c) => c.id === id)!, approval: policy}))
    Object.assign(r.backend.Connectors, {SetApproval, Grants: vi.fn(async () => []), Audit: vi.fn(async () => []), Tasks: vi.fn(async () => [])})
    await r.user.click(screen.getByTestId('nav-connectors'))
    await waitFor(() => expect(fake.List).toHaveBeenCalled())
    await r.user.click(await screen.findByTestId('connector-trust-open'))
    const drawer = await screen.findByTestId('connector-trust-drawer')
    expect(within(drawer).getByTestId('policy-ask')).toBeChecked()
    await r.user.click(within(drawer).getByTestId('policy-all'))
    await waitFor(() => expect(SetApproval).toHaveBeenCalledWith('c1', 'all'))
    await waitFor(() => expect(within(drawer).getByTestId('policy-all')).toBeChecked())
    expect(fake.Restart).not.toHaveBeenCalled()
  })

  it('a connector without its own policy shows Settings\' default as its policy', async () => {
    const r = await renderApp()
    const fake = installFakeConnectors(r.backend, {connectors: [connector('c1', 'Files')]})
    const prefs = await r.backend.Settings.Prefs()
    Object.assign(r.backend.Settings, {Prefs: vi.fn(async () => ({...prefs, approval: 'all'}))})
    Object.assign(r.backend.Connectors, {Grants: vi.fn(async () => []), Audit: vi.fn(async () => []), Tasks: vi.fn(async () => [])})
    await r.user.click(screen.getByTestId('nav-connectors'))
    await waitFor(() => expect(fake.List).toHaveBeenCalled())
    await r.user.click(await screen.findByTestId('connector-trust-open'))
    const drawer = await screen.findByTestId('connector-trust-drawer')
    await waitFor(() => expect(within(drawer).getByTestId('policy-all')).toBeChecked())
  })
})
