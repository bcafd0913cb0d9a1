// Short durations for tool calls and reasoning ("820 ms", "1.4 s", "2m 05s").

export function formatDuration(ms: number | undefined | null): string {
  if (ms === undefined || ms === null || !Number.isFinite(ms) || ms < 0) return ''
  if (ms < 1000) return `${Math.round(ms)} ms`
  const s = ms / 1000
  if (s < 10) return `${s.toFixed(1)} s`
  if (s < 60) return `${Math.round(s)} s`
  const total = Math.round(s)
  const m = Math.floor(total / 60)
  const rest = total % 60
  if (m < 60) return `${m}m ${String(rest).padStart(2, '0')}s`
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`
}

/** The label of a finished reasoning block: "Thought for 12s". */
export function thoughtLabel(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return 'Thoughts'
  const s = Math.max(1, Math.round(ms / 1000))
  if (s < 60) return `Thought for ${s}s`
  return `Thought for ${Math.floor(s / 60)}m ${s % 60}s`
}
