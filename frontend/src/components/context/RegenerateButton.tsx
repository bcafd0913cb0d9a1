import {RefreshCw} from 'lucide-react'

/**
 * "Regenerate" in an answer's action bar: answers its question again as a
 * new branch; the old answer stays one click away in the version switcher.
 * Absent (not disabled) when the chat cannot answer; disabled while a turn
 * runs.
 */
export function RegenerateButton({onRegenerate, disabled}: {onRegenerate: () => void; disabled?: boolean}) {
  return (
    <button
      type="button"
      className="icon-btn icon-btn-sm"
      data-testid="regenerate"
      aria-label="Regenerate this answer"
      title="Regenerate"
      disabled={disabled}
      onClick={onRegenerate}
    >
      <RefreshCw size={14} aria-hidden="true" />
    </button>
  )
}
