import {type ReactNode, useId, useState} from 'react'
import {ChevronRight} from 'lucide-react'

interface Props {
  label: string
  /** Open unless the user toggled it: follows the card (e.g. open while running). */
  open: boolean
  /** Controls at the right of the heading (Raw toggle, notes). */
  extra?: ReactNode
  children: ReactNode
  testId?: string
}

/** A collapsible part of a tool card (Arguments, Log, Result). */
export function ToolSection({label, open: auto, extra, children, testId}: Props) {
  const [override, setOverride] = useState<boolean | null>(null)
  const open = override ?? auto
  const bodyId = useId()
  return (
    <section className="tool-section" data-testid={testId}>
      <div className="tool-section-head">
        <button
          type="button"
          className="tool-section-toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOverride(!open)}
        >
          <ChevronRight size={12} className="tool-chevron" aria-hidden="true" />
          {label}
        </button>
        {extra}
      </div>
      <div id={bodyId} className="tool-section-body" hidden={!open}>
        {children}
      </div>
    </section>
  )
}
