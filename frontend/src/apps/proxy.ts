/**
 * The sandbox proxy of an MCP App (docs/APPS.md; the spec's "Sandbox
 * proxy"): the document of the outer iframe, which runs with
 * sandbox="allow-scripts" and no allow-same-origin, so its origin is
 * opaque and differs from the app's: nothing in it reaches window.go, the
 * app's DOM or its storage. It tells the host it is ready
 * (ui/notifications/sandbox-proxy-ready), takes the view's HTML in
 * ui/notifications/sandbox-resource-ready, loads it into an inner iframe
 * (sandboxed the same way, the CSP in a meta element ahead of everything
 * else), and relays every other message between the host and the view.
 * The outer document carries the same CSP, which the inner srcdoc
 * document inherits as well.
 */

/** The inner iframe's sandbox: scripts and forms, never same-origin, popups or top navigation. */
export const VIEW_SANDBOX = 'allow-scripts allow-forms'
/** The outer iframe's sandbox. */
export const PROXY_SANDBOX = 'allow-scripts'

function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** Puts the CSP meta element first in the view's HTML. */
export function withCsp(html: string, csp: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">`
  const head = /<head(\s[^>]*)?>/i.exec(html)
  if (head) return html.slice(0, head.index + head[0].length) + meta + html.slice(head.index + head[0].length)
  const htmlTag = /<html(\s[^>]*)?>/i.exec(html)
  if (htmlTag) {
    const at = htmlTag.index + htmlTag[0].length
    return html.slice(0, at) + `<head>${meta}</head>` + html.slice(at)
  }
  return `<!DOCTYPE html><html><head>${meta}</head><body>${html}</body></html>`
}

/**
 * The outer document, with the view's CSP as its own (the inner srcdoc
 * document inherits it), less frame-src: the proxy must be able to make
 * the inner frame, whose own meta element restricts its frames.
 */
export function proxyDocument(viewCsp: string): string {
  const csp = viewCsp
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d && !d.startsWith('frame-src'))
    .join('; ')
  return `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
<style>html,body{margin:0;padding:0;background:transparent;overflow:hidden}iframe{border:0;width:100%;height:100%;display:block}</style>
</head><body><script>
(function () {
  var inner = null;
  var SANDBOX = ${JSON.stringify(VIEW_SANDBOX)};
  function isSandboxMsg(d) { return d && typeof d.method === 'string' && d.method.indexOf('ui/notifications/sandbox-') === 0; }
  window.addEventListener('message', function (e) {
    var d = e.data;
    if (e.source === window.parent) {
      if (isSandboxMsg(d)) {
        if (d.method === 'ui/notifications/sandbox-resource-ready' && !inner && d.params && typeof d.params.html === 'string') {
          inner = document.createElement('iframe');
          inner.setAttribute('sandbox', SANDBOX);
          inner.setAttribute('title', 'app');
          inner.srcdoc = d.params.html;
          document.body.appendChild(inner);
        }
        return;
      }
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(d, '*');
      return;
    }
    if (inner && e.source === inner.contentWindow && !isSandboxMsg(d)) window.parent.postMessage(d, '*');
  });
  window.parent.postMessage({jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {}}, '*');
})();
</script></body></html>`
}
