import './tools-panel.css'

interface Props {
  checked: boolean
  onChange: (on: boolean) => void
  /** The accessible name, e.g. "Use Files in this chat". */
  label: string
  disabled?: boolean
  busy?: boolean
  size?: 'sm' | 'md'
  testId?: string
  /** Extra data attributes (data-connector-id, data-tool). */
  data?: Record<string, string>
}

/** An on/off switch: a button with role="switch" and aria-checked. */
export function Switch({checked, onChange, label, disabled, busy, size = 'md', testId, data}: Props) {
  const attrs: Record<string, string> = {}
  for (const [k, v] of Object.entries(data ?? {})) attrs[`data-${k}`] = v
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      aria-busy={busy || undefined}
      title={label}
      className={`switch switch-${size}${checked ? ' is-on' : ''}`}
      disabled={disabled}
      data-testid={testId}
      {...attrs}
      onClick={(e) => {
        e.stopPropagation()
        onChange(!checked)
      }}
    >
      <span className="switch-thumb" aria-hidden="true" />
    </button>
  )
}
