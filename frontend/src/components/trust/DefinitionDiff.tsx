import {FileDiff} from 'lucide-react'
import type {DefinitionChange, DiffLine} from '../../lib/trust'

const SECTIONS = [
  ['description', 'Description'],
  ['schema', 'Input schema'],
  ['annotations', 'Annotations'],
] as const

function when(iso: string): string {
  const t = Date.parse(iso)
  if (!Number.isFinite(t) || t <= 0) return ''
  return new Date(t).toLocaleString(undefined, {dateStyle: 'medium', timeStyle: 'short'})
}

function Lines({lines, testId}: {lines: readonly DiffLine[]; testId: string}) {
  const added = lines.filter((l) => l.op === '+').length
  const removed = lines.filter((l) => l.op === '-').length
  return (
    <>
      <span className="diff-counts">
        <span className="diff-count-add">+{added}</span> <span className="diff-count-del">−{removed}</span>
      </span>
      <pre className="diff-block selectable" data-testid={testId}>
        {lines.map((l, i) => {
          const kind = l.op === '+' ? 'add' : l.op === '-' ? 'del' : 'same'
          return (
            <span key={i} className={`diff-line is-${kind}`} data-op={kind}>
              <span className="diff-op" aria-hidden="true">
                {l.op === '+' ? '+' : l.op === '-' ? '−' : ' '}
              </span>
              <span className="visually-hidden">{kind === 'add' ? 'added: ' : kind === 'del' ? 'removed: ' : ''}</span>
              {l.text || ' '}
            </span>
          )
        })}
      </pre>
    </>
  )
}

/**
 * What changed in a tool's definition since the user allowed it (a pinned
 * definition, docs/SECURITY.md): a line diff of the description, the input
 * schema and the annotations, each shown only when it changed.
 */
export function DefinitionDiff({change}: {change: DefinitionChange}) {
  const allowed = when(change.allowedAt)
  const parts = SECTIONS.filter(([k]) => (change[k]?.length ?? 0) > 0)
  return (
    <section className="definition-diff" data-testid="definition-diff" aria-label="What changed">
      <p className="definition-diff-lead" role="alert">
        <FileDiff size={14} aria-hidden="true" />
        <span>
          This tool changed since you allowed it{allowed ? ` on ${allowed}` : ''}. A server can change what a tool does
          after you approve it: read what changed before you allow it again.
        </span>
      </p>
      {parts.length === 0 && <p className="definition-diff-empty">The server changed the tool&rsquo;s definition in a way that has no readable diff.</p>}
      {parts.map(([key, label]) => (
        <div key={key} className="definition-diff-part">
          <span className="tool-section-label">{label}</span>
          <Lines lines={change[key] ?? []} testId={`diff-${key}`} />
        </div>
      ))}
    </section>
  )
}
