import {create} from 'zustand'
import type {WirePart} from './composeApi'
import type {DraftAttachment, FileDraft, ResourceDraft} from './types'

/**
 * The attachments of each chat's draft, kept beside the draft text
 * (stores/chat.ts) until the message is sent. Pure: the reads from Go are
 * the callers'.
 */
interface DraftAttachmentsState {
  bySession: Readonly<Record<string, DraftAttachment[]>>
  /** Why the draft cannot be sent as it is, per session (Go's check against the provider's limits). */
  refusals: Readonly<Record<string, string[]>>
  add: (sessionId: string, items: DraftAttachment[]) => void
  remove: (sessionId: string, index: number) => void
  /** Puts a fresh read of a resource in place of the one at index. */
  replace: (sessionId: string, index: number, item: DraftAttachment) => void
  /** Marks the draft resources a server says changed; returns whether any was in a draft. */
  markUpdated: (connectorId: string, uri: string, sessionIds: string[]) => boolean
  setRefusals: (sessionId: string, refusals: string[]) => void
  clear: (sessionId: string) => void
}

/** Whether two drafts are the same attachment (a resource by connector and URI, a file by name and bytes). */
export function sameAttachment(a: DraftAttachment, b: DraftAttachment): boolean {
  if (a.type === 'resource' && b.type === 'resource') return a.connectorId === b.connectorId && a.uri === b.uri
  if (a.type === 'file' && b.type === 'file') return a.name === b.name && a.size === b.size && a.data === b.data
  return false
}

export const useDraftAttachments = create<DraftAttachmentsState>((set) => ({
  bySession: {},
  refusals: {},
  add: (sessionId, items) =>
    set((s) => {
      const cur = s.bySession[sessionId] ?? []
      const fresh = items.filter((it) => !cur.some((c) => sameAttachment(c, it)))
      // A resource attached again replaces its older read.
      const kept = cur.map((c) => items.find((it) => it.type === 'resource' && sameAttachment(c, it)) ?? c)
      return {bySession: {...s.bySession, [sessionId]: [...kept, ...fresh]}}
    }),
  remove: (sessionId, index) =>
    set((s) => ({
      bySession: {...s.bySession, [sessionId]: (s.bySession[sessionId] ?? []).filter((_, i) => i !== index)},
      refusals: {...s.refusals, [sessionId]: []},
    })),
  replace: (sessionId, index, item) =>
    set((s) => ({bySession: {...s.bySession, [sessionId]: (s.bySession[sessionId] ?? []).map((c, i) => (i === index ? item : c))}})),
  markUpdated: (connectorId, uri, sessionIds) => {
    let hit = false
    set((s) => {
      const next = {...s.bySession}
      for (const id of sessionIds) {
        const list = next[id]
        if (!list) continue
        next[id] = list.map((a) => {
          if (a.type === 'resource' && a.connectorId === connectorId && a.uri === uri) {
            hit = true
            return {...a, updated: true}
          }
          return a
        })
      }
      return {bySession: next}
    })
    return hit
  },
  setRefusals: (sessionId, refusals) => set((s) => ({refusals: {...s.refusals, [sessionId]: refusals}})),
  clear: (sessionId) =>
    set((s) => {
      const bySession = {...s.bySession}
      const refusals = {...s.refusals}
      delete bySession[sessionId]
      delete refusals[sessionId]
      return {bySession, refusals}
    }),
}))

/** A part of a prompt's result (chat.Parts as JSON). */
export type PromptPart = {type: 'text'; text: string} | (FileDraft & {ref?: string}) | (Omit<ResourceDraft, 'updated'> & {ref?: string})

/**
 * A prompt's result as a draft the user reviews before sending: its text
 * parts as the text (paragraphs apart), its files and resources as
 * attachments. Parts of another type are dropped.
 */
export function promptDraft(parts: ReadonlyArray<WirePart>): {text: string; attachments: DraftAttachment[]} {
  const texts: string[] = []
  const attachments: DraftAttachment[] = []
  for (const p of parts as unknown as PromptPart[]) {
    if (p.type === 'text') {
      if (p.text) texts.push(p.text)
    } else if (p.type === 'file') {
      attachments.push({type: 'file', name: p.name || 'file', mimeType: p.mimeType, size: p.size, data: p.data})
    } else if (p.type === 'resource') {
      const {ref: _ref, ...r} = p
      attachments.push({...r, type: 'resource'})
    }
  }
  return {text: texts.join('\n\n'), attachments}
}

/** A resource as a resource read gave it, with the chip's name (chat.ResourcePart as JSON). */
export function resourceDraft(part: Omit<ResourceDraft, 'type' | 'updated'>, name?: string): ResourceDraft {
  return {...part, type: 'resource', name: part.name || name}
}

/** The resource parts of a read (resources/read) as drafts, named after the listing. */
export function readDrafts(parts: ReadonlyArray<WirePart>, name?: string): ResourceDraft[] {
  return parts.filter((p) => p.type === 'resource').map((p) => resourceDraft(p as unknown as Omit<ResourceDraft, 'type'>, name))
}
