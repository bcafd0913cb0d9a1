import {render, screen} from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import {describe, expect, it, vi} from 'vitest'
import {ToolResultView} from '../chat/ToolResultView'
import {ToolResourceContext} from './toolResources'

const result = {
  successful: true,
  attachments: [
    {type: 'resource_link', uri: 'demo://resource/static/document/3', name: 'Resource 3', mimeType: 'text/plain', text: 'A static document'},
    {type: 'resource', uri: 'demo://resource/dynamic/text/2', mimeType: 'text/markdown', text: '## Two'},
  ],
}

describe('tool results with resources', () => {
  it("opens a resource_link inline through the chat's reader, with the tool's name", async () => {
    const user = userEvent.setup()
    const read = vi.fn(async () => [{uri: 'demo://resource/static/document/3', mimeType: 'text/plain', text: 'Resource 3: plaintext'}])
    render(
      <ToolResourceContext.Provider value={read}>
        <ToolResultView result={result} tool="everything.get-resource-links" />
      </ToolResourceContext.Provider>,
    )
    expect(screen.getByTestId('resource-link')).toHaveTextContent('Resource 3')
    expect(screen.getByTestId('embedded-resource').querySelector('h2')).toHaveTextContent('Two')
    await user.click(screen.getByTestId('resource-link-open'))
    expect(await screen.findByText('Resource 3: plaintext')).toBeInTheDocument()
    expect(read).toHaveBeenCalledWith('everything.get-resource-links', 'demo://resource/static/document/3')
  })

  it('says a link cannot be opened without a reader', async () => {
    const user = userEvent.setup()
    render(<ToolResultView result={result} />)
    await user.click(screen.getByTestId('resource-link-open'))
    expect(await screen.findByTestId('resource-link-error')).toHaveTextContent('cannot be opened here')
  })
})
