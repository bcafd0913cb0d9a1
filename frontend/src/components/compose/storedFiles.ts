import {api} from '../../api/client'
import type {StoredFile} from '../../api/types'

/**
 * Stored attachments read for the message view, cached per ref: a page
 * names a sent file by its ref (PartDTO.ref), and each is read from Go
 * once, when a message showing it is rendered. A failed read is not kept
 * (the next render asks again). The cache keeps the most recent reads up
 * to a total size.
 */

/** The most bytes (base64) the cache keeps; a read bigger than this is still returned. */
export const CACHE_BYTES = 48 << 20

const cache = new Map<string, Promise<StoredFile>>()
const sizes = new Map<string, number>()

function key(sessionId: string, ref: string): string {
  return `${sessionId}\u0000${ref}`
}

function evict() {
  let total = 0
  for (const n of sizes.values()) total += n
  for (const k of cache.keys()) {
    if (total <= CACHE_BYTES) return
    const n = sizes.get(k)
    if (n === undefined) continue // still being read
    cache.delete(k)
    sizes.delete(k)
    total -= n
  }
}

/** The stored file, read once per chat and ref. */
export function readStoredFile(sessionId: string, ref: string): Promise<StoredFile> {
  const k = key(sessionId, ref)
  const hit = cache.get(k)
  if (hit) {
    // Most recently used last.
    cache.delete(k)
    cache.set(k, hit)
    return hit
  }
  const p = api.storedFile(sessionId, ref).then(
    (f) => {
      sizes.set(k, f.data.length)
      evict()
      return f
    },
    (e: unknown) => {
      cache.delete(k)
      throw e
    },
  )
  cache.set(k, p)
  return p
}

/** Empties the cache (tests). */
export function clearStoredFiles() {
  cache.clear()
  sizes.clear()
}

/** The UTF-8 text of base64 bytes (bad sequences become U+FFFD). */
export function decodeText(data: string): string {
  const bin = atob(data)
  const bytes = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i)
  return new TextDecoder('utf-8').decode(bytes)
}

/** The non-text/* types read as text: chat.IsTextType's list (backend/chat/media.go). */
const textTypes = new Set([
  'application/json', 'application/xml', 'application/javascript', 'application/x-javascript', 'application/typescript',
  'application/x-yaml', 'application/yaml', 'application/toml', 'application/x-sh', 'application/x-python', 'application/sql',
  'application/graphql', 'application/ld+json', 'application/x-ndjson', 'application/csv',
])

/** Whether a file of this MIME type is text, as Go decides it for the providers (chat.IsTextType). */
export function isTextType(mime?: string): boolean {
  const m = (mime ?? '').toLowerCase().split(';')[0].trim()
  return m.startsWith('text/') || textTypes.has(m) || m.endsWith('+json') || m.endsWith('+xml')
}
