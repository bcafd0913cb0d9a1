import {fireEvent, render, screen} from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import {describe, expect, it, vi} from 'vitest'
import {AttachMenu, filesOf} from './AttachMenu'
import {AttachmentChips} from './AttachmentChips'
import {drawnImage, fileType, MAX_READ_BYTES, readFileDraft, readRefusal, toBase64} from './attachFiles'
import type {DraftAttachment} from './types'

const png1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

const drafts: DraftAttachment[] = [
  {type: 'file', name: 'cat.png', mimeType: 'image/png', size: 70, data: png1x1},
  {type: 'file', name: 'notes.md', mimeType: 'text/markdown', size: 2048, data: btoa('# notes')},
  {type: 'resource', uri: 'demo://resource/static/document/1', connectorId: 'e', server: 'Everything', name: 'Resource 1', text: 'x', size: 1, updated: true},
]

describe('AttachmentChips', () => {
  it('shows each attachment with its name, size and a thumbnail for images', () => {
    render(<AttachmentChips attachments={drafts} onRemove={() => {}} />)
    const chips = screen.getAllByTestId('attachment-chip')
    expect(chips.map((c) => c.dataset.kind)).toEqual(['file', 'file', 'resource'])
    expect(chips[0].querySelector('img')?.getAttribute('src')).toBe(`data:image/png;base64,${png1x1}`)
    expect(chips[1]).toHaveTextContent('notes.md')
    expect(chips[1]).toHaveTextContent('2.0 KB')
    expect(chips[2]).toHaveTextContent('Resource 1')
    expect(chips[2]).toHaveTextContent('Everything')
  })

  it('shows an image the app cannot draw (TIFF) as a file chip, not a broken picture', () => {
    const tiff: DraftAttachment = {type: 'file', name: 'scan.tiff', mimeType: 'image/tiff', data: png1x1, size: 2048}
    render(<AttachmentChips attachments={[tiff]} onRemove={() => {}} />)
    const chip = screen.getByTestId('attachment-chip')
    expect(chip.querySelector('img')).toBeNull()
    expect(chip).toHaveTextContent('scan.tiff')
  })

  it('removes a chip, and refreshes an updated resource', async () => {
    const user = userEvent.setup()
    const onRemove = vi.fn()
    const onRefresh = vi.fn()
    render(<AttachmentChips attachments={drafts} onRemove={onRemove} onRefresh={onRefresh} />)
    expect(screen.getAllByTestId('chip-updated')).toHaveLength(1)
    await user.click(screen.getByRole('button', {name: 'Read Resource 1 again'}))
    expect(onRefresh).toHaveBeenCalledWith(2)
    await user.click(screen.getByRole('button', {name: 'Remove notes.md'}))
    expect(onRemove).toHaveBeenCalledWith(1)
  })

  it('shows refusals as text before anything is sent', () => {
    render(<AttachmentChips attachments={[]} onRemove={() => {}} refusals={['big.pdf is 40 MB, over Claude’s 32 MB per document.']} />)
    expect(screen.getByTestId('attachment-refusal')).toHaveTextContent('over Claude’s 32 MB')
  })

  it('renders nothing for an empty draft', () => {
    const {container} = render(<AttachmentChips attachments={[]} onRemove={() => {}} />)
    expect(container).toBeEmptyDOMElement()
  })
})

describe('AttachMenu', () => {
  it('takes files from the paperclip and opens the resource picker', async () => {
    const user = userEvent.setup()
    const onFiles = vi.fn()
    const onResources = vi.fn()
    render(<AttachMenu onFiles={onFiles} onResources={onResources} />)
    await user.click(screen.getByTestId('attach'))
    await user.click(screen.getByTestId('attach-resource'))
    expect(onResources).toHaveBeenCalled()
    const file = new File(['hello'], 'hello.txt', {type: 'text/plain'})
    // The input is hidden (the menu item clicks it): the choice arrives as its change.
    fireEvent.change(screen.getByTestId('attach-input'), {target: {files: [file]}})
    expect(onFiles).toHaveBeenCalledWith([file])
  })

  it('offers no resources when no connector has any', async () => {
    const user = userEvent.setup()
    render(<AttachMenu onFiles={() => {}} />)
    await user.click(screen.getByTestId('attach'))
    expect(screen.getByTestId('attach-resource')).toBeDisabled()
  })
})

describe('attachFiles', () => {
  it.each([
    ['a.md', '', 'text/markdown'],
    ['A.PDF', '', 'application/pdf'],
    ['x.png', 'image/png', 'image/png'],
    ['blob', '', 'application/octet-stream'],
  ])('fileType(%j, %j) = %j', (name, type, want) => {
    expect(fileType(name, type)).toBe(want)
  })

  it('refuses to read a file over the cap, naming both sizes', () => {
    expect(readRefusal({name: 'huge.iso', size: MAX_READ_BYTES + 1})).toBe('huge.iso is 64 MB, over the 64 MB Maestro reads for an attachment.')
    expect(readRefusal({name: 'ok.txt', size: 10})).toBeNull()
  })

  it('reads a file into a draft, base64 across chunk boundaries', async () => {
    const bytes = new Uint8Array(0x8000 + 5).map((_, i) => i % 251)
    const draft = await readFileDraft(new File([bytes], 'data.bin'))
    expect(draft).toMatchObject({type: 'file', name: 'data.bin', mimeType: 'application/octet-stream', size: bytes.length})
    expect(Uint8Array.from(atob(draft.data), (c) => c.charCodeAt(0))).toEqual(bytes)
    expect(toBase64(new TextEncoder().encode('hi'))).toBe('aGk=')
  })

  it('takes the files of a drop or paste, none from text', () => {
    const dt = {files: [new File(['a'], 'a.txt')]} as unknown as DataTransfer
    expect(filesOf(dt).map((f) => f.name)).toEqual(['a.txt'])
    expect(filesOf(null)).toEqual([])
  })
})

describe('drawnImage', () => {
  it.each([
    ['image/png', true],
    ['IMAGE/JPEG', true],
    ['image/webp; q=1', true],
    ['image/tiff', false],
    ['image/heic', false],
    ['image/svg+xml', false],
    [undefined, false],
  ])('%s → %s', (mime, want) => {
    expect(drawnImage(mime)).toBe(want)
  })
})
