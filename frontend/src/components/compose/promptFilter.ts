import type {Prompt} from './types'

/** The "/" query at the start of a draft, or null when the draft is not a prompt command. */
export function slashQuery(text: string): string | null {
  const m = /^\/(\S*)$/.exec(text)
  return m ? m[1] : null
}

/**
 * The prompts whose name, title, server or description contain every word
 * of the query (case-insensitive), those whose name or title starts with it
 * first, then in the order given.
 */
export function filterPrompts(prompts: Prompt[], query: string): Prompt[] {
  const q = query.trim().toLowerCase()
  if (!q) return prompts
  const words = q.split(/\s+/)
  const hay = (p: Prompt) => `${p.name} ${p.title ?? ''} ${p.server} ${p.description ?? ''}`.toLowerCase()
  const hits = prompts.filter((p) => words.every((w) => hay(p).includes(w)))
  const starts = (p: Prompt) => p.name.toLowerCase().startsWith(q) || (p.title ?? '').toLowerCase().startsWith(q)
  return [...hits.filter(starts), ...hits.filter((p) => !starts(p))]
}

/** The "@" query at the end of a draft (after a space or at the start), or null. */
export function atQuery(text: string): string | null {
  const m = /(?:^|\s)@(\S*)$/.exec(text)
  return m ? m[1] : null
}
