// Syntax highlighting outside Markdown (tool arguments and results): lowlight
// (highlight.js grammars, bundled, no network) to React elements.

import type {ReactNode} from 'react'
import {common, createLowlight} from 'lowlight'

const lowlight = createLowlight({json: common.json})

interface Node {
  type: string
  value?: string
  tagName?: string
  properties?: {className?: unknown}
  children?: Node[]
}

function render(nodes: readonly Node[], key = ''): ReactNode[] {
  return nodes.map((n, i) => {
    if (n.type === 'text') return n.value ?? ''
    if (n.type !== 'element') return null
    const cls = n.properties?.className
    const className = Array.isArray(cls) ? cls.join(' ') : typeof cls === 'string' ? cls : undefined
    return (
      <span key={`${key}${i}`} className={className}>
        {render(n.children ?? [], `${key}${i}.`)}
      </span>
    )
  })
}

/** JSON text as highlighted spans (hljs-* classes); plain text if it fails. */
export function highlightJson(text: string): ReactNode {
  if (text.length > 200_000) return text
  try {
    return render(lowlight.highlight('json', text).children as Node[])
  } catch {
    return text
  }
}
