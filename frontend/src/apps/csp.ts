/**
 * The Content-Security-Policy of an MCP App's view, built from the
 * domains its ui:// resource declares (docs/APPS.md; the spec's security
 * section). The backend keeps only plain origins (backend/mcp apps.go
 * cspSource); this checks them again, so nothing a server wrote can add a
 * directive of its own.
 */
export interface AppCsp {
  connectDomains?: string[]
  resourceDomains?: string[]
  frameDomains?: string[]
  baseUriDomains?: string[]
}

const ORIGIN = /^(https|wss|http|ws):\/\/(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?$/

/** The entries of a declared list that are plain origins, at most 32. */
export function safeOrigins(list: readonly unknown[] | undefined): string[] {
  const out: string[] = []
  for (const v of list ?? []) {
    if (typeof v === 'string' && v.length <= 256 && ORIGIN.test(v) && !out.includes(v) && out.length < 32) out.push(v)
  }
  return out
}

/**
 * The policy: nothing by default; scripts and styles inline or from the
 * declared resource origins; network only to the declared connect
 * origins; no plugins, no nested frames unless declared, no form posts
 * away. 'self' is left out on purpose: the view's origin is opaque, and
 * the host's own origin must not be reachable.
 */
export function buildCsp(csp: AppCsp | undefined): string {
  const res = safeOrigins(csp?.resourceDomains).join(' ')
  const connect = safeOrigins(csp?.connectDomains)
  const frames = safeOrigins(csp?.frameDomains)
  const base = safeOrigins(csp?.baseUriDomains)
  const list = (...parts: string[]) => parts.filter(Boolean).join(' ')
  return [
    "default-src 'none'",
    `script-src ${list("'unsafe-inline'", res)}`,
    `style-src ${list("'unsafe-inline'", res)}`,
    `img-src ${list('data: blob:', res)}`,
    `font-src ${list('data:', res)}`,
    `media-src ${list('data: blob:', res)}`,
    `connect-src ${connect.length ? connect.join(' ') : "'none'"}`,
    `frame-src ${frames.length ? frames.join(' ') : "'none'"}`,
    "object-src 'none'",
    `base-uri ${base.length ? base.join(' ') : "'none'"}`,
    "form-action 'none'",
  ].join('; ')
}
