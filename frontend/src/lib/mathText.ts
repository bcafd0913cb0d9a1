// Which dollar signs start math. remark-math takes any $…$ pair, so "it
// costs $5 and $10" would render "5 and " as math. Pandoc's rule is what
// people write by: an opening $ has a non-space character right after it;
// a closing $ has a non-space character right before it and no digit right
// after it. Dollars that cannot pair that way are escaped (\$) before the
// Markdown is parsed. One rule is added for prices: a $ followed by a number
// that ends a word ("$3.50," "$5 ") opens no math, so "a price of $3.50, and
// $x$" keeps its price. Code spans and fenced blocks are left alone, and $$
// (display math) is not touched.

const FENCE = /^(\s*)(`{3,}|~{3,})/

/** Escapes the single dollars of text that cannot be math by Pandoc's rule. */
export function protectDollars(text: string): string {
  if (!text.includes('$')) return text
  const out: string[] = []
  let fence: string | null = null
  for (const line of text.split('\n')) {
    const m = line.match(FENCE)
    if (fence) {
      if (m && m[2][0] === fence[0] && m[2].length >= fence.length) fence = null
      out.push(line)
      continue
    }
    if (m) {
      fence = m[2]
      out.push(line)
      continue
    }
    const display = line.match(DISPLAY_LINE)
    if (display) {
      out.push(`${display[1]}$$`, `${display[1]}${display[2].trim()}`, `${display[1]}$$`)
      continue
    }
    out.push(protectLine(line))
  }
  return out.join('\n')
}

/** A line that is only display math: $$…$$, indented less than a code block. */
const DISPLAY_LINE = /^( {0,3})\$\$((?:(?!\$\$).)*[^\s$](?:(?!\$\$).)*)\$\$\s*$/

/** Splits a line on inline code spans and protects the rest. */
function protectLine(line: string): string {
  const parts = line.split(/(`+[^`]*`+)/)
  return parts.map((p, i) => (i % 2 === 1 ? p : protectProse(p))).join('')
}

function isSingle(s: string, i: number): boolean {
  return s[i] === '$' && s[i - 1] !== '$' && s[i + 1] !== '$' && s[i - 1] !== '\\'
}

// A price: digits (with . or , inside), then the end, a space, or
// punctuation that ends a word.
const PRICE = /^\d[\d.,]*(?:$|[\s)!?;:]|[.,](?:$|\s))/

function canOpen(s: string, i: number): boolean {
  return isSingle(s, i) && i + 1 < s.length && !/\s/.test(s[i + 1]) && !PRICE.test(s.slice(i + 1, i + 40))
}

function canClose(s: string, i: number): boolean {
  return isSingle(s, i) && i > 0 && !/\s/.test(s[i - 1]) && !/\d/.test(s[i + 1] ?? '')
}

function protectProse(s: string): string {
  const escape = new Set<number>()
  for (let i = 0; i < s.length; i++) {
    if (!isSingle(s, i)) continue
    if (!canOpen(s, i)) {
      escape.add(i)
      continue
    }
    let j = i + 1
    while (j < s.length && !canClose(s, j)) j++
    if (j >= s.length) {
      escape.add(i)
      continue
    }
    i = j // a pair: skip to after its closing $
  }
  if (escape.size === 0) return s
  let r = ''
  for (let i = 0; i < s.length; i++) r += escape.has(i) ? '\\$' : s[i]
  return r
}
