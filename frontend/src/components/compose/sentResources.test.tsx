import {act, render, screen, waitFor} from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import {afterEach, describe, expect, it, vi} from 'vitest'
import type {Part} from '../../api/types'
import {useDraftAttachments} from './draftAttachments'
import {MessageAttachments} from './MessageAttachments'
import {SentResourceContext, type SentResourceApi, sentResourceApi, useSentUpdates} from './sentResources'

const URI = 'demo://resource/dynamic/text/2'
const sent = [
  {type: 'text', text: 'What does it say?'},
  {type: 'resource', uri: URI, connectorId: 'c1', server: 'Everything', name: 'Text 2', text: 'old words'} as never,
] as Part[]

/** Go's calls behind one opened chat's chips (sentResourceApi), faked. */
function goCalls(over: {readResource?: () => Promise<never>; subscribe?: () => Promise<void>} = {}) {
  return {
    readResource: vi.fn(over.readResource ?? (async () => [{type: 'resource', uri: URI, connectorId: 'c1', server: 'Everything', mimeType: 'text/plain', text: 'new words'}] as never)),
    subscribe: vi.fn(over.subscribe ?? (async () => {})),
  }
}

function api(calls = goCalls()): SentResourceApi {
  return sentResourceApi('s1', calls)
}

function show(a: SentResourceApi | null) {
  return render(
    <SentResourceContext.Provider value={a}>
      <MessageAttachments parts={sent} sessionId="s1" />
    </SentResourceContext.Provider>,
  )
}

afterEach(() => {
  useSentUpdates.setState({bySession: {}})
  useDraftAttachments.setState({bySession: {}, refusals: {}})
})

describe('a sent message’s resource chip', () => {
  it('follows its resource once while the chat is open, and again when it is opened again', async () => {
    const calls = goCalls()
    const open = api(calls)
    show(open).unmount() // a row scrolled away and back
    show(open).unmount()
    await waitFor(() => expect(calls.subscribe).toHaveBeenCalledTimes(1))
    expect(calls.subscribe).toHaveBeenCalledWith('s1', 'c1', URI)
    expect(screen.queryByTestId('sent-updated')).toBeNull()
    show(api(calls)) // the chat opened again (after a restart, Go follows nothing)
    await waitFor(() => expect(calls.subscribe).toHaveBeenCalledTimes(2))
  })

  it('follows again when following failed (a connector turned off)', async () => {
    const calls = goCalls({subscribe: async () => Promise.reject(new Error('not found'))})
    const open = api(calls)
    show(open).unmount()
    await waitFor(() => expect(calls.subscribe).toHaveBeenCalledTimes(1))
    show(open)
    await waitFor(() => expect(calls.subscribe).toHaveBeenCalledTimes(2))
  })

  it('shows "updated" when the server changed it, and Refresh puts the fresh read in the draft', async () => {
    const user = userEvent.setup()
    const calls = goCalls()
    show(api(calls))
    act(() => useSentUpdates.getState().mark('c1', URI, ['s1']))
    const chip = screen.getByTestId('message-attachment')
    expect(chip).toHaveTextContent('Text 2')
    expect(screen.getByTestId('sent-updated')).toHaveTextContent('updated')
    await user.click(screen.getByTestId('sent-refresh'))
    expect(calls.readResource).toHaveBeenCalledWith('s1', 'c1', URI)
    await waitFor(() => expect(screen.queryByTestId('sent-updated')).toBeNull())
    const draft = useDraftAttachments.getState().bySession.s1
    expect(draft).toHaveLength(1)
    expect(draft[0]).toMatchObject({type: 'resource', uri: URI, connectorId: 'c1', text: 'new words', name: 'Text 2'})
  })

  it('is not marked by an update for another chat or another resource', () => {
    show(api())
    act(() => {
      useSentUpdates.getState().mark('c1', URI, ['s2'])
      useSentUpdates.getState().mark('c1', 'demo://other', ['s1'])
    })
    expect(screen.queryByTestId('sent-updated')).toBeNull()
  })

  it("shows the server's message when the read fails, and keeps the badge", async () => {
    const user = userEvent.setup()
    show(api(goCalls({readResource: async () => Promise.reject(new Error('Resource demo://resource/dynamic/text/2 not found'))})))
    act(() => useSentUpdates.getState().mark('c1', URI, ['s1']))
    await user.click(screen.getByTestId('sent-refresh'))
    expect(await screen.findByTestId('sent-refresh-error')).toHaveTextContent('Resource demo://resource/dynamic/text/2 not found')
    expect(screen.getByTestId('sent-updated')).toBeInTheDocument()
    expect(useDraftAttachments.getState().bySession.s1).toBeUndefined()
  })

  it('only names its resource outside a chat', () => {
    show(null)
    act(() => useSentUpdates.getState().mark('c1', URI, ['s1']))
    expect(screen.getByTestId('message-attachment')).toHaveTextContent('Text 2')
    expect(screen.queryByTestId('sent-refresh')).toBeNull()
  })
})
