import {screen, waitFor, within} from '@testing-library/react'
import {describe, expect, it} from 'vitest'
import type {SessionTool} from '../../api/connectors'
import type {ToolHints} from '../../lib/trust'
import {session} from '../../test/fakeBackend'
import {installFakeConnectors, sessionConnector} from '../../test/fakeConnectors'
import {renderApp} from '../../test/render'

const S = 's1'

describe('Tools panel: annotations', () => {
  it('shows each tool\'s claims as badges, read-only once', async () => {
    const tool = (name: string, annotations: ToolHints, readOnly = false): SessionTool & {annotations: ToolHints} =>
      ({canonical: `files.${name}`, name, enabled: true, readOnly, annotations})
    const r = await renderApp({sessions: [session(S, 'Plans')], status: {lastSessionId: S}})
    const fake = installFakeConnectors(r.backend, {
      tools: {[S]: {revision: 1, roots: [], connectors: [sessionConnector('c1', 'Files', {enabledInSession: true, tools: [
        tool('read', {readOnlyHint: true, idempotentHint: true}, true),
        tool('wipe', {destructiveHint: true, openWorldHint: true}),
      ]})]}},
    })
    await r.user.click(await screen.findByTestId('tools-button'))
    await waitFor(() => expect(fake.SessionTools).toHaveBeenCalledWith(S))
    await r.user.click(await within(await screen.findByTestId('tools-panel')).findByRole('button', {name: /Files/}))
    const row = (name: string) => screen.getAllByTestId('session-tool-toggle').find((e) => e.dataset.tool === `files.${name}`)!.closest('li')!
    expect(within(row('read')).getAllByText('Read-only')).toHaveLength(1)
    expect(within(row('read')).getByTestId('hint-idempotent')).toBeInTheDocument()
    expect(within(row('wipe')).getByTestId('hint-destructive')).toHaveTextContent('Destructive')
    expect(within(row('wipe')).getByTestId('hint-open-world')).toBeInTheDocument()
    expect(within(row('wipe')).queryByText('Read-only')).toBeNull()
  })
})
