import {useEffect, useRef, useState} from 'react'
import {Check, ChevronDown, KeyRound} from 'lucide-react'
import type {ProviderModels} from '../../api/types'
import {modelName, useModels} from '../../stores/models'
import {useUI} from '../../stores/ui'

interface Props {
  sessionId: string
  provider: string
  model: string
}

function Group({p, current, onPick}: {p: ProviderModels; current: string; onPick: (model: string) => void}) {
  const setView = useUI((s) => s.setView)
  return (
    <div className={`picker-group${p.available ? '' : ' is-unavailable'}`} role="group" aria-label={p.displayName}>
      <div className="picker-group-head">
        <span className={`provider-dot provider-${p.provider}`} aria-hidden="true" />
        <span className="picker-group-name">{p.displayName}</span>
        {!p.available && (
          <button type="button" className="picker-signin" onClick={() => setView('accounts')}>
            <KeyRound size={12} aria-hidden="true" />
            Sign in in Accounts
          </button>
        )}
      </div>
      {p.models.map((m) => {
        const selected = current === `${p.provider}/${m.id}`
        return (
          <button
            key={m.id}
            type="button"
            role="option"
            className="picker-option"
            aria-selected={selected}
            aria-disabled={!p.available}
            disabled={!p.available}
            title={p.available ? m.id : `Sign in to ${p.displayName} in Accounts to use this model`}
            data-testid={`model-option-${p.provider}-${m.id}`}
            onClick={() => onPick(m.id)}
          >
            <span className="picker-option-name">{m.name || m.id}</span>
            {selected && <Check size={14} className="picker-check" aria-hidden="true" />}
          </button>
        )
      })}
    </div>
  )
}

/** The session's provider and model; switchable at any time, even mid-reply. */
export function ModelPicker({sessionId, provider, model}: Props) {
  const providers = useModels((s) => s.providers)
  const {load, choose} = useModels.getState()
  const [open, setOpen] = useState(false)
  const rootRef = useRef<HTMLDivElement>(null)
  const menuRef = useRef<HTMLDivElement>(null)
  const label = modelName(providers, provider, model) || 'Choose a model'
  const display = providers.find((p) => p.provider === provider)?.displayName

  useEffect(() => {
    if (!open) return
    void load()
    menuRef.current?.querySelector<HTMLElement>('[aria-selected="true"], .picker-option:not(:disabled)')?.focus()
    function onDown(e: MouseEvent) {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false)
    }
    document.addEventListener('mousedown', onDown)
    return () => document.removeEventListener('mousedown', onDown)
  }, [open, load])

  function onKeyDown(e: React.KeyboardEvent) {
    if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      setOpen(false)
      rootRef.current?.querySelector<HTMLElement>('.model-trigger')?.focus()
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      const items = [...(menuRef.current?.querySelectorAll<HTMLElement>('.picker-option:not(:disabled)') ?? [])]
      const i = items.indexOf(document.activeElement as HTMLElement)
      const next = e.key === 'ArrowDown' ? (i + 1) % items.length : (i - 1 + items.length) % items.length
      items[next]?.focus()
    }
  }

  async function pick(providerId: string, modelId: string) {
    setOpen(false)
    if (providerId !== provider || modelId !== model) await choose(sessionId, providerId, modelId)
  }

  return (
    <div className="model-picker" ref={rootRef} onKeyDown={onKeyDown}>
      <button
        type="button"
        className={`pill model-trigger${model ? '' : ' is-unset'}`}
        data-testid="model-picker"
        aria-haspopup="listbox"
        aria-expanded={open}
        title={display ? `${display} · ${model}` : 'Choose the model for this chat'}
        onClick={() => setOpen(!open)}
      >
        <span className={`provider-dot provider-${provider || 'none'}`} aria-hidden="true" />
        <span className="model-trigger-label">{label}</span>
        <ChevronDown size={14} aria-hidden="true" />
      </button>
      {open && (
        <div className="picker-menu" ref={menuRef} role="listbox" aria-label="Models" data-testid="model-menu">
          {providers.length === 0 && <p className="picker-empty">No models are available.</p>}
          {providers.map((p) => (
            <Group key={p.provider} p={p} current={`${provider}/${model}`} onPick={(m) => void pick(p.provider, m)} />
          ))}
        </div>
      )}
    </div>
  )
}
