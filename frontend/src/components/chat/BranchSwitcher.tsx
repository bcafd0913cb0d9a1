import {ChevronLeft, ChevronRight} from 'lucide-react'
import type {Branch} from '../../api/types'

interface Props {
  branch: Branch
  /** Switching is off while a reply streams or a switch is on its way. */
  disabled?: boolean
  /** Called with the seq of the version to show. */
  onSwitch: (seq: number) => void
}

/** "‹ 2 / 3 ›": which version of an edited message is shown, and the way to the others. */
export function BranchSwitcher({branch, disabled = false, onSwitch}: Props) {
  return (
    <div className="branch-switcher" role="group" aria-label="Versions of this message">
      <button
        type="button"
        className="icon-btn icon-btn-sm"
        data-testid="branch-prev"
        aria-label="Previous version"
        title="Previous version"
        disabled={disabled || !branch.prev}
        onClick={() => onSwitch(branch.prev)}
      >
        <ChevronLeft size={14} aria-hidden="true" />
      </button>
      <span className="branch-position" data-testid="branch-position">
        {`${branch.index + 1} / ${branch.count}`}
      </span>
      <button
        type="button"
        className="icon-btn icon-btn-sm"
        data-testid="branch-next"
        aria-label="Next version"
        title="Next version"
        disabled={disabled || !branch.next}
        onClick={() => onSwitch(branch.next)}
      >
        <ChevronRight size={14} aria-hidden="true" />
      </button>
    </div>
  )
}
