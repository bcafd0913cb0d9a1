import {useId} from 'react'
import {POLICIES, POLICY_HELP, POLICY_LABEL, type ToolPolicy} from '../../lib/trust'

interface ConnectorProps {
  value: ToolPolicy
  onChange: (p: ToolPolicy) => void
  disabled?: boolean
  /** The connector's name, for the group's label. */
  name: string
}

/**
 * A connector's approval policy (Settings, the connector's Trust panel):
 * ask every time, allow the tools it marks read-only, or allow everything
 * (destructive tools still ask unless allowed). The connector's default
 * for every chat.
 */
export function ConnectorPolicyPicker({value, onChange, disabled, name}: ConnectorProps) {
  const group = useId()
  return (
    <fieldset className="policy-picker" data-testid="connector-policy" disabled={disabled}>
      <legend className="policy-legend">How {name}&rsquo;s tools are approved</legend>
      {POLICIES.map((p) => (
        <label key={p} className={`policy-option${value === p ? ' is-selected' : ''}`}>
          <input
            type="radio"
            name={group}
            value={p}
            checked={value === p}
            data-testid={`policy-${p}`}
            onChange={() => onChange(p)}
          />
          <span className="policy-text">
            <span className="policy-label">{POLICY_LABEL[p]}</span>
            <span className="policy-help">{POLICY_HELP[p]}</span>
          </span>
        </label>
      ))}
    </fieldset>
  )
}

interface ChatProps {
  /** The chat's override, or undefined to follow the connector. */
  value?: ToolPolicy
  /** The connector's own policy, shown as what "follow" means. */
  connectorPolicy: ToolPolicy
  onChange: (p: ToolPolicy | undefined) => void
  disabled?: boolean
  name: string
}

/** The per-chat override of a connector's policy (the tools panel): a select with "as the connector" first. */
export function ChatPolicySelect({value, connectorPolicy, onChange, disabled, name}: ChatProps) {
  return (
    <label className="chat-policy">
      <span className="chat-policy-label">Approvals</span>
      <select
        className="chat-policy-select"
        data-testid="chat-policy"
        aria-label={`How ${name}'s tools are approved in this chat`}
        value={value ?? ''}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value ? (e.target.value as ToolPolicy) : undefined)}
      >
        <option value="">As the connector ({POLICY_LABEL[connectorPolicy]})</option>
        {POLICIES.map((p) => (
          <option key={p} value={p}>
            {POLICY_LABEL[p]} in this chat
          </option>
        ))}
      </select>
    </label>
  )
}
