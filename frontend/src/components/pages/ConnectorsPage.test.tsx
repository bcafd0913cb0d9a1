import {act, screen, waitFor, within} from '@testing-library/react'
import {describe, expect, it} from 'vitest'
import type {ImportReport} from '../../api/connectors'
import {renderApp} from '../../test/render'
import {connector, type FakeConnectorOptions, installFakeConnectors} from '../../test/fakeConnectors'
import {hasOpenQuote, joinArgs, splitArgs} from './ConnectorsPage.args'

async function openConnectors(opts: FakeConnectorOptions = {}) {
  const r = await renderApp()
  const fake = installFakeConnectors(r.backend, opts)
  await r.user.click(screen.getByTestId('nav-connectors'))
  await waitFor(() => expect(fake.List).toHaveBeenCalled())
  return {...r, fake}
}

const item = (id: string) => {
  const el = screen.getAllByTestId('connector-item').find((e) => e.dataset.connectorId === id)
  if (!el) throw new Error(`no connector ${id}`)
  return el
}

// Typing into the form is slow under a loaded test run.
describe('Connectors page', {timeout: 20_000}, () => {
  it('adds a stdio connector through the form with the right shape', async () => {
    const {user, fake} = await openConnectors()
    expect(await screen.findByTestId('connectors-empty')).toBeInTheDocument()
    await user.click(screen.getByTestId('add-connector'))
    const form = await screen.findByTestId('connector-form')
    expect(screen.getByTestId('connector-name')).toHaveFocus()

    await user.type(screen.getByTestId('connector-name'), 'Everything')
    // stdio is the default transport.
    expect(within(screen.getByTestId('connector-transport')).getByRole('radio', {name: /Local command/})).toHaveAttribute('aria-checked', 'true')
    await user.type(screen.getByTestId('connector-command'), 'node')
    await user.type(screen.getByTestId('connector-args'), `/opt/everything/dist/index.js stdio "two words" 'it''s'`)
    await user.click(within(form).getByRole('button', {name: 'Add variable'}))
    await user.type(within(form).getByLabelText('Environment: name'), 'API_KEY')
    await user.type(within(form).getByLabelText('Environment: value of API_KEY'), 'sk-secret')
    await user.click(screen.getByTestId('connector-save'))

    await waitFor(() => expect(fake.Save).toHaveBeenCalledTimes(1))
    expect(fake.Save).toHaveBeenCalledWith({
      name: 'Everything',
      transport: 'stdio',
      command: 'node',
      args: ['/opt/everything/dist/index.js', 'stdio', 'two words', 'its'],
      env: [{key: 'API_KEY', value: 'sk-secret'}],
      cwd: undefined,
      id: undefined,
      // A user's first connectors are on in new chats.
      newChats: true,
    })
    await waitFor(() => expect(screen.queryByTestId('connector-form')).not.toBeInTheDocument())
    const card = item('c-1')
    expect(within(card).getByTestId('connector-state')).toHaveTextContent('Starting')
    expect(card).toHaveAttribute('data-state', 'starting')
  })

  it('sends an HTTP connector with headers and OAuth, and shows a failed save in the form', async () => {
    const {user, fake} = await openConnectors()
    await user.click(await screen.findByTestId('add-connector'))
    await user.click(screen.getByTestId('connector-transport-http'))
    expect(screen.queryByTestId('connector-command')).not.toBeInTheDocument()
    await user.type(screen.getByTestId('connector-url'), 'https://mcp.example.com/mcp')
    await user.click(screen.getByRole('button', {name: 'Add header'}))
    await user.type(screen.getByLabelText('Headers: name'), 'Authorization')
    await user.type(screen.getByLabelText('Headers: value of Authorization'), 'Bearer t0ken')
    await user.click(screen.getByTestId('connector-oauth'))
    await user.click(screen.getByTestId('connector-save'))
    // No name: Go refuses; the message shows in the form, which stays open.
    expect(await screen.findByTestId('connector-form-error')).toHaveTextContent('A name is required')
    expect(fake.Save).toHaveBeenLastCalledWith({
      id: undefined,
      name: '',
      transport: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: [{key: 'Authorization', value: 'Bearer t0ken'}],
      oauth: {clientId: undefined, clientSecret: undefined, keepClientSecret: false, scopes: []},
      newChats: true,
    })
    expect(screen.getByTestId('connector-form')).toBeInTheDocument()
    // The error has the focus, so Escape still closes the form.
    expect(screen.getByTestId('connector-form-error')).toHaveFocus()
    await user.keyboard('{Escape}')
    expect(screen.queryByTestId('connector-form')).not.toBeInTheDocument()
  })

  it('shows a failure reported before the save answered, never the save\'s older "Starting"', async () => {
    const {user, fake, backend} = await openConnectors()
    // The supervisor fails the start within a millisecond: its events reach
    // the page before SaveConnector's answer, which was read before them.
    fake.Save.mockImplementationOnce(async (input) => {
      const starting = connector('c-9', input.name, {command: input.command, state: 'starting', toolCount: 0, version: 1})
      fake.state.connectors.push(starting)
      backend.emit('connector:state', {...starting, version: 1})
      backend.emit('connector:state', {...starting, state: 'error', error: 'exec: "no-such-server": executable file not found in $PATH', version: 2})
      return structuredClone(starting)
    })
    await user.click(await screen.findByTestId('add-connector'))
    await user.type(screen.getByTestId('connector-name'), 'Broken')
    await user.type(screen.getByTestId('connector-command'), 'no-such-server')
    await user.click(screen.getByTestId('connector-save'))
    await waitFor(() => expect(screen.queryByTestId('connector-form')).not.toBeInTheDocument())
    const card = await waitFor(() => item('c-9'))
    expect(card).toHaveAttribute('data-state', 'error')
    expect(within(card).getByTestId('connector-error')).toHaveTextContent('executable file not found')
  })

  it('updates the state badge on connector:state and shows the error with the stderr tail', async () => {
    const {fake} = await openConnectors({connectors: [connector('c1', 'Files', {state: 'starting', toolCount: 0})]})
    const card = await waitFor(() => item('c1'))
    expect(within(card).getByTestId('connector-state')).toHaveTextContent('Starting')
    expect(within(card).queryByTestId('connector-tools-count')).not.toBeInTheDocument()

    act(() => fake.emitState('c1', {state: 'ready', toolCount: 12}))
    expect(within(card).getByTestId('connector-state')).toHaveTextContent('Ready')
    expect(within(card).getByTestId('connector-tools-count')).toHaveTextContent('12 tools')
    expect(card).toHaveAttribute('data-state', 'ready')
    expect(within(card).queryByTestId('connector-error')).not.toBeInTheDocument()

    act(() =>
      fake.emitState('c1', {
        state: 'error',
        toolCount: 0,
        error: "the server exited with status 1 during start: Error: Cannot find module '/nope.js'",
        stderrTail: ['node:internal/modules/cjs/loader:1228', "Error: Cannot find module '/nope.js'"],
        nextRetry: Date.now() + 4000,
      }),
    )
    expect(within(card).getByTestId('connector-state')).toHaveTextContent('Error')
    expect(within(card).getByTestId('connector-error')).toHaveTextContent('Cannot find module')
    expect(within(card).getByTestId('connector-stderr')).toHaveTextContent("node:internal/modules/cjs/loader:1228 Error: Cannot find module '/nope.js'")
    expect(within(card).getByText(/Retrying in [1-4] s/)).toBeInTheDocument()
  })

  it('tests a connection and lists the tools, or the error', async () => {
    const {user, fake} = await openConnectors()
    await user.click(await screen.findByTestId('add-connector'))
    await user.type(screen.getByTestId('connector-name'), 'Probe')
    await user.type(screen.getByTestId('connector-command'), 'node')
    await user.click(screen.getByTestId('connector-test'))
    const ok = await screen.findByTestId('connector-test-result')
    expect(ok).toHaveAttribute('data-ok', 'true')
    expect(ok).toHaveTextContent('1 tool')
    expect(ok).toHaveTextContent('echo')
    expect(fake.Test).toHaveBeenCalledWith(expect.objectContaining({name: 'Probe', transport: 'stdio', command: 'node', args: []}))
    expect(fake.Save).not.toHaveBeenCalled()

    fake.Test.mockResolvedValueOnce({
      ok: false, state: 'error', tools: [], error: 'the server exited with status 1 during start', stderrTail: ['boom'], needsSignIn: false, durationMs: 9,
    })
    await user.click(screen.getByTestId('connector-test'))
    await waitFor(() => expect(screen.getByTestId('connector-test-result')).toHaveAttribute('data-ok', 'false'))
    expect(screen.getByTestId('connector-test-result')).toHaveTextContent('exited with status 1')
    expect(screen.getByTestId('connector-test-result')).toHaveTextContent('boom')
  })

  it('edits with stored secrets kept, toggles, restarts, deletes after confirming', async () => {
    const c = connector('c1', 'Files', {env: [{key: 'TOKEN', hint: '…abcd'}], args: ['-y', 'a b']})
    const {user, fake} = await openConnectors({connectors: [c]})
    await waitFor(() => item('c1'))
    expect(within(item('c1')).getByText('node -y \'a b\'')).toBeInTheDocument()

    await user.click(within(item('c1')).getByTestId('connector-edit'))
    expect(screen.getByTestId('connector-args')).toHaveValue("-y 'a b'")
    expect(screen.getByLabelText('Environment: value of TOKEN')).toHaveAttribute('placeholder', expect.stringContaining('Stored (…abcd)'))
    await user.click(screen.getByTestId('connector-save'))
    await waitFor(() =>
      expect(fake.Save).toHaveBeenCalledWith(expect.objectContaining({id: 'c1', args: ['-y', 'a b'], env: [{key: 'TOKEN', value: '', keep: true}]})),
    )

    await user.click(within(item('c1')).getByTestId('connector-enabled'))
    expect(fake.SetEnabled).toHaveBeenCalledWith('c1', false)
    await waitFor(() => expect(within(item('c1')).getByTestId('connector-state')).toHaveTextContent('Off'))
    await user.click(within(item('c1')).getByTestId('connector-enabled'))
    await user.click(within(item('c1')).getByTestId('connector-restart'))
    expect(fake.Restart).toHaveBeenCalledWith('c1')

    await user.click(within(item('c1')).getByTestId('connector-logs'))
    expect(await screen.findByTestId('connector-logs-drawer')).toHaveTextContent('server started')

    await user.click(within(item('c1')).getByTestId('connector-delete'))
    await user.click(screen.getByTestId('confirm-delete-connector'))
    await waitFor(() => expect(screen.queryAllByTestId('connector-item')).toHaveLength(0))
    expect(fake.Delete).toHaveBeenCalledWith('c1')
  })

  it('keeps arguments that look secret in the keychain, and any the user locks', async () => {
    const {user, fake} = await openConnectors()
    await user.click(await screen.findByTestId('add-connector'))
    await user.type(screen.getByTestId('connector-name'), 'GitHub')
    await user.type(screen.getByTestId('connector-command'), 'npx')
    await user.type(screen.getByTestId('connector-args'), 'server-github --token=ghp_0123456789 plain')
    // Go suggests the token; its chip is locked and masked.
    await waitFor(() => expect(fake.SuggestSecretArgs).toHaveBeenLastCalledWith(['server-github', '--token=ghp_0123456789', 'plain']))
    const chip = (i: number) => screen.getAllByTestId('connector-arg')[i]
    await waitFor(() => expect(chip(1)).toHaveAttribute('aria-pressed', 'true'))
    expect(chip(1)).toHaveTextContent('--token=••••')
    expect(chip(1)).not.toHaveTextContent('ghp_')
    expect(chip(2)).toHaveAttribute('aria-pressed', 'false')
    expect(screen.getByTestId('connector-secret-hint')).toHaveTextContent('kept in your keychain')
    // Any argument can be locked.
    await user.click(chip(2))
    expect(chip(2)).toHaveAttribute('aria-pressed', 'true')
    await user.click(screen.getByTestId('connector-save'))
    await waitFor(() =>
      expect(fake.Save).toHaveBeenCalledWith(
        expect.objectContaining({args: ['server-github', '--token=ghp_0123456789', 'plain'], secretArgs: [1, 2]}),
      ),
    )
    // The card shows the references, never the values.
    await waitFor(() => expect(item('c-1')).toHaveTextContent('npx server-github \'--token=${secret:1}\' \'${secret:2}\''))
    expect(item('c-1')).not.toHaveTextContent('ghp_')
  })

  it('unlocks a suggested argument, and keeps a stored secret locked when editing', async () => {
    const c = connector('c1', 'Files', {args: ['--token=${secret:1}', '--sk-mode']})
    const {user, fake} = await openConnectors({connectors: [c]})
    await waitFor(() => item('c1'))
    await user.click(within(item('c1')).getByTestId('connector-edit'))
    const chips = screen.getAllByTestId('connector-arg')
    expect(chips[0]).toBeDisabled()
    expect(chips[0]).toHaveAttribute('aria-pressed', 'true')
    expect(chips[0]).toHaveAttribute('title', expect.stringContaining('Type the argument again'))
    await user.clear(screen.getByTestId('connector-args'))
    await user.type(screen.getByTestId('connector-args'), '--token=${{secret:1} sk-live-123')
    await waitFor(() => expect(screen.getAllByTestId('connector-arg')[1]).toHaveAttribute('aria-pressed', 'true'))
    await user.click(screen.getAllByTestId('connector-arg')[1]) // the user declines the offer
    await user.click(screen.getByTestId('connector-save'))
    await waitFor(() => expect(fake.Save).toHaveBeenCalled())
    const sent = fake.Save.mock.calls[0][0]
    expect(sent.args).toEqual(['--token=${secret:1}', 'sk-live-123'])
    expect(sent.secretArgs).toBeUndefined()
  })

  it('runs read-only-marked tools without asking only when the user says so', async () => {
    const {user, fake} = await openConnectors()
    await user.click(await screen.findByTestId('add-connector'))
    const trust = screen.getByTestId('connector-trust-readonly')
    expect(trust).toHaveAttribute('aria-checked', 'false')
    expect(screen.getByTestId('connector-trust-hint')).toHaveTextContent('the server’s own claim, and Maestro cannot check it')
    await user.type(screen.getByTestId('connector-name'), 'Docs')
    await user.type(screen.getByTestId('connector-command'), 'docs-server')
    await user.click(screen.getByTestId('connector-save'))
    await waitFor(() => expect(fake.Save).toHaveBeenCalledTimes(1))
    expect(fake.Save.mock.calls[0][0].trustReadOnlyHints).toBeUndefined()
    await waitFor(() => item('c-1'))
    expect(within(item('c-1')).queryByTestId('connector-trust')).not.toBeInTheDocument()

    await user.click(within(item('c-1')).getByTestId('connector-edit'))
    await user.click(screen.getByTestId('connector-trust-readonly'))
    await user.click(screen.getByTestId('connector-save'))
    await waitFor(() => expect(fake.Save).toHaveBeenLastCalledWith(expect.objectContaining({id: 'c-1', trustReadOnlyHints: true})))
    await waitFor(() => expect(within(item('c-1')).getByTestId('connector-trust')).toHaveTextContent('the server’s claim, trusted by you'))
  })

  it('imports a file and reports each entry', async () => {
    const {user, fake} = await openConnectors()
    fake.PickImportFile.mockResolvedValueOnce('/home/ada/claude_desktop_config.json')
    fake.Import.mockImplementationOnce(async (): Promise<ImportReport> => {
      fake.state.connectors.push(connector('c9', 'files'))
      return {
        summary: 'imported 1 (files); skipped 1 (broken)',
        imported: 1,
        entries: [
          {name: 'files', imported: true, connectorId: 'c9', notes: [], ignored: []},
          {name: 'broken', imported: false, reason: '"command" is not a string', notes: [], ignored: ['foo']},
        ],
      }
    })
    await user.click(await screen.findByTestId('import-connectors'))
    const report = await screen.findByTestId('import-report')
    expect(fake.Import).toHaveBeenCalledWith('/home/ada/claude_desktop_config.json')
    const entries = within(report).getAllByTestId('import-entry')
    expect(entries[0]).toHaveTextContent('Imported')
    expect(entries[1]).toHaveTextContent('Skipped')
    expect(entries[1]).toHaveTextContent('"command" is not a string')
    expect(entries[1]).toHaveTextContent('Ignored: foo')
    await waitFor(() => expect(item('c9')).toBeInTheDocument())
  })
})

describe('arguments field', () => {
  it('splits like a shell, without expanding', () => {
    expect(splitArgs('  -y  @scope/pkg "a b" \'c "d"\' e\\ f $HOME ')).toEqual(['-y', '@scope/pkg', 'a b', 'c "d"', 'e f', '$HOME'])
    expect(splitArgs('"" x')).toEqual(['', 'x'])
    expect(splitArgs('C:\\tools\\srv.exe')).toEqual(['C:\\tools\\srv.exe'])
    expect(hasOpenQuote('a "b')).toBe(true)
    expect(hasOpenQuote('a "b" \'c\'')).toBe(false)
  })

  it('joins back to the same arguments', () => {
    for (const args of [['-y', 'a b', "it's", '', 'x"y\\z', '/tmp/a.js', '--flag=1']]) {
      expect(splitArgs(joinArgs(args))).toEqual(args)
    }
  })
})
