import {useEffect, useMemo, useRef, useState, type ReactNode} from 'react'
import {Maximize2, Minimize2} from 'lucide-react'
import {ConfirmDialog} from '../components/ConfirmDialog'
import {buildCsp} from './csp'
import {connectAppHost, hostContextFor, type AppHost, type AppHostCallbacks, type AppResourceView, type CallToolResult} from './host'
import type {DisplayMode, ModelContext} from './policy'
import type {AppContextState} from '../stores/appContexts'
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
  /**
   * What the view's requests become: a tool call through the approvals,
   * the composer's draft, and a link opened in the system browser (the
   * card asks the user first).
   */
  callbacks: Pick<AppHostCallbacks, 'callTool' | 'draft'> & {
    openLink: (url: string) => void
    /** ui/update-model-context, once checked: kept for the chat's next message; rejects with why not. */
    modelContext: (ctx: ModelContext) => Promise<void>
  }
  /** Whether what the view told the model (ui/update-model-context) waits for the next message or went with one. */
  contextState?: AppContextState
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

function contextLabel(error: string | undefined, state: AppContextState | undefined): string {
  if (error) return 'Not sent to the model'
  return state === 'sent' ? 'Sent to the model with your message' : 'For the model with your next message'
}

function AppView(props: AppCardProps & {resource: AppResourceView}) {
  const {resource, theme, toolResult, cancelled} = props
  const frame = useRef<HTMLIFrameElement>(null)
  const host = useRef<AppHost | null>(null)
  const [mode, setMode] = useState<DisplayMode>('inline')
  const [height, setHeight] = useState(INLINE_HEIGHT)
  const [context, setContext] = useState<{ctx: ModelContext; error?: string} | null>(null)
  const [link, setLink] = useState<{url: string; answer: (yes: boolean) => void} | null>(null)
  const proxy = useMemo(() => proxyDocument(buildCsp(resource.csp)), [resource])
  // The proxy document loads once the bridge listens, so its ready message is never missed.
  const [srcDoc, setSrcDoc] = useState<string | undefined>(undefined)
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
        openLink: (url) =>
          new Promise<boolean>((resolve) => {
            setLink((prev) => {
              prev?.answer(false) // one question at a time: a newer link replaces an unanswered one
              return {url, answer: resolve}
            })
          }).then((yes) => {
            if (yes) latest.current.callbacks.openLink(url)
            return yes
          }),
        modelContext: (ctx) => {
          setContext({ctx, error: undefined})
          latest.current.callbacks.modelContext(ctx).catch((err: unknown) =>
            setContext({ctx, error: err instanceof Error ? err.message : String(err)}))
        },
        displayMode: (m) => setMode(m),
        size: (_w, h) => {
          if (h !== undefined && h > 0) setHeight(Math.min(Math.ceil(h), INLINE_MAX))
        },
      },
    }).then(
      (h) => {
        if (!closed) {
          host.current = h
          setSrcDoc(proxy)
        }
        return h
      },
      () => null, // the bridge could not start: the card stays empty, its text result below it
    )
    return () => {
      closed = true
      host.current = null
      void connecting.then((h) => h?.teardown('the card was closed'))
    }
  }, [resource, proxy])

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
        {link && (
          <ConfirmDialog title="Open a link from the app?" confirmLabel="Open in browser" confirmTestId="app-link-open"
            onConfirm={() => (link.answer(true), setLink(null))} onCancel={() => (link.answer(false), setLink(null))}>
            <p>The app in this card wants to open:</p>
            <p><code data-testid="app-link-url">{link.url}</code></p>
          </ConfirmDialog>
        )}
        {context && (
          <div className="app-card-context" data-testid="app-model-context">
            <strong>{contextLabel(context.error, props.contextState)}:</strong>{' '}
            {context.ctx.text}
            {context.ctx.structured ? ` ${context.ctx.structured}` : ''}
            {context.error && <span className="app-card-context-error" role="alert"> ({context.error})</span>}
          </div>
        )}
      </div>
    </>
  )
}
