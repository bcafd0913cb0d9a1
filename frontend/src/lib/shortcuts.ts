// The app's keyboard shortcuts. The Go menu (app/menu.go) gives the same
// keys to the same commands; in the real window its accelerators take them
// first, so this table serves the dev bridge and any key the menu lacks.

/** What a shortcut or a menu item asks for. The first four are the menu's UI commands. */
export type Command = 'new-chat' | 'search' | 'settings' | 'about' | 'quit' | 'fullscreen'

type Key = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>

const MOD_KEYS: Record<string, Command> = {
  n: 'new-chat',
  k: 'search',
  ',': 'settings',
  q: 'quit',
}

/** The command a keydown asks for, if any. */
export function commandFor(e: Key): Command | undefined {
  if (e.key === 'F11' && !e.ctrlKey && !e.metaKey && !e.altKey && !e.shiftKey) return 'fullscreen'
  if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey) return undefined
  return MOD_KEYS[e.key.toLowerCase()]
}

/** Whether s is a command the menu may send. */
export function isCommand(s: unknown): s is Command {
  return typeof s === 'string' && (Object.values(MOD_KEYS) as string[]).concat(['about', 'fullscreen']).includes(s)
}

/** Commands that still run while a dialog is open (they do not change what the dialog is about). */
export function runsOverDialogs(c: Command): boolean {
  return c === 'quit' || c === 'fullscreen'
}
