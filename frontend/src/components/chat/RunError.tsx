import {CircleAlert, Clock, KeyRound, ListChecks, RotateCw} from 'lucide-react'
import {API_KEY_NAMES, describeRunError, type RunErrorInfo} from '../../lib/runError'
import {useNow} from '../../lib/useNow'
import {useUI} from '../../stores/ui'

interface Props {
  error: RunErrorInfo
  /** Offers Retry when set (the last turn, nothing running). */
  onRetry?: () => void
}

/** A failed turn in plain words, with Retry and, when signing in would help, Accounts. */
export function RunError({error, onRetry}: Props) {
  const {setView, openAPIKeyForm, openModelPicker} = useUI.getState()
  const now = useNow(30_000)
  const v = describeRunError(error, now)
  const Icon = v.accounts || v.apiKeyFor ? KeyRound : CircleAlert
  const actions = onRetry || v.accounts || v.apiKeyFor || v.chooseModel
  return (
    <div className={`run-error${v.accounts ? ' is-auth' : ''}`} data-testid="run-error" role="alert">
      <Icon size={16} className="run-error-icon" aria-hidden="true" />
      <div className="run-error-body">
        <p className="run-error-title">{v.title}</p>
        <p className="run-error-detail selectable">{v.detail}</p>
        {v.quote && (
          <blockquote className="run-error-quote selectable" data-testid="run-error-quote">
            {v.quote}
          </blockquote>
        )}
        {v.reset && (
          <p className="run-error-reset" data-testid="run-error-reset">
            <Clock size={12} aria-hidden="true" />
            {v.reset}
          </p>
        )}
        {actions && (
          <div className="run-error-actions">
            {v.apiKeyFor && (
              <button
                type="button"
                className="btn btn-primary btn-sm"
                data-testid="run-error-apikey"
                onClick={() => openAPIKeyForm(v.apiKeyFor!)}
              >
                <KeyRound size={13} aria-hidden="true" />
                Add {API_KEY_NAMES[v.apiKeyFor] ?? 'an API key'}
              </button>
            )}
            {v.chooseModel && (
              <button type="button" className="btn btn-primary btn-sm" data-testid="run-error-choose-model" onClick={openModelPicker}>
                <ListChecks size={13} aria-hidden="true" />
                Choose another model
              </button>
            )}
            {onRetry && (
              <button type="button" className="btn btn-secondary btn-sm" data-testid="retry" onClick={onRetry}>
                <RotateCw size={13} aria-hidden="true" />
                Retry
              </button>
            )}
            {v.accounts && (
              <button type="button" className="btn btn-sm btn-ghost" onClick={() => setView('accounts')}>
                Open Accounts
              </button>
            )}
          </div>
        )}
      </div>
    </div>
  )
}
