/** What stands for a hidden credential on screen. */
const HIDDEN = '•••'

/** Query parameters whose name says they carry a credential (as backend/diagnostics redacts them). */
const SECRET_PARAM = /token|secret|password|key|code|sig|signature/i

/**
 * A connector's URL as a list shows it: a password in it (https://me:pw@host)
 * and query values whose name says secret (?api_key=…) hidden, everything
 * else as written. Text that is not a URL is returned as it is.
 */
export function maskUrl(raw: string): string {
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    return raw
  }
  let out = raw
  if (u.password) out = out.replace(`:${u.password}@`, `:${HIDDEN}@`)
  const q = out.indexOf('?')
  if (q < 0) return out
  const [query, hash = ''] = out.slice(q + 1).split(/(?=#)/)
  const masked = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=')
      return eq > 0 && SECRET_PARAM.test(pair.slice(0, eq)) && eq < pair.length - 1 ? `${pair.slice(0, eq + 1)}${HIDDEN}` : pair
    })
    .join('&')
  return `${out.slice(0, q + 1)}${masked}${hash}`
}
