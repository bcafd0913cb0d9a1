import {describe, expect, it, vi} from 'vitest'
import {fireEvent, render, screen, waitFor} from '@testing-library/react'
import {AppCard, type AppCardProps} from './AppCard'
import {withCsp} from './proxy'
import {ViewSim} from './viewSim.test-util'

const resource = {
  uri: 'ui://t/app.html',
  html: '<!DOCTYPE html><html><head></head><body><button>go</button></body></html>',
  csp: {connectDomains: ['https://api.example.com']},
}

function props(over: Partial<AppCardProps> = {}): AppCardProps {
  return {
    toolName: 'get-time',
    toolInput: {},
    loadResource: () => Promise.resolve(resource),
    theme: 'light',
    callbacks: {callTool: vi.fn(), draft: vi.fn(), openLink: vi.fn(), modelContext: vi.fn(() => Promise.resolve())},
    fallback: <pre>the text result</pre>,
    ...over,
  }
}

describe('AppCard', () => {
  it('renders the view in a sandbox proxy that is never same-origin with Maestro', async () => {
    render(<AppCard {...props()} />)
    const frame = (await screen.findByTitle('App ui://t/app.html')) as HTMLIFrameElement
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts')
    await waitFor(() => expect(frame.getAttribute('srcdoc')).toBeTruthy()) // once the bridge listens
    const doc = frame.getAttribute('srcdoc')!
    expect(doc).toContain('Content-Security-Policy')
    expect(doc).toContain('connect-src https://api.example.com')
    expect(doc).toContain("inner.setAttribute('sandbox', SANDBOX)")
    expect(doc).toContain('"allow-scripts allow-forms"')
    expect(doc).not.toContain('allow-same-origin')
    expect(doc).not.toContain('frame-src')
  })

  it('shows the static fallback when the UI cannot be had', async () => {
    render(<AppCard {...props({loadResource: () => Promise.reject(new Error('the connector no longer exists'))})} />)
    expect(await screen.findByText('the text result')).toBeInTheDocument()
    expect(screen.getByText(/the connector no longer exists/)).toBeInTheDocument()
    expect(screen.queryByTestId('app-card')).toBeNull()
  })

  it('expands to a larger panel and back without reloading the view', async () => {
    render(<AppCard {...props()} />)
    const frame = await screen.findByTitle('App ui://t/app.html')
    fireEvent.click(screen.getByRole('button', {name: 'Expand the app'}))
    await waitFor(() => expect(screen.getByTestId('app-card')).toHaveClass('expanded'))
    expect(screen.getByTitle('App ui://t/app.html')).toBe(frame)
    fireEvent.click(screen.getByRole('button', {name: 'Collapse the app'}))
    await waitFor(() => expect(screen.getByTestId('app-card')).not.toHaveClass('expanded'))
  })
})

describe('AppCard with a view', () => {
  async function mount(over: Partial<AppCardProps> = {}) {
    vi.spyOn(console, 'debug').mockImplementation(() => {})
    const p = props(over)
    const r = render(<AppCard {...p} />)
    const frame = (await screen.findByTitle('App ui://t/app.html')) as HTMLIFrameElement
    const view = new ViewSim(frame)
    return {p, r, view}
  }

  it('asks before opening a link and opens it only on yes', async () => {
    const {p, view} = await mount()
    await view.handshake()
    view.send({id: 2, method: 'ui/open-link', params: {url: 'https://example.com/docs'}})
    expect(await screen.findByTestId('app-link-url')).toHaveTextContent('https://example.com/docs')
    expect(p.callbacks.openLink).not.toHaveBeenCalled()
    fireEvent.click(screen.getByTestId('app-link-open'))
    expect((await view.reply(2)).result).toEqual({})
    expect(p.callbacks.openLink).toHaveBeenCalledWith('https://example.com/docs')

    view.send({id: 3, method: 'ui/open-link', params: {url: 'https://example.com/other'}})
    await screen.findByTestId('app-link-url')
    fireEvent.click(screen.getByRole('button', {name: 'Cancel'}))
    expect((await view.reply(3)).error?.message).toContain('denied by user')
    expect(p.callbacks.openLink).toHaveBeenCalledTimes(1)
  })

  it('sends ui/message to the draft and shows a model-context update on the card', async () => {
    const {p, r, view} = await mount()
    await view.handshake()
    view.send({id: 2, method: 'ui/message', params: {role: 'user', content: [{type: 'text', text: 'hello from the app'}]}})
    await view.reply(2)
    expect(p.callbacks.draft).toHaveBeenCalledWith('hello from the app')
    view.send({id: 3, method: 'ui/update-model-context', params: {content: [{type: 'text', text: 'row 3 selected'}]}})
    const shown = await screen.findByTestId('app-model-context')
    expect(shown).toHaveTextContent('For the model with your next message: row 3 selected')
    expect(p.callbacks.modelContext).toHaveBeenCalledWith({text: 'row 3 selected', structured: undefined})
    r.rerender(<AppCard {...p} contextState="sent" />)
    expect(shown).toHaveTextContent('Sent to the model with your message: row 3 selected')
  })

  it('says so on the card when the backend refuses a model-context update', async () => {
    const {view} = await mount({callbacks: {callTool: vi.fn(), draft: vi.fn(), openLink: vi.fn(),
      modelContext: vi.fn(() => Promise.reject(new Error('the app\'s context is not valid UTF-8')))}})
    await view.handshake()
    view.send({id: 3, method: 'ui/update-model-context', params: {content: [{type: 'text', text: 'row 3 selected'}]}})
    await waitFor(() => expect(screen.getByTestId('app-model-context')).toHaveTextContent(
      "Not sent to the model: row 3 selected (the app's context is not valid UTF-8)"))
  })

  it("tells the view when the app's theme changes and when the result arrives", async () => {
    const {p, r, view} = await mount()
    const init = await view.handshake()
    expect((init.result!.hostContext as {theme: string}).theme).toBe('light')
    const mark = view.sent.length
    r.rerender(<AppCard {...p} theme="dark" toolResult={{content: [{type: 'text', text: 'done'}]}} />)
    expect((await view.notified('ui/notifications/host-context-changed', mark)).params).toMatchObject({theme: 'dark'})
    expect((await view.notified('ui/notifications/tool-result', mark)).params).toMatchObject({content: [{type: 'text', text: 'done'}]})
  })

  it("follows the view's height inline, within a cap", async () => {
    const {view} = await mount()
    await view.handshake()
    view.send({method: 'ui/notifications/size-changed', params: {width: 500, height: 222}})
    await waitFor(() => expect(screen.getByTitle('App ui://t/app.html').style.height).toBe('222px'))
    view.send({method: 'ui/notifications/size-changed', params: {width: 500, height: 5000}})
    await waitFor(() => expect(screen.getByTitle('App ui://t/app.html').style.height).toBe('600px'))
  })
})

describe('withCsp', () => {
  it.each([
    ['a head', '<html><head><title>x</title></head></html>', /^<html><head><meta http-equiv="Content-Security-Policy"/],
    ['no head', '<html><body>x</body></html>', /^<html><head><meta http-equiv/],
    ['a fragment', '<p>x</p>', /^<!DOCTYPE html><html><head><meta http-equiv/],
  ])('puts the policy first with %s', (_, html, want) => {
    expect(withCsp(html, "default-src 'none'")).toMatch(want)
  })

  it('escapes the policy into its attribute', () => {
    expect(withCsp('<head></head>', '"><script>')).toContain('content="&quot;&gt;&lt;script&gt;"')
  })
})
