import {useId, useState} from 'react'
import {ChevronDown, ChevronRight, FoldVertical} from 'lucide-react'
import {type SummaryFacts, summaryReason} from '../../lib/summaries'
import {formatTokens} from '../../lib/usage'
import {Markdown} from '../chat/Markdown'

interface Props {
  seq: number
  facts: SummaryFacts
  /** The summary's text, as the model wrote it. */
  text: string
  /** The summary's own size, in estimated tokens. */
  tokens?: number
}

/**
 * Where a summary begins to count: the messages above it reach the model
 * only as this summary (they stay stored, shown and searchable). The reader
 * can open it to read what the model now sees instead.
 */
export function SummaryMarker({seq, facts, text, tokens}: Props) {
  const [open, setOpen] = useState(false)
  const bodyId = useId()
  const n = facts.messages
  const size = facts.replaced ? ` · ${formatTokens(facts.replaced)} → ${formatTokens(tokens ?? 0)} tokens` : ''
  return (
    <div className="summary-marker" data-testid="summary-marker" data-seq={seq} data-through={facts.through} role="note">
      <div className="summary-marker-rule">
        <button
          type="button"
          className="summary-marker-toggle"
          data-testid="summary-toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen(!open)}
        >
          <FoldVertical size={14} aria-hidden="true" />
          <span>
            {n === 1 ? 'The message above is' : `The ${n} messages above are`} summarised for the model
          </span>
          {open ? <ChevronDown size={14} aria-hidden="true" /> : <ChevronRight size={14} aria-hidden="true" />}
        </button>
      </div>
      <div className="summary-marker-meta">
        {summaryReason(facts.reason)}
        {size}
      </div>
      {open && (
        <div className="summary-marker-body" id={bodyId} data-testid="summary-text">
          <Markdown text={text} />
        </div>
      )}
    </div>
  )
}
