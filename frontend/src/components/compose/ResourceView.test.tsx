import {render, screen} from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import {describe, expect, it, vi} from 'vitest'
import {downloadName, EmbeddedResource, ResourceLink} from './ResourceView'

describe('EmbeddedResource', () => {
  it.each([
    ['Markdown rendered', {uri: 'a://doc.md', mimeType: 'text/markdown', text: '# Title'}, (el: HTMLElement) => expect(el.querySelector('h1')).toHaveTextContent('Title')],
    ['plain text as it is', {uri: 'a://t', mimeType: 'text/plain', text: '# not a title'}, (el: HTMLElement) => expect(el.querySelector('pre')).toHaveTextContent('# not a title')],
    ['an image shown', {uri: 'a://i', mimeType: 'image/png', data: 'AAAA'}, () => expect(screen.getByTestId('resource-image')).toHaveAttribute('src', 'data:image/png;base64,AAAA')],
    ['SVG as a download, never a document', {uri: 'a://s.svg', mimeType: 'image/svg+xml', data: 'AAAA'}, () => expect(screen.getByTestId('resource-download')).toHaveAttribute('download', 's.svg')],
    ['other bytes as a download', {uri: 'a://b', name: 'blob.bin', mimeType: 'application/octet-stream', data: 'AAAA', size: 3}, () => expect(screen.getByTestId('resource-download')).toHaveTextContent('Download blob.bin (3 bytes)')],
    ['a cut text noted', {uri: 'a://t', mimeType: 'text/plain', text: 'x', truncated: true, size: 4 << 20}, () => expect(screen.getByTestId('resource-truncated')).toHaveTextContent('4.0 MB')],
  ])('%s', (_, r, check) => {
    render(<EmbeddedResource r={r} />)
    check(screen.getByTestId('resource-body'))
  })

  it('names a download by name, else the last part of the URI', () => {
    expect(downloadName({uri: 'demo://x/y/file.pdf?v=1'})).toBe('file.pdf')
    expect(downloadName({uri: 'demo://', name: 'n'})).toBe('n')
  })
})

describe('ResourceLink', () => {
  it('reads the resource on click and shows it inline; a second click hides it', async () => {
    const user = userEvent.setup()
    const read = vi.fn(async () => [{uri: 'demo://resource/static/document/2', mimeType: 'text/plain', text: 'Resource 2: This is a plaintext resource'}])
    render(<ResourceLink uri="demo://resource/static/document/2" name="Resource 2" description="A link" read={read} />)
    expect(screen.queryByTestId('resource-body')).toBeNull()
    await user.click(screen.getByTestId('resource-link-open'))
    expect(await screen.findByTestId('resource-body')).toHaveTextContent('This is a plaintext resource')
    await user.click(screen.getByTestId('resource-link-open'))
    expect(screen.queryByTestId('resource-body')).toBeNull()
    await user.click(screen.getByTestId('resource-link-open'))
    expect(screen.getByTestId('resource-body')).toBeInTheDocument()
    expect(read).toHaveBeenCalledTimes(1)
  })

  it("shows the server's message when the read fails", async () => {
    const user = userEvent.setup()
    render(<ResourceLink uri="demo://gone" read={async () => Promise.reject(new Error('the Everything server said: Resource not found'))} />)
    await user.click(screen.getByTestId('resource-link-open'))
    expect(await screen.findByTestId('resource-link-error')).toHaveTextContent('Resource not found')
  })
})
