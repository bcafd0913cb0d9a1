import {render, screen} from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import {describe, expect, it, vi} from 'vitest'
import {ConnectorOffering} from './ConnectorOffering'
import type {Offering} from './types'

const offering: Offering = {
  connectorId: 'e',
  prompts: [
    {connectorId: 'e', server: 'Everything', name: 'simple-prompt', description: 'No arguments', arguments: []},
    {connectorId: 'e', server: 'Everything', name: 'args-prompt', arguments: [{name: 'city', required: true}, {name: 'state'}]},
  ],
  templates: [{connectorId: 'e', server: 'Everything', uriTemplate: 'demo://resource/dynamic/text/{resourceId}', variables: ['resourceId'], name: 'Dynamic Text'}],
  resources: [{connectorId: 'e', server: 'Everything', uri: 'demo://resource/static/document/1', name: 'Resource 1'}],
  moreResources: true,
  errors: [],
}

describe('ConnectorOffering', () => {
  it('reads what the connector offers when opened, once, and lists it next to the tool count', async () => {
    const user = userEvent.setup()
    const load = vi.fn(async () => offering)
    render(<ConnectorOffering load={load} tools={13} />)
    expect(load).not.toHaveBeenCalled()
    await user.click(screen.getByTestId('offering-toggle'))
    expect(await screen.findByTestId('offering-counts')).toHaveTextContent('13 tools · 2 prompts · 1+ resources · 1 template')
    expect(screen.getByTestId('offering-prompts')).toHaveTextContent('/args-prompt (city, state?)')
    expect(screen.getByTestId('offering-resources')).toHaveTextContent('demo://resource/dynamic/text/{resourceId}')
    await user.click(screen.getByTestId('offering-toggle'))
    await user.click(screen.getByTestId('offering-toggle'))
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('shows why it could not ask', async () => {
    const user = userEvent.setup()
    render(<ConnectorOffering load={() => Promise.reject(new Error('the Git connector is stopped'))} />)
    await user.click(screen.getByTestId('offering-toggle'))
    expect(await screen.findByTestId('offering-error')).toHaveTextContent('the Git connector is stopped')
  })
})
