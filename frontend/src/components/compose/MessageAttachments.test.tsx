import {render, screen, waitFor} from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import {beforeEach, describe, expect, it} from 'vitest'
import {installFakeBackend} from '../../test/fakeBackend'
import {MessageAttachments} from './MessageAttachments'
import {clearStoredFiles, decodeText, isTextType} from './storedFiles'

const png = 'iVBORw0KGgo='
const notes = btoa('# Notes\n\nbuy milk')

describe('MessageAttachments', () => {
  beforeEach(() => clearStoredFiles())

  it('shows the files and resources a sent message carried, by name, never a resource body', () => {
    render(
      <MessageAttachments
        sessionId="s1"
        parts={[
          {type: 'text', text: 'look'},
          {type: 'file', name: 'cat.png', mimeType: 'image/png', data: 'AAAA'},
          {type: 'file', name: 'spec.pdf', mimeType: 'application/pdf', size: 2048},
          {type: 'resource', uri: 'demo://resource/static/document/1', server: 'Everything', name: 'Resource 1', text: 'SECRET BODY'},
        ]}
      />,
    )
    const items = screen.getAllByTestId('message-attachment')
    expect(items.map((i) => i.dataset.kind)).toEqual(['file', 'file', 'resource'])
    expect(items[0].querySelector('img')).toHaveAttribute('alt', 'cat.png')
    expect(items[1]).toHaveTextContent('spec.pdf2.0 KB')
    expect(items[2]).toHaveTextContent('Resource 1Everything')
    expect(screen.getByTestId('message-attachments')).not.toHaveTextContent('SECRET BODY')
  })

  it('renders nothing for a text-only message', () => {
    const {container} = render(<MessageAttachments sessionId="s1" parts={[{type: 'text', text: 'hi'}]} />)
    expect(container).toBeEmptyDOMElement()
  })

  it('reads a stored image by its ref once, however often the message is drawn', async () => {
    const go = installFakeBackend({files: {'s1/sha256-img': {ref: 'sha256-img', mimeType: 'image/png', size: 8, data: png}}})
    const parts = [{type: 'file', name: 'shot.png', mimeType: 'image/png', ref: 'sha256-img', size: 8}]
    const first = render(<MessageAttachments sessionId="s1" parts={parts} />)
    const img = await screen.findByTestId('message-attachment-image')
    expect(img).toHaveAttribute('src', `data:image/png;base64,${png}`)
    expect(img).toHaveAttribute('alt', 'shot.png')
    first.unmount()
    render(<MessageAttachments sessionId="s1" parts={parts} />)
    await screen.findByTestId('message-attachment-image')
    expect(go.Sessions.Attachment).toHaveBeenCalledTimes(1)
    expect(go.Sessions.Attachment).toHaveBeenCalledWith('s1', 'sha256-img')
  })

  it("says so when an image's bytes are gone, with Go's message", async () => {
    installFakeBackend()
    render(<MessageAttachments sessionId="s1" parts={[{type: 'file', name: 'gone.png', mimeType: 'image/png', ref: 'sha256-gone'}]} />)
    const err = await screen.findByTestId('message-attachment-error')
    expect(err).toHaveTextContent('gone.png: this attachment is no longer stored in this chat')
    expect(screen.queryByTestId('message-attachment-image')).toBeNull()
  })

  it('opens a stored text file to its text, and saves a PDF through Go', async () => {
    const go = installFakeBackend({files: {'s1/sha256-md': {ref: 'sha256-md', mimeType: 'text/plain; charset=utf-8', size: 17, data: notes}}})
    render(
      <MessageAttachments
        sessionId="s1"
        parts={[
          {type: 'file', name: 'notes.md', mimeType: 'text/markdown', ref: 'sha256-md', size: 17},
          {type: 'file', name: 'spec.pdf', mimeType: 'application/pdf', ref: 'sha256-pdf', size: 9000},
        ]}
      />,
    )
    const [md, pdf] = screen.getAllByTestId('message-attachment-open')
    expect(go.Sessions.Attachment).not.toHaveBeenCalled() // nothing read until opened

    await userEvent.click(md)
    expect(md).toHaveAttribute('aria-expanded', 'true')
    const body = await screen.findByTestId('resource-body')
    expect(body).toHaveTextContent('Notes')
    expect(body).toHaveTextContent('buy milk')

    await userEvent.click(pdf)
    expect(screen.queryByTestId('resource-body')).toBeNull() // one open at a time, a PDF is not read
    expect(screen.getByTestId('message-attachment-panel')).toHaveTextContent('spec.pdf')
    await userEvent.click(screen.getByTestId('message-attachment-save'))
    await waitFor(() => expect(screen.getByTestId('message-attachment-saved')).toHaveTextContent('Saved to /home/me/spec.pdf'))
    expect(go.Sessions.SaveAttachment).toHaveBeenCalledWith('s1', 'sha256-pdf', 'spec.pdf')
    expect(go.Sessions.Attachment).toHaveBeenCalledTimes(1)

    await userEvent.click(pdf)
    expect(screen.queryByTestId('message-attachment-panel')).toBeNull()
  })

  it('decodes UTF-8 and knows text types as Go does', () => {
    expect(decodeText(btoa(String.fromCharCode(...new TextEncoder().encode('héllo ✓'))))).toBe('héllo ✓')
    expect(['text/markdown', 'application/json', 'application/x-python', 'application/ld+json'].every((m) => isTextType(m))).toBe(true)
    expect(['application/pdf', 'image/png', ''].some((m) => isTextType(m))).toBe(false)
  })
})
