// Client-side handling of a flat elicitation form: initial values from the
// schema's defaults, and validation worded like the backend's.

import type {FormField} from '../api/mcpRequests'

/** A field's value while editing: text for strings and numbers, a flag for booleans, a list for multi-selects. */
export type FieldValue = string | boolean | string[]

export function fieldLabel(f: FormField): string {
  return f.title || f.name
}

export function initialValues(fields: FormField[]): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {}
  for (const f of fields) {
    const d = f.default
    switch (f.kind) {
      case 'boolean':
        out[f.name] = d === true
        break
      case 'multi':
        out[f.name] = Array.isArray(d) ? d.filter((x): x is string => typeof x === 'string') : []
        break
      default:
        out[f.name] = d === undefined || d === null ? '' : String(d)
    }
  }
  return out
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const DATE = /^\d{4}-\d{2}-\d{2}$/

function validFormat(format: FormField['format'], v: string): boolean {
  switch (format) {
    case 'email':
      return EMAIL.test(v)
    case 'uri':
      try {
        return !!new URL(v).protocol
      } catch {
        return false
      }
    case 'date':
      return DATE.test(v) && !Number.isNaN(Date.parse(v))
    case 'date-time':
      return /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v))
    default:
      return true
  }
}

const FORMAT_NAMES: Record<string, string> = {email: 'an email address', uri: 'a URL', date: 'a date (YYYY-MM-DD)', 'date-time': 'a date and time'}

/** The problem with one field's value, or '' when it is fine. */
export function fieldError(f: FormField, v: FieldValue | undefined): string {
  const label = fieldLabel(f)
  if (f.kind === 'boolean') return ''
  if (f.kind === 'multi') {
    const list = Array.isArray(v) ? v : []
    if (f.required && list.length === 0) return `${label} is required`
    if (list.length > 0 && f.minItems !== undefined && list.length < f.minItems) return `${label} needs at least ${f.minItems} choices`
    if (f.maxItems !== undefined && list.length > f.maxItems) return `${label} allows at most ${f.maxItems} choices`
    return ''
  }
  const s = typeof v === 'string' ? v : ''
  if (s.trim() === '') return f.required ? `${label} is required` : ''
  if (f.kind === 'number' || f.kind === 'integer') {
    const n = Number(s)
    if (!Number.isFinite(n)) return `${label} must be a number`
    if (f.kind === 'integer' && !Number.isInteger(n)) return `${label} must be a whole number`
    if (f.minimum !== undefined && n < f.minimum) return `${label} must be at least ${f.minimum}`
    if (f.maximum !== undefined && n > f.maximum) return `${label} must be at most ${f.maximum}`
    return ''
  }
  if (f.options && f.options.length > 0 && !f.options.includes(s)) return `${label} must be one of the choices`
  const len = [...s].length
  if (f.minLength !== undefined && len < f.minLength) return `${label} must be at least ${f.minLength} characters`
  if (f.maxLength !== undefined && len > f.maxLength) return `${label} must be at most ${f.maxLength} characters`
  if (f.format && !validFormat(f.format, s)) return `${label} must be ${FORMAT_NAMES[f.format]}`
  return ''
}

export function formErrors(fields: FormField[], values: Record<string, FieldValue>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const f of fields) {
    const e = fieldError(f, values[f.name])
    if (e) out[f.name] = e
  }
  return out
}

/** The content to send: typed values, empty optional fields left out. */
export function formContent(fields: FormField[], values: Record<string, FieldValue>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const f of fields) {
    const v = values[f.name]
    if (f.kind === 'boolean') {
      out[f.name] = v === true
    } else if (f.kind === 'multi') {
      if (Array.isArray(v) && (v.length > 0 || f.required)) out[f.name] = v
    } else if (typeof v === 'string' && v.trim() !== '') {
      out[f.name] = f.kind === 'number' || f.kind === 'integer' ? Number(v) : v
    }
  }
  return out
}
