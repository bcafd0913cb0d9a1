/**
 * The host side of one MCP App view (docs/APPS.md), on the SDK's AppBridge
 * (@modelcontextprotocol/ext-apps/app-bridge), which speaks the spec's
 * postMessage JSON-RPC dialect: ui/initialize and its host context, the
 * tool input and result notifications, size changes, host-context changes
 * and teardown. Maestro adds the decisions (policy.ts) and hands what the
 * user must see or approve to the callbacks: the bridge never sends a
 * message, opens a link or runs a tool on its own.
 */
import {AppBridge, PostMessageTransport} from '@modelcontextprotocol/ext-apps/app-bridge'
import type {McpUiHostContext, McpUiResourcePermissions, McpUiStyles} from '@modelcontextprotocol/ext-apps/app-bridge'
import {buildCsp, type AppCsp} from './csp'
import {displayModeFor, linkToOpen, messageDraft, modelContext, toolCallOf, type DisplayMode, type ModelContext} from './policy'
import {withCsp} from './proxy'

/** A tool result as MCP shapes it (the stored result's raw copy). */
export interface CallToolResult {
  content: Array<Record<string, unknown>>
  structuredContent?: Record<string, unknown>
  isError?: boolean
  _meta?: Record<string, unknown>
  [key: string]: unknown
}

/** The UI resource to render, as the backend serves it (mcp.AppResource). */
export interface AppResourceView {
  uri: string
  html: string
  csp: AppCsp
  permissions?: Record<string, boolean>
  prefersBorder?: boolean
}

/** What the view's requests become; each is the user's to act on. */
export interface AppHostCallbacks {
  /** tools/call: through the backend's approvals; resolves with the result or rejects with why not. */
  callTool: (name: string, args: Record<string, unknown>) => Promise<CallToolResult>
  /** ui/message: put the text in the composer as a draft. */
  draft: (text: string) => void
  /** ui/open-link: ask the user, open when they say yes; resolves whether it was opened. */
  openLink: (url: string) => Promise<boolean>
  /** ui/update-model-context: show it on the card. */
  modelContext: (ctx: ModelContext) => void
  /** ui/request-display-mode, once granted. */
  displayMode: (mode: DisplayMode) => void
  /** ui/notifications/size-changed. */
  size: (width?: number, height?: number) => void
  /** The view finished its ui/initialize handshake. */
  initialized?: () => void
}

export interface AppHostOptions {
  /** The outer (sandbox proxy) iframe's window. */
  target: Window
  resource: AppResourceView
  hostContext: McpUiHostContext
  /** The arguments the tool was called with. */
  toolInput: Record<string, unknown>
  /** The result, when the call is over (a stored one, or live). */
  toolResult?: CallToolResult
  callbacks: AppHostCallbacks
  hostVersion?: string
}

/** A connected view. */
export interface AppHost {
  bridge: AppBridge
  /** Sends the tool's result (once the live call is over). */
  sendResult: (r: CallToolResult) => void
  /** Sends the call's cancellation. */
  sendCancelled: (reason: string) => void
  /** Merges a host-context change (theme, display mode, size) and tells the view. */
  setContext: (change: Partial<McpUiHostContext>) => void
  /** ui/resource-teardown, then closes the bridge; waits at most ms for the view. */
  teardown: (reason: string, ms?: number) => Promise<void>
}

/** Sends a notification without waiting; one the closed bridge can no longer send is dropped. */
function quiet(p: Promise<unknown> | void) {
  if (p) p.catch(() => {})
}

class Refused extends Error {
  code = -32000
}

