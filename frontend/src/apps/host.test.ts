import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import {connectAppHost, hostContextFor, type AppHost, type AppHostCallbacks} from './host'
import {type Msg, ViewSim} from './viewSim.test-util'

let frame: HTMLIFrameElement
let view: ViewSim
let host: AppHost | undefined
const fromView = (msg: Omit<Msg, 'jsonrpc'>, source?: Window | null) => view.send(msg, source)
const reply = (id: number) => view.reply(id)
const notified = (method: string) => view.notified(method)

function callbacks(over: Partial<AppHostCallbacks> = {}): AppHostCallbacks {
  return {
    callTool: vi.fn(async () => ({content: [{type: 'text', text: 'tool ran'}]})),
    draft: vi.fn(),
    openLink: vi.fn(async () => false),
    modelContext: vi.fn(),
    displayMode: vi.fn(),
    size: vi.fn(),
    ...over,
  }
}

async function start(cb: AppHostCallbacks, result = true) {
  host = await connectAppHost({
    target: frame.contentWindow!,
    resource: {uri: 'ui://t/app.html', html: '<!DOCTYPE html><html><head><title>t</title></head><body>hi</body></html>',
      csp: {connectDomains: ['https://api.example.com']}},
    hostContext: hostContextFor({theme: 'dark', locale: 'fr-FR', displayMode: 'inline', width: 640, maxHeight: 480, toolName: 'get-time'}),
    toolInput: {city: 'Paris'},
    toolResult: result ? {content: [{type: 'text', text: 'noon'}], structuredContent: {time: '12:00'}} : undefined,
    callbacks: cb,
  })
  const init = await view.handshake()
  return init
}

beforeEach(() => {
  vi.spyOn(console, 'debug').mockImplementation(() => {})
  frame = document.createElement('iframe')
  document.body.appendChild(frame)
  view = new ViewSim(frame)
})

afterEach(async () => {
  await host?.bridge.close()
  host = undefined
  frame.remove()
  vi.restoreAllMocks()
})

describe('connectAppHost', () => {
  it('loads the view through the proxy with its CSP, then initializes it with the host context and the tool data', async () => {
    const init = await start(callbacks())
    const ready = await notified('ui/notifications/sandbox-resource-ready')
    const html = ready.params!.html as string
    expect(html).toMatch(/^<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;|^<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'/)
    expect(html).toContain('connect-src https://api.example.com')
    expect(ready.params!.permissions).toEqual({})

    const ctx = init.result!.hostContext as Record<string, unknown>
    expect(ctx.theme).toBe('dark')
    expect(ctx.locale).toBe('fr-FR')
    expect(ctx.displayMode).toBe('inline')
    expect(ctx.containerDimensions).toEqual({width: 640, maxHeight: 480})
    expect((init.result!.hostInfo as {name: string}).name).toBe('Maestro')

    expect((await notified('ui/notifications/tool-input')).params).toEqual({arguments: {city: 'Paris'}})
    expect((await notified('ui/notifications/tool-result')).params).toMatchObject({structuredContent: {time: '12:00'}})
  })

  it('sends a live result once the call is over', async () => {
    await start(callbacks(), false)
    await notified('ui/notifications/tool-input')
    expect(view.sent.some((m) => m.method === 'ui/notifications/tool-result')).toBe(false)
    host!.sendResult({content: [{type: 'text', text: 'late'}]})
    expect((await notified('ui/notifications/tool-result')).params).toMatchObject({content: [{type: 'text', text: 'late'}]})
  })

  it('hands a tools/call to the approvals and returns their answer', async () => {
    const cb = callbacks()
    await start(cb)
    fromView({id: 2, method: 'tools/call', params: {name: 'get-time', arguments: {tz: 'UTC'}}})
    expect((await reply(2)).result).toMatchObject({content: [{type: 'text', text: 'tool ran'}]})
    expect(cb.callTool).toHaveBeenCalledWith('get-time', {tz: 'UTC'})
  })

  it('returns a refused tool call as an error', async () => {
    const cb = callbacks({callTool: vi.fn(async () => Promise.reject(new Error('the user denied this tool call')))})
    await start(cb)
    fromView({id: 2, method: 'tools/call', params: {name: 'get-time', arguments: {}}})
    expect((await reply(2)).error?.message).toContain('the user denied this tool call')
  })

  it('puts a ui/message in the draft, never sending it', async () => {
    const cb = callbacks()
    await start(cb)
    fromView({id: 3, method: 'ui/message', params: {role: 'user', content: [{type: 'text', text: 'What time is it in Tokyo?'}]}})
    expect((await reply(3)).result).toEqual({})
    expect(cb.draft).toHaveBeenCalledWith('What time is it in Tokyo?')
    expect(cb.callTool).not.toHaveBeenCalled()
  })

  it('asks before opening a link, and refuses a link that is not the web', async () => {
    const cb = callbacks()
    await start(cb)
    fromView({id: 4, method: 'ui/open-link', params: {url: 'javascript:alert(1)'}})
    expect((await reply(4)).error?.message).toContain('Policy violation')
    expect(cb.openLink).not.toHaveBeenCalled()
    fromView({id: 5, method: 'ui/open-link', params: {url: 'https://example.com/docs'}})
    expect((await reply(5)).error?.message).toContain('denied by user')
    expect(cb.openLink).toHaveBeenCalledWith('https://example.com/docs')
  })

  it('shows a model-context update', async () => {
    const cb = callbacks()
    await start(cb)
    fromView({id: 6, method: 'ui/update-model-context', params: {content: [{type: 'text', text: 'picked row 3'}]}})
    expect((await reply(6)).result).toEqual({})
    expect(cb.modelContext).toHaveBeenCalledWith({text: 'picked row 3', structured: undefined})
  })

  it('grants the expanded panel but not picture-in-picture', async () => {
    const cb = callbacks()
    await start(cb)
    fromView({id: 7, method: 'ui/request-display-mode', params: {mode: 'pip'}})
    expect((await reply(7)).result).toEqual({mode: 'inline'})
    fromView({id: 8, method: 'ui/request-display-mode', params: {mode: 'fullscreen'}})
    expect((await reply(8)).result).toEqual({mode: 'fullscreen'})
    expect(cb.displayMode).toHaveBeenCalledWith('fullscreen')
  })

  it('follows size changes and tells the view when the theme changes', async () => {
    const cb = callbacks()
    await start(cb)
    fromView({method: 'ui/notifications/size-changed', params: {width: 300, height: 222}})
    await vi.waitFor(() => expect(cb.size).toHaveBeenCalledWith(300, 222))
    host!.setContext({theme: 'light'})
    expect((await notified('ui/notifications/host-context-changed')).params).toMatchObject({theme: 'light'})
  })

  it('ignores messages that do not come from its own frame', async () => {
    const cb = callbacks()
    await start(cb)
    fromView({id: 9, method: 'tools/call', params: {name: 'get-time', arguments: {}}}, window)
    fromView({id: 10, method: 'ui/message', params: {role: 'user', content: [{type: 'text', text: 'x'}]}}, null)
    await new Promise((r) => setTimeout(r, 50))
    expect(cb.callTool).not.toHaveBeenCalled()
    expect(cb.draft).not.toHaveBeenCalled()
  })

  it('tears the view down with ui/resource-teardown', async () => {
    await start(callbacks())
    const done = host!.teardown('card closed', 100)
    const req = await notified('ui/resource-teardown')
    expect(req.params).toEqual({reason: 'card closed'})
    await done
  })
})
