import {useEffect, useMemo, useRef, useState, type ReactNode} from 'react'
import {Maximize2, Minimize2} from 'lucide-react'
import {buildCsp} from './csp'
import {connectAppHost, hostContextFor, type AppHost, type AppHostCallbacks, type AppResourceView, type CallToolResult} from './host'
import type {DisplayMode, ModelContext} from './policy'
import {PROXY_SANDBOX, proxyDocument} from './proxy'
import './apps.css'

/** The inline height before the view reports its own, and the most it may take inline. */
const INLINE_HEIGHT = 320
const INLINE_MAX = 600

export interface AppCardProps {
  /** The tool's MCP name, for the view's host context. */
  toolName: string
  toolInput: Record<string, unknown>
  /** The result; undefined while the call runs. */
  toolResult?: CallToolResult
  /** Whether the call ended without a result (stopped, denied). */
  cancelled?: string
  /** Reads the UI resource (the backend's cache, or the server again). */
  loadResource: () => Promise<AppResourceView>
  theme: 'light' | 'dark'
  locale?: string
  /** What the view's requests become (approvals, the draft, the link question). */
  callbacks: Pick<AppHostCallbacks, 'callTool' | 'draft' | 'openLink'>
  /** Shown instead of the UI when it cannot be rendered: the text result. */
  fallback: ReactNode
}

type Load = {state: 'loading'} | {state: 'ready'; resource: AppResourceView} | {state: 'failed'; reason: string}

/**
 * A tool's MCP App in its card (docs/APPS.md): the view runs in a sandbox
 * proxy iframe (sandbox="allow-scripts", no allow-same-origin) that loads
 * it into an inner sandboxed iframe under a CSP built from its declared
 * domains, so neither reaches window.go, the app's DOM or its storage. The
 * card can expand to a larger panel (the view's "fullscreen" display
 * mode) without reloading the view. When the resource cannot be had (Apps
 * off, the server gone), the static fallback shows.
 */
export function AppCard(props: AppCardProps) {
  const {loadResource} = props
  const [load, setLoad] = useState<Load>({state: 'loading'})
  useEffect(() => {
    let live = true
    loadResource().then(
      (resource) => live && setLoad({state: 'ready', resource}),
      (err: unknown) => live && setLoad({state: 'failed', reason: err instanceof Error ? err.message : String(err)}),
    )
    return () => {
      live = false
    }
  }, [loadResource])
  if (load.state === 'failed') {
    return (
      <div className="app-card-fallback">
        <div className="app-card-note">The app's interface is not available ({load.reason}); showing the result as text.</div>
        {props.fallback}
      </div>
    )
  }
  if (load.state === 'loading') return <div className="app-card app-card-note">Loading the app…</div>
  return <AppView {...props} resource={load.resource} />
}

function AppView(props: AppCardProps & {resource: AppResourceView}) {
  const {resource, theme, toolResult, cancelled} = props
  const frame = useRef<HTMLIFrameElement>(null)
  const host = useRef<AppHost | null>(null)
  const [mode, setMode] = useState<DisplayMode>('inline')
  const [height, setHeight] = useState(INLINE_HEIGHT)
  const [context, setContext] = useState<ModelContext | null>(null)
  const srcDoc = useMemo(() => proxyDocument(buildCsp(resource.csp)), [resource])
  const latest = useRef(props)
  latest.current = props

  useEffect(() => {
    const win = frame.current?.contentWindow
    if (!win) return
    let closed = false
    const p = latest.current
    const connecting = connectAppHost({
      target: win,
      resource,
      hostContext: hostContextFor({theme: p.theme, locale: p.locale ?? navigator.language, displayMode: 'inline',
        width: frame.current?.clientWidth || 640, maxHeight: INLINE_MAX, toolName: p.toolName}),
      toolInput: p.toolInput,
      toolResult: p.toolResult,
      callbacks: {
        callTool: (name, args) => latest.current.callbacks.callTool(name, args),
        draft: (text) => latest.current.callbacks.draft(text),
        openLink: (url) => latest.current.callbacks.openLink(url),
        modelContext: (ctx) => setContext(ctx),
        displayMode: (m) => setMode(m),
        size: (_w, h) => {
          if (h !== undefined && h > 0) setHeight(Math.min(Math.ceil(h), INLINE_MAX))
        },
      },
    }).then((h) => {
      if (closed) void h.teardown('the card was closed', 0)
      else host.current = h
      return h
    })
    return () => {
      closed = true
      void connecting.then((h) => h.teardown('the card was closed'))
      host.current = null
    }
  }, [resource])

  useEffect(() => {
    host.current?.setContext({theme, styles: hostContextFor({theme, locale: '', displayMode: mode, width: 0, maxHeight: 0, toolName: ''}).styles})
  }, [theme, mode])

  useEffect(() => {
    if (toolResult) host.current?.sendResult(toolResult)
  }, [toolResult])

  useEffect(() => {
    if (cancelled) host.current?.sendCancelled(cancelled)
  }, [cancelled])

  const expand = (next: DisplayMode) => {
    setMode(next)
    const el = frame.current
    host.current?.setContext({
      displayMode: next,
      containerDimensions: next === 'fullscreen' ? {width: el?.clientWidth || 800, height: el?.clientHeight || 600}
        : {width: el?.clientWidth || 640, maxHeight: INLINE_MAX},
    })
  }
  const expanded = mode === 'fullscreen'
  return (
    <>
      {expanded && <div className="app-card-backdrop" onClick={() => expand('inline')} />}
      <div className={`app-card${expanded ? ' expanded' : ''}`} data-border={resource.prefersBorder === false ? 'false' : 'true'}
        data-testid="app-card">
        <div className="app-card-bar">
          <span className="app-card-label" title={resource.uri}>App · {resource.uri}</span>
          <button type="button" className="btn-ghost" onClick={() => expand(expanded ? 'inline' : 'fullscreen')}
            aria-label={expanded ? 'Collapse the app' : 'Expand the app'}>
            {expanded ? <Minimize2 size={13} /> : <Maximize2 size={13} />}
          </button>
        </div>
        <iframe ref={frame} className="app-card-frame" title={`App ${resource.uri}`} sandbox={PROXY_SANDBOX} srcDoc={srcDoc}
          style={{height}} referrerPolicy="no-referrer" />
        {context && (
          <div className="app-card-context" data-testid="app-model-context">
            <strong>The app told the model:</strong> {context.text}
            {context.structured ? ` ${context.structured}` : ''}
          </div>
        )}
      </div>
    </>
  )
}
