import {beforeEach, describe, expect, it} from 'vitest'
import {promptDraft, resourceDraft, useDraftAttachments} from './draftAttachments'
import type {ResourceDraft} from './types'

const doc = (uri: string, text = 'x'): ResourceDraft => ({type: 'resource', uri, connectorId: 'e', server: 'Everything', text})

describe('useDraftAttachments', () => {
  beforeEach(() => useDraftAttachments.setState({bySession: {}, refusals: {}}))

  it('adds per session, once per resource or file, a new read replacing the old', () => {
    const s = useDraftAttachments.getState()
    s.add('a', [doc('u1'), {type: 'file', name: 'n.txt', mimeType: 'text/plain', size: 1, data: 'eA=='}])
    s.add('a', [doc('u1', 'new'), {type: 'file', name: 'n.txt', mimeType: 'text/plain', size: 1, data: 'eA=='}])
    s.add('b', [doc('u1')])
    const a = useDraftAttachments.getState().bySession.a
    expect(a).toHaveLength(2)
    expect((a[0] as ResourceDraft).text).toBe('new')
    expect(useDraftAttachments.getState().bySession.b).toHaveLength(1)
  })

  it('marks an updated resource in the sessions that follow it only, and refreshes it in place', () => {
    const s = useDraftAttachments.getState()
    s.add('a', [doc('u1'), doc('u2')])
    s.add('b', [doc('u1')])
    expect(s.markUpdated('e', 'u1', ['a'])).toBe(true)
    expect(s.markUpdated('e', 'u9', ['a'])).toBe(false)
    const st = useDraftAttachments.getState().bySession
    expect(st.a.map((x) => (x as ResourceDraft).updated)).toEqual([true, undefined])
    expect((st.b[0] as ResourceDraft).updated).toBeUndefined()
    s.replace('a', 0, doc('u1', 'fresh'))
    expect(useDraftAttachments.getState().bySession.a[0]).toEqual(doc('u1', 'fresh'))
  })

  it('removes one, clearing the refusals, and clears a session after sending', () => {
    const s = useDraftAttachments.getState()
    s.add('a', [doc('u1'), doc('u2')])
    s.setRefusals('a', ['too big'])
    s.remove('a', 0)
    expect(useDraftAttachments.getState().bySession.a.map((x) => (x as ResourceDraft).uri)).toEqual(['u2'])
    expect(useDraftAttachments.getState().refusals.a).toEqual([])
    s.clear('a')
    expect(useDraftAttachments.getState().bySession.a).toBeUndefined()
  })
})

describe('promptDraft', () => {
  it("puts a prompt's text in the draft and its files and resources in the attachments", () => {
    const got = promptDraft([
      {type: 'text', text: 'This is a prompt with arguments: city=Paris'},
      {type: 'resource', uri: 'demo://resource/static/document/2', connectorId: 'e', server: 'Everything', mimeType: 'text/plain', text: 'Resource 2'},
      {type: 'text', text: 'Assistant: noted'},
      {type: 'file', name: '', mimeType: 'image/png', size: 3, data: 'AAAA'},
      {type: 'tool_call'},
    ])
    expect(got.text).toBe('This is a prompt with arguments: city=Paris\n\nAssistant: noted')
    expect(got.attachments).toEqual([
      {type: 'resource', uri: 'demo://resource/static/document/2', connectorId: 'e', server: 'Everything', mimeType: 'text/plain', text: 'Resource 2'},
      {type: 'file', name: 'file', mimeType: 'image/png', size: 3, data: 'AAAA'},
    ])
  })

  it('names a read resource by the listing when the read has no name', () => {
    expect(resourceDraft({uri: 'u', connectorId: 'e', server: 'E'}, 'Listed')).toEqual({type: 'resource', uri: 'u', connectorId: 'e', server: 'E', name: 'Listed'})
  })
})
