import {act, screen, waitFor, within} from '@testing-library/react'
import {describe, expect, it} from 'vitest'
import {useRuns} from '../../stores/runs'
import {useTools} from '../../stores/tools'
import {session} from '../../test/fakeBackend'
import {type FakeConnectorOptions, installFakeConnectors, sessionConnector} from '../../test/fakeConnectors'
import {renderApp} from '../../test/render'

const S = 's1'

async function openPanel(opts: FakeConnectorOptions = {}) {
  const r = await renderApp({sessions: [session(S, 'Plans')], status: {lastSessionId: S}})
  const fake = installFakeConnectors(r.backend, opts)
  await r.user.click(await screen.findByTestId('tools-button'))
  const panel = await screen.findByTestId('tools-panel')
  await waitFor(() => expect(fake.SessionTools).toHaveBeenCalledWith(S))
  return {...r, fake, panel}
}

const toggle = (id: string) =>
  screen.getAllByTestId('session-connector-toggle').find((e) => e.dataset.connectorId === id)!
const toolToggle = (canonical: string) => screen.getAllByTestId('session-tool-toggle').find((e) => e.dataset.tool === canonical)!

describe('Tools panel', {timeout: 20_000}, () => {
  it('toggles a connector and a tool, showing the revision Go returns', async () => {
    const {user, fake} = await openPanel({
      tools: {[S]: {revision: 4, connectors: [sessionConnector('c1', 'Files')], roots: []}},
    })
    expect(await screen.findByTestId('tools-revision')).toHaveAttribute('data-revision', '4')
    expect(toggle('c1')).toHaveAttribute('aria-checked', 'false')

    await user.click(toggle('c1'))
    expect(fake.SetSessionConnector).toHaveBeenCalledWith(S, 'c1', true)
    await waitFor(() => expect(screen.getByTestId('tools-revision')).toHaveAttribute('data-revision', '5'))
    expect(toggle('c1')).toHaveAttribute('aria-checked', 'true')

    // Expand to the tools: read-only ones are marked.
    await user.click(screen.getByRole('button', {name: /Files/}))
    const read = toolToggle('files.read').closest('li')!
    expect(within(read).getByText('Read-only')).toBeInTheDocument()
    expect(within(toolToggle('files.write').closest('li')!).queryByText('Read-only')).not.toBeInTheDocument()
    await user.click(toolToggle('files.write'))
    expect(fake.SetSessionTool).toHaveBeenCalledWith(S, 'files.write', false)
    await waitFor(() => expect(screen.getByTestId('tools-revision')).toHaveAttribute('data-revision', '6'))
    expect(toolToggle('files.write')).toHaveAttribute('aria-checked', 'false')
    expect(screen.getByTestId('tools-button-count')).toHaveTextContent('1')
  })

  it('a chat with no tool on while a connector could give some says so, and turns it on in one click', async () => {
    const {user, fake} = await openPanel({
      tools: {[S]: {revision: 2, connectors: [sessionConnector('c1', 'Files')], roots: []}},
    })
    await user.click(screen.getByTestId('tools-close'))
    // installFakeConnectors reset the store after the Tools button told it
    // which chat is on screen; tell it again, as switching chats does.
    act(() => useTools.getState().show(S))
    const hint = await screen.findByTestId('composer-no-tools')
    expect(hint).toHaveTextContent('No tools are on in this chat.')
    await user.click(within(hint).getByTestId('turn-on-connectors'))
    expect(fake.SetSessionConnector).toHaveBeenCalledWith(S, 'c1', true)
    await waitFor(() => expect(screen.queryByTestId('composer-no-tools')).not.toBeInTheDocument())
  })

  it('shows tools whose names look alike apart, and the read-only claim as the server\'s', async () => {
    const tool = (name: string) => ({canonical: `hostile.${name}`, name, enabled: true, readOnly: true})
    const {user} = await openPanel({
      tools: {[S]: {revision: 1, roots: [], connectors: [sessionConnector('c1', 'Hostile', {tools: [tool('get_data'), tool('get_d\u0430ta')]})]}},
    })
    await user.click(await within(await screen.findByTestId('tools-panel')).findByRole('button', {name: /Hostile/}))
    const names = screen.getAllByTestId('session-tool-name')
    expect(names.map((n) => n.textContent)).toEqual(['get_data', 'get_dаU+0430ta'])
    expect(within(names[0]).queryByTestId('tool-name-foreign')).not.toBeInTheDocument()
    expect(within(names[1]).getByTestId('tool-name-foreign')).toHaveTextContent('U+0430')
    expect(within(toolToggle('hostile.get_data').closest('li')!).getByText('Read-only').closest('span')).toHaveAttribute(
      'title', expect.stringContaining('its own claim: Maestro still asks'),
    )
  })

  it("marks a tool only its MCP App may call: the model never sees it", async () => {
    const {user} = await openPanel({
      tools: {[S]: {revision: 1, roots: [], connectors: [sessionConnector('c1', 'Clock', {tools: [
        {canonical: 'clock.get-time', name: 'get-time', enabled: true, readOnly: false},
        {canonical: 'clock.refresh', name: 'refresh', enabled: true, readOnly: false, appOnly: true},
      ]})]}},
    })
    await user.click(await within(await screen.findByTestId('tools-panel')).findByRole('button', {name: /Clock/}))
    const badge = within(toolToggle('clock.refresh').closest('li')!).getByTestId('session-tool-app-only')
    expect(badge).toHaveTextContent('App only')
    expect(badge).toHaveAttribute('title', expect.stringContaining('the model never sees it'))
    expect(within(toolToggle('clock.get-time').closest('li')!).queryByTestId('session-tool-app-only')).not.toBeInTheDocument()
  })

  it('shows the count on the Tools button without opening the panel', async () => {
    const r = await renderApp({sessions: [session(S, 'Plans'), session('s2', 'Other')], status: {lastSessionId: 's2'}})
    installFakeConnectors(r.backend, {
      tools: {[S]: {revision: 2, connectors: [sessionConnector('c1', 'Files', {enabledInSession: true})], roots: []}},
    })
    // Switching to the chat loads its tools for the button.
    await r.user.click(screen.getAllByTestId('session-title').find((e) => e.textContent === 'Plans')!)
    await waitFor(() => expect(screen.getByTestId('tools-button-count')).toHaveTextContent('2'))
    expect(screen.queryByTestId('tools-panel')).not.toBeInTheDocument()
  })

  it('puts a refused toggle back', async () => {
    const {user, fake} = await openPanel({tools: {[S]: {revision: 1, connectors: [sessionConnector('c1', 'Files')], roots: []}}})
    fake.SetSessionConnector.mockRejectedValueOnce({kind: 'not_found', message: 'no connector "c1"'})
    await user.click(await waitFor(() => toggle('c1')))
    await waitFor(() => expect(toggle('c1')).toHaveAttribute('aria-checked', 'false'))
    expect(await screen.findByText('no connector "c1"')).toBeInTheDocument()
    expect(screen.getByTestId('tools-revision')).toHaveAttribute('data-revision', '1')
  })

  it('follows tools:changed: the revision moves and the list reloads', async () => {
    const {backend, fake} = await openPanel({tools: {[S]: {revision: 2, connectors: [sessionConnector('c1', 'Files')], roots: []}}})
    await waitFor(() => expect(screen.getByTestId('tools-revision')).toHaveAttribute('data-revision', '2'))
    fake.state.tools[S].connectors.push(sessionConnector('c2', 'Web'))
    fake.state.tools[S].revision = 7
    act(() => backend.emit('tools:changed', {sessionId: S, revision: 7}))
    expect(screen.getByTestId('tools-revision')).toHaveAttribute('data-revision', '7')
    await waitFor(() => expect(toggle('c2')).toBeInTheDocument())
    // Another session's change is not ours.
    act(() => backend.emit('tools:changed', {sessionId: 'other', revision: 99}))
    expect(screen.getByTestId('tools-revision')).toHaveAttribute('data-revision', '7')
    // An older revision never goes back.
    act(() => backend.emit('tools:changed', {sessionId: S, revision: 5}))
    expect(screen.getByTestId('tools-revision')).toHaveAttribute('data-revision', '7')
  })

  it('offers Apply now only while a reply is streaming', async () => {
    const {user, backend} = await openPanel({tools: {[S]: {revision: 1, connectors: [sessionConnector('c1', 'Files')], roots: []}}})
    await screen.findByTestId('tools-revision')
    expect(screen.queryByTestId('apply-now')).not.toBeInTheDocument()
    expect(screen.getByText('Changes apply from the next message.')).toBeInTheDocument()

    act(() => useRuns.getState().begin(S, 'run-7'))
    await user.click(await screen.findByTestId('apply-now'))
    expect(backend.Chat.ApplyNow).toHaveBeenCalledWith('run-7')
    expect(screen.queryByTestId('apply-now')).not.toBeInTheDocument()

    act(() => backend.emit('run:finished', {runId: 'run-7', sessionId: S, canceled: false, usage: {inputTokens: 0, outputTokens: 0}}))
    await waitFor(() => expect(screen.getByText('Changes apply from the next message.')).toBeInTheDocument())
    expect(screen.queryByTestId('apply-now')).not.toBeInTheDocument()
  })

  it('adds and removes folders, shows an empty state, and closes with Esc', async () => {
    const {user, fake} = await openPanel()
    expect(await screen.findByText(/No connectors yet/)).toBeInTheDocument()
    await user.click(screen.getByTestId('add-folder'))
    await waitFor(() => expect(fake.SetSessionRoots).toHaveBeenCalledWith(S, ['/home/ada/projects']))
    expect(await screen.findByText('/home/ada/projects')).toBeInTheDocument()
    await user.click(screen.getByRole('button', {name: 'Remove /home/ada/projects'}))
    await waitFor(() => expect(fake.SetSessionRoots).toHaveBeenLastCalledWith(S, []))
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByTestId('tools-panel')).not.toBeInTheDocument())
    expect(screen.getByTestId('tools-button')).toHaveAttribute('aria-expanded', 'false')
  })
})
