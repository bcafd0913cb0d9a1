// Unsent composer text, kept per session while the user switches around.

export type Drafts = Readonly<Record<string, string>>

export function getDraft(drafts: Drafts, sessionId: string | null): string {
  return (sessionId && drafts[sessionId]) || ''
}

/** Returns drafts with sessionId's text set; "" removes the entry. */
export function setDraft(drafts: Drafts, sessionId: string, text: string): Drafts {
  if ((drafts[sessionId] ?? '') === text) return drafts
  if (text === '') return removeDraft(drafts, sessionId)
  return {...drafts, [sessionId]: text}
}

export function removeDraft(drafts: Drafts, sessionId: string): Drafts {
  if (!(sessionId in drafts)) return drafts
  const next = {...drafts}
  delete next[sessionId]
  return next
}

/** Whether text is worth sending: anything but whitespace. */
export function canSend(text: string): boolean {
  return text.trim() !== ''
}
