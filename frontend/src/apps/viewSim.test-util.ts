// Plays an MCP App view by hand for tests: messages "from the sandbox
// proxy" are dispatched on the window with the proxy iframe's window as
// their source, and what the host sends is read off that window's
// postMessage (spied).
import {expect, vi} from 'vitest'

export type Msg = {
  jsonrpc: '2.0'
  id?: number
  method?: string
  params?: Record<string, unknown>
  result?: Record<string, unknown>
  error?: {code: number; message: string}
}

export class ViewSim {
  sent: Msg[] = []
  constructor(readonly frame: HTMLIFrameElement) {
    vi.spyOn(frame.contentWindow!, 'postMessage').mockImplementation((m: unknown) => {
      this.sent.push(m as Msg)
    })
  }

  send(msg: Omit<Msg, 'jsonrpc'>, source: Window | null = this.frame.contentWindow) {
    window.dispatchEvent(new MessageEvent('message', {data: {jsonrpc: '2.0', ...msg}, source}))
  }

  async reply(id: number): Promise<Msg> {
    let got: Msg | undefined
    await vi.waitFor(() => {
      got = this.sent.find((m) => m.id === id && (m.result !== undefined || m.error !== undefined))
      expect(got).toBeDefined()
    })
    return got!
  }

  async notified(method: string, from = 0): Promise<Msg> {
    let got: Msg | undefined
    await vi.waitFor(() => {
      got = this.sent.slice(from).find((m) => m.method === method)
      expect(got).toBeDefined()
    })
    return got!
  }

  /** The proxy's ready, the view's ui/initialize and initialized; resolves with the initialize answer. */
  async handshake(appCapabilities: Record<string, unknown> = {availableDisplayModes: ['inline', 'fullscreen']}): Promise<Msg> {
    // The host listens once its bridge has connected (an effect, then a
    // promise): the proxy says it is ready until the host answers.
    await vi.waitFor(() => {
      if (!this.sent.some((m) => m.method === 'ui/notifications/sandbox-resource-ready')) {
        this.send({method: 'ui/notifications/sandbox-proxy-ready', params: {}})
      }
      expect(this.sent.some((m) => m.method === 'ui/notifications/sandbox-resource-ready')).toBe(true)
    })
    this.send({id: 1, method: 'ui/initialize', params: {protocolVersion: '2026-01-26', appInfo: {name: 'test-view', version: '1'}, appCapabilities}})
    const init = await this.reply(1)
    this.send({method: 'ui/notifications/initialized', params: {}})
    await this.notified('ui/notifications/tool-input') // the host has taken the handshake
    return init
  }
}
