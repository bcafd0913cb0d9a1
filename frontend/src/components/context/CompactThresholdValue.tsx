import {useEffect, useState} from 'react'
import {DEFAULT_THRESHOLD, MAX_THRESHOLD, MIN_THRESHOLD} from '../../stores/context'

interface Props {
  /** The threshold, a share of a request's limit (0.3 to 0.95). */
  value: number
  onChange: (share: number) => void
  disabled?: boolean
}

const pct = (share: number) => Math.round(share * 100)

/**
 * The value of Settings' "Compact conversations at" row: a slider and the
 * percentage, 30 to 95 %, with a way back to the default (80 %). The new
 * value is handed over when the slider is let go, not on every step.
 */
export function CompactThresholdValue({value, onChange, disabled}: Props) {
  const [draft, setDraft] = useState(pct(value))
  useEffect(() => setDraft(pct(value)), [value])
  const commit = (p: number) => {
    const share = Math.min(MAX_THRESHOLD, Math.max(MIN_THRESHOLD, p / 100))
    if (pct(share) !== pct(value)) onChange(share)
  }
  return (
    <div className="threshold-value">
      <input
        type="range"
        className="threshold-range"
        data-testid="compact-threshold"
        aria-label="Compact conversations at this share of the context"
        min={pct(MIN_THRESHOLD)}
        max={pct(MAX_THRESHOLD)}
        step={5}
        value={draft}
        disabled={disabled}
        onChange={(e) => setDraft(Number(e.target.value))}
        onPointerUp={() => commit(draft)}
        onKeyUp={() => commit(draft)}
        onBlur={() => commit(draft)}
      />
      <span className="threshold-text" data-testid="compact-threshold-text">
        {draft} %
      </span>
      {pct(value) !== pct(DEFAULT_THRESHOLD) && (
        <button type="button" className="link-btn" data-testid="compact-threshold-reset" disabled={disabled} onClick={() => onChange(DEFAULT_THRESHOLD)}>
          Reset to {pct(DEFAULT_THRESHOLD)} %
        </button>
      )}
    </div>
  )
}
