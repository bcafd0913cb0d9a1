// Secret arguments of the connector form: each argument of the line is a
// chip the user can lock, so that its secret part (the value of --token=…,
// the key after "Bearer", or the whole argument) is kept in the keychain
// rather than in Maestro's data file. Go suggests the ones that look like
// secrets (SuggestSecretArgs); the user's choice wins. A stored secret shows
// as ${secret:N} and stays locked until the argument is typed again.

import {useEffect, useState} from 'react'
import {Lock, LockOpen} from 'lucide-react'
import {connectorsApi} from '../../api/connectors'

const REF = /\$\{secret:\d+\}/

/** Whether an argument holds a reference to a secret kept in the keychain. */
export const isStoredSecret = (arg: string) => REF.test(arg)

/** The user's choices, by argument text: true locks, false unlocks. */
export type SecretChoices = Readonly<Record<string, boolean>>

/** Whether an argument goes to the keychain: the user's choice, else Go's suggestion. */
export function isSecret(arg: string, choices: SecretChoices, suggested: ReadonlySet<string>): boolean {
  return choices[arg] ?? suggested.has(arg)
}

/** The indexes to send as secretArgs: locked arguments that are not references already. */
export function secretIndexes(args: string[], choices: SecretChoices, suggested: ReadonlySet<string>): number[] {
  return args.flatMap((a, i) => (a !== '' && !isStoredSecret(a) && isSecret(a, choices, suggested) ? [i] : []))
}

/** Asks Go which arguments look like secrets, once the line stops changing. */
export function useSuggestedSecrets(args: string[]): ReadonlySet<string> {
  const key = JSON.stringify(args)
  const [suggested, setSuggested] = useState<ReadonlySet<string>>(new Set())
  useEffect(() => {
    let live = true
    const list = JSON.parse(key) as string[]
    const t = setTimeout(() => {
      connectorsApi
        .suggestSecretArgs(list)
        .then((idx) => live && setSuggested(new Set(idx.map((i) => list[i]).filter((a) => a !== undefined))))
        .catch(() => {})
    }, 250)
    return () => {
      live = false
      clearTimeout(t)
    }
  }, [key])
  return suggested
}

/** Masks the secret-looking part of an argument for its chip. */
function chipText(arg: string, secret: boolean): string {
  if (!secret || isStoredSecret(arg)) return arg
  const eq = arg.indexOf('=')
  return eq > 0 ? `${arg.slice(0, eq + 1)}••••` : '••••'
}

export function SecretArgs({
  args,
  choices,
  suggested,
  onChange,
}: {
  args: string[]
  choices: SecretChoices
  suggested: ReadonlySet<string>
  onChange: (c: SecretChoices) => void
}) {
  if (args.length === 0) return null
  const anySecret = args.some((a) => isStoredSecret(a) || isSecret(a, choices, suggested))
  return (
    <div className="cf-secret-args" data-testid="connector-secret-args">
      <div className="cf-arg-chips" role="group" aria-label="Arguments kept in the keychain">
        {args.map((a, i) => {
          const stored = isStoredSecret(a)
          const secret = stored || isSecret(a, choices, suggested)
          const Icon = secret ? Lock : LockOpen
          return (
            <button
              key={`${i}:${a}`}
              type="button"
              className={`cf-arg-chip mono${secret ? ' is-secret' : ''}`}
              aria-pressed={secret}
              disabled={stored}
              data-testid="connector-arg"
              data-arg-index={i}
              title={
                stored
                  ? 'Kept in your keychain. Type the argument again to change it.'
                  : secret
                    ? 'Kept in your keychain, not in Maestro’s data file. Click to keep it in plain text.'
                    : 'Click to keep this argument in your keychain.'
              }
              onClick={() => onChange({...choices, [a]: !secret})}
            >
              <Icon size={11} aria-hidden="true" />
              {chipText(a || "''", secret)}
            </button>
          )
        })}
      </div>
      <p className="field-hint" data-testid="connector-secret-hint">
        {anySecret
          ? 'Locked arguments look like secrets: their values are kept in your keychain, never in Maestro’s data file or logs.'
          : 'Lock an argument that holds a secret to keep it in your keychain.'}
      </p>
    </div>
  )
}
