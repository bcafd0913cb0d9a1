// Tool names come from servers, and a hostile one can name a tool like
// another with a look-alike letter (get_dаta with a Cyrillic а). Names are
// shown with every character outside printable ASCII marked, so two tools
// never look the same.

export interface NameSegment {
  text: string
  /** The segment is characters outside printable ASCII; code names them ("U+0430"). */
  foreign?: boolean
  code?: string
}

const codeOf = (ch: string) => 'U+' + ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')

/** Splits a name into runs of printable ASCII and single other characters. */
export function nameSegments(name: string): NameSegment[] {
  const out: NameSegment[] = []
  let plain = ''
  for (const ch of name) {
    if (/^[\x20-\x7e]$/.test(ch)) {
      plain += ch
      continue
    }
    if (plain) out.push({text: plain})
    plain = ''
    out.push({text: ch, foreign: true, code: codeOf(ch)})
  }
  if (plain) out.push({text: plain})
  return out
}

/** Whether the name has a character outside printable ASCII. */
export function hasForeignChars(name: string): boolean {
  return nameSegments(name).some((s) => s.foreign)
}

/** The name with each character outside printable ASCII written as [U+XXXX]. */
export function plainName(name: string): string {
  return nameSegments(name)
    .map((s) => (s.foreign ? `[${s.code}]` : s.text))
    .join('')
}
