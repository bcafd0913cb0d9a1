// Real files for attachment tests, made in memory: a PNG (a gradient with a
// little noise, so it is large enough to be stored by reference, and shows
// as a picture in the screenshots), a PDF with one page of text, and a
// Markdown note.
import {deflateSync} from 'node:zlib'

/** n pseudo-random bytes, the same on every run (xorshift32), so screenshots do not change. */
function noiseBytes(n: number, seed = 0x9e3779b9): Buffer {
  const out = Buffer.alloc(n)
  let x = seed >>> 0
  for (let i = 0; i < n; i++) {
    x ^= x << 13
    x >>>= 0
    x ^= x >>> 17
    x ^= x << 5
    x >>>= 0
    out[i] = x & 0xff
  }
  return out
}

const crcTable = Array.from({length: 256}, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(buf: Buffer): number {
  let c = 0xffffffff
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([len, body, crc])
}

/** An RGB PNG of w×h from pixel(x, y) → [r, g, b]. */
function encodePNG(w: number, h: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  const raw = Buffer.alloc((w * 3 + 1) * h)
  for (let y = 0; y < h; y++) {
    const row = y * (w * 3 + 1)
    raw[row] = 0 // no filter
    for (let x = 0; x < w; x++) raw.set(pixel(x, y), row + 1 + x * 3)
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(w, 0)
  ihdr.writeUInt32BE(h, 4)
  ihdr.set([8, 2, 0, 0, 0], 8) // 8-bit RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))])
}

/** A 320×200 picture: a blue-to-orange sky over a dark hill, with grain. */
export function picturePNG(): Buffer {
  const noise = noiseBytes(320 * 200)
  return encodePNG(320, 200, (x, y) => {
    const g = (noise[y * 320 + x] & 15) - 8
    const hill = y > 140 + 30 * Math.sin(x / 40)
    const t = y / 200
    const c: [number, number, number] = hill ? [40, 70, 50] : [Math.round(60 + 190 * t), Math.round(120 + 60 * t), Math.round(230 - 150 * t)]
    return c.map((v) => Math.max(0, Math.min(255, v + g))) as [number, number, number]
  })
}

/** A w×h PNG of random pixels: as large as a PNG of that size gets. */
export function noisePNG(w: number, h: number): Buffer {
  const noise = noiseBytes(w * h * 3)
  return encodePNG(w, h, (x, y) => {
    const i = (y * w + x) * 3
    return [noise[i], noise[i + 1], noise[i + 2]]
  })
}

/** A one-page PDF that says text, padded past the size the store keeps inline (4 KiB). */
export function onePagePDF(text: string): Buffer {
  const stream = `BT /F1 18 Tf 72 720 Td (${text.replace(/[()\\]/g, '\\$&')}) Tj ET\n` + '% padding to be stored by reference\n'.repeat(150)
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}endstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out))
    out += `${i + 1} 0 obj\n${o}\nendobj\n`
  })
  const xref = Buffer.byteLength(out)
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}
