import {fireEvent, render, screen, waitFor} from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import {useState} from 'react'
import {beforeEach, describe, expect, it, vi} from 'vitest'
import type {ComposeApi} from './composeApi'
import {useDraftAttachments} from './draftAttachments'
import type {DraftAttachment} from './types'
import {useCompose} from './useCompose'

/** A fake of Go that answers as server-everything does. */
function fakeApi(): ComposeApi {
  return {
    offers: vi.fn(async () => [{connectorId: 'e', server: 'Everything', state: 'ready', prompts: true, resources: true, subscribe: true, completions: true}]),
    prompts: vi.fn(async () => ({
      prompts: [
        {connectorId: 'e', server: 'Everything', name: 'simple-prompt', arguments: []},
        {connectorId: 'e', server: 'Everything', name: 'args-prompt', arguments: [{name: 'city', required: true}]},
      ],
    })),
    getPrompt: vi.fn(async (_s, _c, name, args) => {
      if (args.city === 'Atlantis') throw new Error(`prompt "${name}": the Everything server said: Unknown city`)
      return [
        {type: 'text', text: `What's weather in ${args.city}?`},
        {type: 'resource', uri: 'demo://resource/static/document/1', connectorId: 'e', server: 'Everything', text: 'Resource 1'},
      ]
    }),
    complete: vi.fn(async (_s, _c, _r, _a, value) => ['Paris', 'Prague'].filter((c) => c.startsWith(value))),
    resources: vi.fn(async () => ({resources: [{connectorId: 'e', server: 'Everything', uri: 'demo://resource/static/document/2', name: 'Resource 2'}]})),
    templates: vi.fn(async () => []),
    readResource: vi.fn(async (_s, c, uri) => [{type: 'resource', uri, connectorId: c, server: 'Everything', mimeType: 'text/plain', text: 'body'}]),
    readTemplate: vi.fn(async () => []),
    subscribe: vi.fn(async () => {}),
    checkAttachments: vi.fn(async (_s: string, list: DraftAttachment[]) => (list.some((a) => a.type === 'file' && a.size > 10) ? ['big.txt is 11 bytes, over the 10 bytes Claude takes'] : [])),
  }
}

function Host({api}: {api: ComposeApi}) {
  const [text, setText] = useState('')
  const c = useCompose({sessionId: 's1', text, setText, api})
  return (
    <div data-testid="box" onDrop={c.onDrop} onDragOver={c.onDragOver}>
      {c.overlay}
      {c.chips}
      {c.attachButton}
      <textarea aria-label="Message" value={text} onChange={(e) => setText(e.target.value)} onKeyDown={(e) => c.onKeyDown(e)} onPaste={c.onPaste} />
    </div>
  )
}

beforeEach(() => useDraftAttachments.setState({bySession: {}, refusals: {}}))

describe('useCompose', () => {
  it('runs a prompt from "/" through its form into the draft, text and resource', async () => {
    const user = userEvent.setup()
    const api = fakeApi()
    render(<Host api={api} />)
    const box = screen.getByRole('textbox', {name: 'Message'})
    await user.type(box, '/args')
    await screen.findByTestId('prompt-option')
    await user.keyboard('{Enter}')
    const field = await screen.findByTestId('field-city')
    await user.type(field, 'Pa')
    await user.click(await screen.findByRole('button', {name: 'Paris'}))
    expect(api.complete).toHaveBeenLastCalledWith('s1', 'e', {prompt: 'args-prompt'}, 'city', 'Pa', {})
    await user.click(screen.getByTestId('prompt-insert'))
    await waitFor(() => expect(box).toHaveValue("What's weather in Paris?"))
    expect(screen.queryByTestId('prompt-form')).toBeNull()
    expect(screen.getByTestId('attachment-chip')).toHaveTextContent('demo://resource/static/document/1')
  })

  it("keeps the form open with the server's refusal", async () => {
    const user = userEvent.setup()
    render(<Host api={fakeApi()} />)
    await user.type(screen.getByRole('textbox', {name: 'Message'}), '/args')
    await user.click(await screen.findByTestId('prompt-option'))
    await user.type(await screen.findByTestId('field-city'), 'Atlantis{Enter}')
    expect(await screen.findByTestId('prompt-error')).toHaveTextContent('Unknown city')
  })

  it('attaches a resource picked after "@", follows it, and drops the "@" from the text', async () => {
    const user = userEvent.setup()
    const api = fakeApi()
    render(<Host api={api} />)
    const box = screen.getByRole('textbox', {name: 'Message'})
    await user.type(box, 'read @Res')
    expect(await screen.findByTestId('picker-search')).toHaveValue('Res')
    await user.click(await screen.findByTestId('picker-resource'))
    await waitFor(() => expect(screen.queryByTestId('resource-picker')).toBeNull())
    expect(box).toHaveValue('read ')
    expect(screen.getByTestId('attachment-chip')).toHaveTextContent('Resource 2')
    expect(api.subscribe).toHaveBeenCalledWith('s1', 'e', 'demo://resource/static/document/2')
    // The server says it changed: the chip offers a refresh.
    useDraftAttachments.getState().markUpdated('e', 'demo://resource/static/document/2', ['s1'])
    await user.click(await screen.findByTestId('chip-refresh'))
    await waitFor(() => expect(screen.queryByTestId('chip-updated')).toBeNull())
  })

  it('takes dropped and pasted files, and shows the refusal Go finds before sending', async () => {
    const api = fakeApi()
    render(<Host api={api} />)
    fireEvent.drop(screen.getByTestId('box'), {dataTransfer: {files: [new File(['ok'], 'small.txt', {type: 'text/plain'})], types: ['Files']}})
    await waitFor(() => expect(screen.getAllByTestId('attachment-chip')).toHaveLength(1))
    fireEvent.paste(screen.getByRole('textbox', {name: 'Message'}), {clipboardData: {files: [new File(['01234567890'], 'big.txt', {type: 'text/plain'})]}})
    await waitFor(() => expect(screen.getAllByTestId('attachment-chip')).toHaveLength(2))
    expect(await screen.findByTestId('attachment-refusal')).toHaveTextContent('over the 10 bytes Claude takes')
    fireEvent.click(screen.getByRole('button', {name: 'Remove big.txt'}))
    await waitFor(() => expect(screen.queryByTestId('attachment-refusal')).toBeNull())
  })
})
