// The arguments field of the connector form: one line, split like a shell
// does (whitespace separates, '…' and "…" quote, a backslash escapes a
// space, a quote or a backslash), without expanding anything.

/** Splits a command line into arguments. An unclosed quote runs to the end. */
export function splitArgs(line: string): string[] {
  const out: string[] = []
  let cur = ''
  let inArg = false
  let quote: '"' | "'" | null = null
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]
    const next = line[i + 1]
    if (quote === "'") {
      if (ch === "'") quote = null
      else cur += ch
      continue
    }
    if (quote === '"') {
      if (ch === '"') quote = null
      else if (ch === '\\' && (next === '"' || next === '\\')) cur += line[++i]
      else cur += ch
      continue
    }
    if (ch === '"' || ch === "'") {
      quote = ch
      inArg = true
    } else if (ch === '\\' && next !== undefined && /[\s"'\\]/.test(next)) {
      cur += line[++i]
      inArg = true
    } else if (/\s/.test(ch)) {
      if (inArg) out.push(cur)
      cur = ''
      inArg = false
    } else {
      cur += ch
      inArg = true
    }
  }
  if (inArg) out.push(cur)
  return out
}

/** Whether the line has a quote that is never closed. */
export function hasOpenQuote(line: string): boolean {
  let quote: string | null = null
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]
    if (quote === "'") {
      if (ch === "'") quote = null
    } else if (quote === '"') {
      if (ch === '\\') i++
      else if (ch === '"') quote = null
    } else if (ch === '\\') i++
    else if (ch === '"' || ch === "'") quote = ch
  }
  return quote !== null
}

/** Joins arguments into a line that splitArgs turns back into them. */
export function joinArgs(args: string[]): string {
  return args
    .map((a) => {
      if (a === '') return "''"
      if (/^[A-Za-z0-9_@%+=:,./~^-]+$/.test(a)) return a
      if (!a.includes("'")) return `'${a}'`
      return `"${a.replace(/["\\]/g, '\\$&')}"`
    })
    .join(' ')
}
