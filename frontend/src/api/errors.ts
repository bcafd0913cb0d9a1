// Every failure from the Go side reaches the UI as an AppError. app.FormatError
// returns the Go ErrorDTO as JSON text, and the Wails runtime rejects a bound
// call's promise with new Error(that text) (an object would become "[object
// Object]"); a missing binding throws a TypeError; some paths reject with a
// plain string or an object. toAppError accepts them all.

export const ERROR_KINDS = [
  'not_found',
  'invalid',
  'unavailable',
  'auth_required',
  'canceled',
  'conflict',
  'internal',
] as const

export type ErrorKind = (typeof ERROR_KINDS)[number]

export interface AppError {
  kind: ErrorKind
  message: string
  /** Set when a provider refused a request: which one (gemini, anthropic, openai). */
  provider?: string
  /** What to do about a provider's refusal: entitlement, model_unavailable, rate_limit, quota… */
  reason?: string
  /** The provider's own error code (third_party_gate, instructions_not_valid…). */
  code?: string
  /** The provider's own message. */
  detail?: string
  /** Unix ms when a limit that ended a turn resets. */
  retryAt?: number
}

/** The provider fields of an error object, copied when present. */
function providerFields(o: Record<string, unknown>): Partial<AppError> {
  const out: Partial<AppError> = {}
  for (const k of ['provider', 'reason', 'code', 'detail'] as const) {
    if (typeof o[k] === 'string' && o[k]) out[k] = o[k] as string
  }
  if (typeof o.retryAt === 'number' && o.retryAt > 0) out.retryAt = o.retryAt
  return out
}

export const FALLBACK_MESSAGE = 'Something went wrong.'

function normalKind(kind: unknown): ErrorKind {
  return typeof kind === 'string' && (ERROR_KINDS as readonly string[]).includes(kind)
    ? (kind as ErrorKind)
    : 'internal'
}

function normalMessage(message: unknown): string {
  if (typeof message !== 'string') return FALLBACK_MESSAGE
  const m = message.trim()
  return m === '' ? FALLBACK_MESSAGE : m
}

function fromString(s: string): AppError {
  const t = s.trim()
  if (t.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(t)
      if (parsed && typeof parsed === 'object' && 'message' in parsed) return toAppError(parsed)
    } catch {
      // Not JSON after all: use the text as it is.
    }
  }
  return {kind: 'internal', message: normalMessage(t)}
}

/** Turns any rejection value into {kind, message}. */
export function toAppError(err: unknown): AppError {
  if (typeof err === 'string') return fromString(err)
  if (err instanceof Error) {
    if (err.message.trim().startsWith('{')) return fromString(err.message)
    const kind = 'kind' in err ? normalKind((err as {kind: unknown}).kind) : 'internal'
    return {kind, message: normalMessage(err.message || err.name)}
  }
  if (err && typeof err === 'object') {
    const o = err as {kind?: unknown; message?: unknown; error?: unknown}
    if (typeof o.message === 'string')
      return {kind: normalKind(o.kind), message: normalMessage(o.message), ...providerFields(err as Record<string, unknown>)}
    if (typeof o.error === 'string') return {kind: normalKind(o.kind), message: normalMessage(o.error)}
    return {kind: normalKind(o.kind), message: FALLBACK_MESSAGE}
  }
  if (err === undefined || err === null) return {kind: 'internal', message: FALLBACK_MESSAGE}
  return {kind: 'internal', message: normalMessage(String(err))}
}

export function isAppError(v: unknown): v is AppError {
  return (
    !!v &&
    typeof v === 'object' &&
    typeof (v as AppError).message === 'string' &&
    (ERROR_KINDS as readonly string[]).includes((v as AppError).kind)
  )
}
