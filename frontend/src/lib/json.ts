// JSON text as people read it: pretty-printed when it parses (short arrays
// and objects stay on one line), as it is otherwise (arguments still
// streaming in, or a tool that sent plain text).

export interface Pretty {
  text: string
  /** Whether text is valid JSON (and so worth highlighting as such). */
  json: boolean
}

/** Lines up to this long keep a nested value on one line. */
export const JSON_WIDTH = 80

function inline(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(inline).join(', ')}]`
  if (v && typeof v === 'object') {
    return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${inline(x)}`).join(', ')}}`
  }
  return JSON.stringify(v) ?? 'null'
}

/**
 * Formats a parsed value: one line when it fits in width (starting at
 * column col), else one item per line, indented by indent.
 */
export function formatJson(v: unknown, indent = 0, width = JSON_WIDTH, col = indent): string {
  const one = inline(v)
  if (!v || typeof v !== 'object' || col + one.length <= width) return one
  const pad = ' '.repeat(indent + 2)
  const end = ' '.repeat(indent)
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]'
    return `[\n${v.map((x) => pad + formatJson(x, indent + 2, width)).join(',\n')}\n${end}]`
  }
  const entries = Object.entries(v)
  if (entries.length === 0) return '{}'
  const lines = entries.map(([k, x]) => {
    const key = `${JSON.stringify(k)}: `
    return pad + key + formatJson(x, indent + 2, width, indent + 2 + key.length)
  })
  return `{\n${lines.join(',\n')}\n${end}}`
}

export function prettyJson(text: string | undefined | null): Pretty {
  const t = (text ?? '').trim()
  if (t === '') return {text: '', json: false}
  try {
    return {text: formatJson(JSON.parse(t)), json: true}
  } catch {
    return {text: t, json: false}
  }
}

/** Whether JSON text is nothing worth showing: empty, {} or null. */
export function isEmptyJson(text: string | undefined | null): boolean {
  const t = (text ?? '').trim()
  return t === '' || t === '{}' || t === 'null'
}
