import {nameSegments} from '../../lib/names'

/**
 * A tool name as a server gave it, with each character outside printable
 * ASCII marked and named (a look-alike letter cannot pass for another).
 */
export function ToolName({name, className, testId}: {name: string; className?: string; testId?: string}) {
  const segs = nameSegments(name)
  const foreign = segs.filter((s) => s.foreign)
  return (
    <span
      className={className}
      data-testid={testId}
      title={foreign.length ? `This name has characters that are not plain letters: ${foreign.map((s) => s.code).join(', ')}` : undefined}
    >
      {segs.map((s, i) =>
        s.foreign ? (
          <mark key={i} className="tool-name-foreign" data-testid="tool-name-foreign" aria-label={`${s.text} (${s.code})`}>
            {s.text}
            <sup>{s.code}</sup>
          </mark>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </span>
  )
}
