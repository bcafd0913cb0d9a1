import {formatBytes} from '../../lib/size'
import type {FileDraft} from './types'

/**
 * The most a file may weigh to be read at all: above every provider's
 * limit (docs/providers/*.md, "Attachments"), so a file this big is
 * refused here without being read into memory. The provider's own limits
 * are checked by Go when the draft changes and again before sending.
 */
export const MAX_READ_BYTES = 64 << 20

/** Types guessed from the extension when the system gives none (a .md, a .ts…). */
const byExtension: Record<string, string> = {
  md: 'text/markdown', markdown: 'text/markdown', txt: 'text/plain', log: 'text/plain', csv: 'text/csv',
  json: 'application/json', yaml: 'application/yaml', yml: 'application/yaml', toml: 'application/toml',
  xml: 'application/xml', html: 'text/html', css: 'text/css', js: 'text/javascript', ts: 'text/plain',
  tsx: 'text/plain', jsx: 'text/plain', go: 'text/plain', py: 'text/x-python', rs: 'text/plain', sh: 'application/x-sh',
  sql: 'application/sql', c: 'text/plain', h: 'text/plain', java: 'text/plain', pdf: 'application/pdf',
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp',
}

/** The file's MIME type: the system's, else one guessed from its extension, else application/octet-stream. */
export function fileType(name: string, type: string): string {
  if (type) return type
  const ext = name.toLowerCase().split('.').pop() ?? ''
  return byExtension[ext] ?? 'application/octet-stream'
}

/** Why a file cannot even be read, or null. */
export function readRefusal(f: {name: string; size: number}): string | null {
  if (f.size > MAX_READ_BYTES) {
    return `${f.name} is ${formatBytes(f.size)}, over the ${formatBytes(MAX_READ_BYTES)} Maestro reads for an attachment.`
  }
  return null
}

/** base64 of bytes, in chunks (a spread of a large array overflows the stack). */
export function toBase64(bytes: Uint8Array): string {
  let bin = ''
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(bin)
}

function readBytes(file: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const r = new FileReader()
    r.onload = () => resolve(r.result as ArrayBuffer)
    r.onerror = () => reject(r.error ?? new Error('the file could not be read'))
    r.readAsArrayBuffer(file)
  })
}

/** Reads a file the user attached into a draft part. */
export async function readFileDraft(file: File): Promise<FileDraft> {
  const bytes = new Uint8Array(await readBytes(file))
  return {type: 'file', name: file.name || 'pasted', mimeType: fileType(file.name, file.type), size: bytes.length, data: toBase64(bytes)}
}

/** A data: URL for a draft's bytes, to preview an image. */
export function dataURL(mimeType: string, data: string): string {
  return `data:${mimeType};base64,${data}`
}

/** Image types every engine the app runs in (Chromium, WebKitGTK) draws; SVG is left out (a document, not a picture). */
const DRAWN_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp'])

/** Whether an image of mimeType can be shown as a picture; others (TIFF, HEIC…) get a file chip, not a broken image. */
export function drawnImage(mimeType?: string): boolean {
  return DRAWN_IMAGES.has((mimeType ?? '').toLowerCase().split(';')[0].trim())
}
