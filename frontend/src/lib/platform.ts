/** Whether the app runs on macOS (for shortcut labels and the Cmd key). */
export function isMac(): boolean {
  if (typeof navigator === 'undefined') return false
  const p = (navigator as {userAgentData?: {platform?: string}}).userAgentData?.platform ?? navigator.platform ?? ''
  return /mac/i.test(p) || /Mac OS X/.test(navigator.userAgent)
}

/** The label for a Mod+key shortcut: "⌘N" on macOS, "Ctrl+N" elsewhere. */
export function shortcutLabel(key: string): string {
  return isMac() ? `⌘${key.toUpperCase()}` : `Ctrl+${key.toUpperCase()}`
}

/** Whether a keydown is Ctrl+key or Cmd+key (no Shift/Alt). */
export function isModKey(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>, key: string): boolean {
  return (e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === key.toLowerCase()
}
