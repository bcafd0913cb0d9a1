import {screen, waitFor, within} from '@testing-library/react'
import {describe, expect, it} from 'vitest'
import type {SessionTool} from '../../api/connectors'
import {session} from '../../test/fakeBackend'
import {installFakeConnectors, sessionConnector} from '../../test/fakeConnectors'
import {renderApp} from '../../test/render'

const S = 's1'
const PNG = 'data:image/png;base64,iVBORw0KGgo='

const tool = (name: string, hints: SessionTool['hints'], readOnly = false, icons?: SessionTool['icons']): SessionTool =>
  ({canonical: `files.${name}`, name, enabled: true, readOnly, hints, icons})

async function openFiles(patch: Parameters<typeof sessionConnector>[2] = {}) {
  const r = await renderApp({sessions: [session(S, 'Plans')], status: {lastSessionId: S}})
  const fake = installFakeConnectors(r.backend, {
    tools: {[S]: {revision: 1, roots: [], connectors: [sessionConnector('c1', 'Files', {enabledInSession: true, tools: [
      tool('read', {readOnlyHint: true, idempotentHint: true}, true, [{src: PNG, mimeType: 'image/png'}]),
      tool('wipe', {destructiveHint: true, openWorldHint: true}),
    ], ...patch})]}},
  })
  await r.user.click(await screen.findByTestId('tools-button'))
  await waitFor(() => expect(fake.SessionTools).toHaveBeenCalledWith(S))
  await r.user.click(await within(await screen.findByTestId('tools-panel')).findByRole('button', {name: /Files/}))
  return {r, fake}
}

describe('Tools panel: trust', () => {
  it('shows each tool\'s claims as badges, read-only once, and its own icon', async () => {
    await openFiles()
    const row = (name: string) => screen.getAllByTestId('session-tool-toggle').find((e) => e.dataset.tool === `files.${name}`)!.closest('li')!
    expect(within(row('read')).getAllByText('Read-only')).toHaveLength(1)
    expect(within(row('read')).getByTestId('hint-idempotent')).toBeInTheDocument()
    expect(row('read').querySelector('img.tp-tool-icon')).toHaveAttribute('src', PNG)
    expect(within(row('wipe')).getByTestId('hint-destructive')).toHaveTextContent('Destructive')
    expect(within(row('wipe')).getByTestId('hint-open-world')).toBeInTheDocument()
    expect(within(row('wipe')).queryByText('Read-only')).toBeNull()
    expect(row('wipe').querySelector('img')).toBeNull()
  })

  it('sets and clears this chat\'s approval policy for the connector', async () => {
    const {r, fake} = await openFiles({approval: 'ask'})
    const select = screen.getByTestId('chat-policy') as HTMLSelectElement
    expect(select).toHaveValue('')
    expect(within(select).getByRole('option', {name: 'As the connector (Ask every time)'})).toBeInTheDocument()
    await r.user.selectOptions(select, 'read_only')
    await waitFor(() => expect(fake.SetSessionApproval).toHaveBeenCalledWith(S, 'c1', 'read_only'))
    expect(select).toHaveValue('read_only')
    await r.user.selectOptions(select, '')
    await waitFor(() => expect(fake.SetSessionApproval).toHaveBeenLastCalledWith(S, 'c1', ''))
    expect(select).toHaveValue('')
  })

  it('puts the select back and says so when the change fails', async () => {
    const {r, fake} = await openFiles({approval: 'all', chatApproval: 'ask'})
    fake.SetSessionApproval.mockRejectedValueOnce({kind: 'unavailable', message: 'The store is closed.'})
    const select = screen.getByTestId('chat-policy') as HTMLSelectElement
    expect(select).toHaveValue('ask')
    await r.user.selectOptions(select, 'all')
    expect(await screen.findByText(/Couldn.t change how this chat approves/)).toBeInTheDocument()
    expect(select).toHaveValue('ask')
  })
})
