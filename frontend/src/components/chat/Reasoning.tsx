import {useId, useState} from 'react'
import {Brain, ChevronRight} from 'lucide-react'
import {thoughtLabel} from '../../lib/duration'
import {Markdown} from './Markdown'

interface Props {
  text: string
  /** Whether the model is still thinking. */
  thinking?: boolean
  /** How long it thought, when known. */
  ms?: number
}

/** The model's reasoning: one muted line ("Thought for 12s") that expands. */
export function Reasoning({text, thinking = false, ms}: Props) {
  const [open, setOpen] = useState(false)
  const bodyId = useId()
  return (
    <div className={`reasoning${open ? ' is-open' : ''}`} data-testid="reasoning">
      <button
        type="button"
        className={`reasoning-toggle${thinking ? ' is-thinking' : ''}`}
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen(!open)}
      >
        <Brain size={14} aria-hidden="true" />
        <span>{thinking ? 'Thinking…' : thoughtLabel(ms)}</span>
        <ChevronRight size={14} className="reasoning-chevron" aria-hidden="true" />
      </button>
      {open && (
        <div id={bodyId} className="reasoning-body">
          <Markdown text={text} className="markdown-muted" />
        </div>
      )}
    </div>
  )
}
