import {render, screen, waitFor} from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import {describe, expect, it, vi} from 'vitest'
import {ResourcePicker, templateLabel} from './ResourcePicker'
import type {Resource, ResourcePage, ResourceTemplate} from './types'

const res = (n: number): Resource => ({connectorId: 'e', server: 'Everything', uri: `demo://resource/static/document/${n}`, name: `Resource ${n}`, mimeType: 'text/plain'})

/** server-everything's way: pages of 10 with a cursor. */
async function listPage(connectorId: string, cursor: string): Promise<ResourcePage> {
  if (connectorId !== 'e') return {resources: []}
  const start = cursor ? Number(cursor) : 1
  const resources = Array.from({length: 10}, (_, i) => res(start + i))
  return {resources, nextCursor: start + 10 <= 21 ? String(start + 10) : undefined}
}

const template: ResourceTemplate = {
  connectorId: 'e',
  server: 'Everything',
  uriTemplate: 'demo://resource/dynamic/text/{resourceId}',
  variables: ['resourceId'],
  name: 'Dynamic Text Resource',
}

const sources = [
  {connectorId: 'e', server: 'Everything'},
  {connectorId: 'g', server: 'Git'},
]

function setup(extra: Partial<Parameters<typeof ResourcePicker>[0]> = {}) {
  const onPick = vi.fn(async () => {})
  const onPickTemplate = vi.fn(async () => {})
  const onClose = vi.fn()
  render(
    <ResourcePicker sources={sources} listPage={listPage} templates={[template]} onPick={onPick} onPickTemplate={onPickTemplate} onClose={onClose} {...extra} />,
  )
  return {onPick, onPickTemplate, onClose, user: userEvent.setup()}
}

describe('ResourcePicker', () => {
  it("browses a connector's resources a page at a time", async () => {
    const {user} = setup()
    await waitFor(() => expect(screen.getAllByTestId('picker-resource')).toHaveLength(10))
    await user.click(screen.getByTestId('picker-more'))
    await waitFor(() => expect(screen.getAllByTestId('picker-resource')).toHaveLength(20))
    await user.click(screen.getByTestId('picker-more'))
    await waitFor(() => expect(screen.getAllByTestId('picker-resource')).toHaveLength(30))
    expect(screen.queryByTestId('picker-more')).toBeNull()
  })

  it('searches what is loaded by name or URI, and opens with the "@" query', async () => {
    const {user} = setup({initialQuery: 'resource 1'})
    await waitFor(() => expect(screen.getAllByTestId('picker-resource').map((b) => b.dataset.uri)).toEqual([
      'demo://resource/static/document/1',
      'demo://resource/static/document/10',
    ]))
    await user.clear(screen.getByTestId('picker-search'))
    await user.type(screen.getByTestId('picker-search'), 'document/7')
    expect(screen.getAllByTestId('picker-resource').map((b) => b.dataset.uri)).toEqual(['demo://resource/static/document/7'])
  })

  it('attaches a picked resource, and shows why a read failed', async () => {
    const onPick = vi.fn().mockRejectedValueOnce(new Error('resource demo://x: the Everything server said: Resource not found')).mockResolvedValue(undefined)
    const {user} = setup({onPick})
    const first = (await screen.findAllByTestId('picker-resource'))[0]
    await user.click(first)
    expect(await screen.findByTestId('picker-error')).toHaveTextContent('Resource not found')
    await user.click(first)
    await waitFor(() => expect(screen.queryByTestId('picker-error')).toBeNull())
    expect(onPick).toHaveBeenLastCalledWith(res(1))
  })

  it("fills a template's variables with the server's completions", async () => {
    const complete = vi.fn(async (_n: string, v: string) => ['1', '2', '3'].filter((x) => x.startsWith(v)))
    const {user, onPickTemplate} = setup({completeVariable: () => complete})
    await user.click(await screen.findByTestId('picker-template'))
    expect(screen.getByTestId('template-attach')).toBeDisabled()
    await user.type(screen.getByTestId('field-resourceId'), '2')
    await waitFor(() => expect(complete).toHaveBeenCalledWith('resourceId', '2', {}))
    await user.clear(screen.getByTestId('field-resourceId'))
    await user.click(await screen.findByRole('button', {name: '3'}))
    expect(screen.getByTestId('field-resourceId')).toHaveValue('3')
    await user.type(screen.getByTestId('field-resourceId'), '{Enter}')
    expect(onPickTemplate).toHaveBeenCalledWith(template, {resourceId: '3'})
  })

  it('switches connectors, and says when one lists nothing', async () => {
    const {user} = setup()
    await screen.findAllByTestId('picker-resource')
    await user.click(screen.getByRole('tab', {name: 'Git'}))
    expect(await screen.findByTestId('picker-none')).toHaveTextContent('lists no resources')
  })

  it('closes on Escape', async () => {
    const {user, onClose} = setup()
    await screen.findAllByTestId('picker-resource')
    await user.keyboard('{Escape}')
    expect(onClose).toHaveBeenCalled()
  })

  it('says when no connector offers resources', () => {
    render(<ResourcePicker sources={[]} listPage={listPage} templates={[]} onPick={vi.fn()} onPickTemplate={vi.fn()} onClose={vi.fn()} />)
    expect(screen.getByTestId('picker-empty')).toBeInTheDocument()
  })
})

describe('templateLabel', () => {
  it.each([
    [{name: 'dynamic-text', title: 'Dynamic Text Resource'}, {resourceId: '3'}, 'Dynamic Text Resource (resourceId: 3)'],
    [{name: 'file'}, {owner: 'me', path: 'a.md'}, 'file (owner: me, path: a.md)'],
    [{name: 'file'}, {path: ''}, 'file'],
  ])('%o with %o reads %s', (t, values, want) => {
    expect(templateLabel(t, values)).toBe(want)
  })
})
