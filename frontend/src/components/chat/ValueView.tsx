// A tool's arguments or result as a person reads them: text as text
// (Markdown when it is prose), JSON as a tree whose branches fold, long
// strings and long lists folded with a way to see all. The raw JSON stays
// one click away in the card.

import {useState} from 'react'
import {ChevronRight} from 'lucide-react'
import {Markdown} from './Markdown'

/** Strings longer than this are folded until asked for. */
export const FOLD_CHARS = 600
/** Arrays and objects show this many members until asked for more. */
export const FOLD_ITEMS = 50
/** Branches deeper than this start folded. */
const OPEN_DEPTH = 2

type Json = null | boolean | number | string | Json[] | {[k: string]: Json}

/**
 * What to show for JSON text: the text itself when it is a plain string or
 * the {"text": …} envelope of a text-only tool result, else the parsed value.
 */
export function readable(text: string): {kind: 'text'; text: string} | {kind: 'value'; value: Json} | {kind: 'raw'; text: string} {
  const t = text.trim()
  let v: Json
  try {
    v = JSON.parse(t) as Json
  } catch {
    return {kind: 'raw', text: t}
  }
  if (typeof v === 'string') return {kind: 'text', text: v}
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const keys = Object.keys(v)
    if (keys.length === 1 && keys[0] === 'text' && typeof v.text === 'string') return {kind: 'text', text: v.text}
  }
  return {kind: 'value', value: v}
}

function FoldedString({s}: {s: string}) {
  const [all, setAll] = useState(false)
  const long = s.length > FOLD_CHARS
  const shown = long && !all ? s.slice(0, FOLD_CHARS) : s
  const multi = shown.includes('\n')
  return (
    <span className={`vv-string${multi ? ' is-multiline' : ''}`}>
      {multi ? shown : JSON.stringify(shown).slice(1, -1).replace(/\\"/g, '"')}
      {long && (
        <button type="button" className="vv-more" data-testid="vv-more" onClick={() => setAll(!all)}>
          {all ? 'Show less' : `… show all ${s.length.toLocaleString()} characters`}
        </button>
      )}
    </span>
  )
}

function Scalar({v}: {v: Json}) {
  if (typeof v === 'string') return <FoldedString s={v} />
  if (v === null) return <span className="vv-null">null</span>
  return <span className={typeof v === 'number' ? 'vv-number' : 'vv-bool'}>{String(v)}</span>
}

function summary(v: Json[] | {[k: string]: Json}): string {
  if (Array.isArray(v)) return `${v.length} item${v.length === 1 ? '' : 's'}`
  const n = Object.keys(v).length
  return `${n} field${n === 1 ? '' : 's'}`
}

/** A folding object or array; the root shows its members without a row of its own. */
function Branch({name, v, depth, root = false}: {name?: string; v: Json[] | {[k: string]: Json}; depth: number; root?: boolean}) {
  const entries: [string, Json][] = Array.isArray(v) ? v.map((x, i) => [String(i), x]) : Object.entries(v)
  const [open, setOpen] = useState(root || depth < OPEN_DEPTH)
  const [limit, setLimit] = useState(FOLD_ITEMS)
  if (entries.length === 0) {
    return (
      <div className="vv-row">
        {name !== undefined && <span className="vv-key">{name}</span>}
        <span className="vv-null">{Array.isArray(v) ? '[]' : '{}'}</span>
      </div>
    )
  }
  return (
    <div className="vv-branch">
      {!root && (
        <button type="button" className="vv-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          <ChevronRight size={12} className="vv-chevron" aria-hidden="true" />
          {name !== undefined && <span className="vv-key">{name}</span>}
          <span className="vv-summary">{summary(v)}</span>
        </button>
      )}
      {open && (
        <div className={root ? 'vv-root' : 'vv-children'}>
          {entries.slice(0, limit).map(([k, x]) => (
            <Node key={k} name={Array.isArray(v) ? undefined : k} index={Array.isArray(v) ? k : undefined} v={x} depth={depth + 1} />
          ))}
          {entries.length > limit && (
            <button type="button" className="vv-more" onClick={() => setLimit(limit + FOLD_ITEMS * 4)}>
              Show {Math.min(FOLD_ITEMS * 4, entries.length - limit)} more of {entries.length.toLocaleString()}
            </button>
          )}
        </div>
      )}
    </div>
  )
}

function Node({name, index, v, depth}: {name?: string; index?: string; v: Json; depth: number}) {
  const label = name ?? (index !== undefined ? `${index}` : undefined)
  if (v && typeof v === 'object') return <Branch name={label} v={v} depth={depth} />
  return (
    <div className="vv-row">
      {label !== undefined && <span className={name !== undefined ? 'vv-key' : 'vv-index'}>{label}</span>}
      <Scalar v={v} />
    </div>
  )
}

/** Arguments or a result, readable: see the file comment. */
export function ValueView({text, testId}: {text: string; testId?: string}) {
  const r = readable(text)
  if (r.kind === 'text') return <Markdown text={r.text} className="vv-text" testId={testId} />
  if (r.kind === 'raw') {
    return (
      <pre className="json-block" data-testid={testId}>
        {r.text}
      </pre>
    )
  }
  return (
    <div className="vv-tree" data-testid={testId}>
      {r.value && typeof r.value === 'object' ? <Branch v={r.value} depth={0} root /> : <Scalar v={r.value} />}
    </div>
  )
}