/** Connects the bridge to the sandbox proxy in target and serves the view. */
export async function connectAppHost(o: AppHostOptions): Promise<AppHost> {
  let context: McpUiHostContext = {...o.hostContext}
  let result = o.toolResult
  let ready = false
  const bridge = new AppBridge(
    null,
    {name: 'Maestro', version: o.hostVersion ?? 'dev'},
    {openLinks: {}, serverTools: {}, logging: {}, message: {text: {}}, updateModelContext: {text: {}, structuredContent: {}},
      sandbox: {permissions: {}, csp: o.resource.csp}},
    {hostContext: context},
  )
  const cb = o.callbacks
  bridge.addEventListener('sandboxready', () => {
    const csp = buildCsp(o.resource.csp)
    // No browser feature is granted (camera, microphone, …): Maestro has no prompt for them yet.
    const permissions: McpUiResourcePermissions = {}
    quiet(bridge.sendSandboxResourceReady({html: withCsp(o.resource.html, csp), csp: o.resource.csp, permissions}))
  })
  bridge.addEventListener('initialized', () => {
    ready = true
    quiet(bridge.sendToolInput({arguments: o.toolInput}))
    if (result) quiet(bridge.sendToolResult(result as never))
    cb.initialized?.()
  })
  bridge.addEventListener('sizechange', ({width, height}) => cb.size(width, height))
  bridge.oncalltool = async (params) => {
    const call = toolCallOf(params)
    if (!call.ok) throw new Refused(call.reason)
    return (await cb.callTool(call.value.name, call.value.args)) as never
  }
  bridge.onmessage = async (params) => {
    const v = messageDraft(params)
    if (!v.ok) return {isError: true}
    cb.draft(v.value)
    return {}
  }
  bridge.onopenlink = async (params) => {
    const v = linkToOpen(params)
    if (!v.ok) throw new Refused(v.reason)
    if (!(await cb.openLink(v.value))) throw new Refused('Link opening denied by user')
    return {}
  }
  bridge.onupdatemodelcontext = async (params) => {
    const v = modelContext(params)
    if (!v.ok) throw new Refused(v.reason)
    cb.modelContext(v.value)
    return {}
  }
  bridge.onrequestdisplaymode = async (params) => {
    const current = (context.displayMode ?? 'inline') as DisplayMode
    const mode = displayModeFor(params.mode, current, bridge.getAppCapabilities()?.availableDisplayModes)
    if (mode !== current) {
      context = {...context, displayMode: mode}
      bridge.setHostContext(context)
      cb.displayMode(mode)
    }
    return {mode}
  }
  await bridge.connect(new PostMessageTransport(o.target, o.target))
  return {
    bridge,
    sendResult: (r) => {
      result = r
      if (ready) quiet(bridge.sendToolResult(r as never))
    },
    sendCancelled: (reason) => {
      if (ready) quiet(bridge.sendToolCancelled({reason}))
    },
    setContext: (change) => {
      context = {...context, ...change}
      bridge.setHostContext(context)
    },
    teardown: async (reason, ms = 500) => {
      if (ready) {
        await Promise.race([bridge.teardownResource({reason}).catch(() => {}), new Promise((r) => setTimeout(r, ms))])
      }
      await bridge.close()
    },
  }
}

/** The host context of a view in a card. */
export function hostContextFor(opts: {
  theme: 'light' | 'dark'
  locale: string
  displayMode: DisplayMode
  width: number
  maxHeight: number
  toolName: string
}): McpUiHostContext {
  let timeZone: string | undefined
  try {
    timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone
  } catch {
    timeZone = undefined
  }
  return {
    theme: opts.theme,
    locale: opts.locale,
    timeZone,
    displayMode: opts.displayMode,
    availableDisplayModes: ['inline', 'fullscreen'],
    containerDimensions: {width: opts.width, maxHeight: opts.maxHeight},
    platform: 'desktop',
    userAgent: 'Maestro',
    toolInfo: {tool: {name: opts.toolName, inputSchema: {type: 'object'}}},
    // The spec lets a host give any subset of its variables.
    styles: {variables: themeVariables(opts.theme) as McpUiStyles},
  }
}

/** The spec's standard CSS variables, from Maestro's palette (light-dark() keeps both). */
function themeVariables(theme: 'light' | 'dark'): Record<string, string> {
  const dark = theme === 'dark'
  return {
    '--color-background-primary': dark ? '#1b1b1f' : '#ffffff',
    '--color-background-secondary': dark ? '#242429' : '#f5f5f7',
    '--color-text-primary': dark ? '#ececf1' : '#1b1b1f',
    '--color-text-secondary': dark ? '#a1a1aa' : '#52525b',
    '--color-border-primary': dark ? '#3f3f46' : '#d4d4d8',
    '--font-sans': 'system-ui, -apple-system, "Segoe UI", sans-serif',
    '--font-mono': 'ui-monospace, "SF Mono", Menlo, monospace',
    '--border-radius-md': '8px',
  }
}
