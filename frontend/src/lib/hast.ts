// The text of a hast (HTML syntax tree) node, as react-markdown passes it
// to custom components: what a code block's Copy button copies.

interface HastLike {
  type?: string
  value?: unknown
  children?: HastLike[]
  properties?: {className?: unknown}
  tagName?: string
}

export function hastText(node: HastLike | undefined | null): string {
  if (!node) return ''
  if (node.type === 'text' && typeof node.value === 'string') return node.value
  return (node.children ?? []).map(hastText).join('')
}

/** The language of a <pre><code class="language-x"> block, or "". */
export function codeLanguage(pre: HastLike | undefined | null): string {
  const code = pre?.tagName === 'code' ? pre : pre?.children?.find((c) => c.tagName === 'code')
  const cls = code?.properties?.className
  const list = Array.isArray(cls) ? cls.map(String) : typeof cls === 'string' ? cls.split(/\s+/) : []
  const lang = list.find((c) => c.startsWith('language-'))
  return lang ? lang.slice('language-'.length) : ''
}
