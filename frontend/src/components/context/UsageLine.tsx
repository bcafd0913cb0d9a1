import {type TokenUsage, usageParts, usageTitle} from '../../lib/usage'

/**
 * A quiet line under an answer: the tokens its turn took in and out, and
 * those read from the provider's cache where it reports them (issue 18).
 * The tooltip has the exact numbers.
 */
export function UsageLine({usage, label = 'Tokens'}: {usage: TokenUsage; label?: string}) {
  return (
    <span className="usage-line" data-testid="usage-line" title={usageTitle(usage)}>
      <span className="visually-hidden">{label}: </span>
      {usageParts(usage).join(' · ')}
    </span>
  )
}
