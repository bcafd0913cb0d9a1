import {render, screen} from '@testing-library/react'
import {describe, expect, it} from 'vitest'
import {MessageAttachments} from './MessageAttachments'

describe('MessageAttachments', () => {
  it('shows the files and resources a sent message carried, by name, never a resource body', () => {
    render(
      <MessageAttachments
        parts={[
          {type: 'text', text: 'look'},
          {type: 'file', name: 'cat.png', mimeType: 'image/png', data: 'AAAA'} as never,
          {type: 'file', name: 'spec.pdf', mimeType: 'application/pdf', size: 2048},
          {type: 'resource', uri: 'demo://resource/static/document/1', server: 'Everything', name: 'Resource 1', text: 'SECRET BODY'} as never,
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
    const {container} = render(<MessageAttachments parts={[{type: 'text', text: 'hi'}]} />)
    expect(container).toBeEmptyDOMElement()
  })
})
