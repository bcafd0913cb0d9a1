import {useCallback, useEffect, useRef, useState} from 'react'
import {Check, ChevronDown, KeyRound, RotateCw} from 'lucide-react'
import {chatApi} from '../../api/client'
import type {ModelInfo, ProviderModels} from '../../api/types'
import {relativeTime} from '../../lib/time'
import {modelName, useModels} from '../../stores/models'
import {toastError} from '../../stores/toasts'
import {useUI} from '../../stores/ui'
import {useClickAway} from '../../lib/useClickAway'

interface Props {
  sessionId: string
  provider: string
  model: string
}

/** "200K", "1M", "1.05M": a context window in tokens, for a compact label. */
export function tokensLabel(n?: number): string {
  if (!n || n <= 0) return ''
  if (n >= 1_000_000) return `${Number((n / 1_000_000).toFixed(2))}M`
  if (n >= 1_000) return `${Math.round(n / 1_000)}K`
  return String(n)
}

/** Where a provider's list came from, in a few words. */
function sourceLine(p: ProviderModels): string {
  if (!p.available) return ''
  if (p.source === 'service') {
    const when = relativeTime(p.fetchedAt ?? 0)
    return `Your account's models${when ? ` · updated ${when === 'now' ? 'just now' : `${when} ago`}` : ''}`
  }
  return p.error ? "Couldn't load your account's models; showing Maestro's list" : "Loading your account's models…"
}

function Option({p, m, selected, onPick}: {p: ProviderModels; m: ModelInfo; selected: boolean; onPick: (model: string) => void}) {
  const refused = !!m.unavailable
  const disabled = !p.available || refused
  const title = !p.available
    ? `Sign in to ${p.displayName} in Accounts to use this model`
    : refused
      ? m.unavailable
      : [m.id, m.contextWindow ? `${tokensLabel(m.contextWindow)} tokens of context` : ''].filter(Boolean).join(' · ')
  return (
    <button
      type="button"
      role="option"
      className={`picker-option${refused ? ' is-refused' : ''}`}
      aria-selected={selected}
      aria-disabled={disabled}
      disabled={disabled}
      title={title}
      data-testid={`model-option-${p.provider}-${m.id}`}
      onClick={() => onPick(m.id)}
    >
      <span className="picker-option-name">{m.name || m.id}</span>
      {refused ? (
        <span className="picker-option-note" data-testid={`model-refused-${p.provider}-${m.id}`}>
          Unavailable
        </span>
      ) : (
        <>
          {m.preview && <span className="picker-option-tag">Preview</span>}
          {m.contextWindow ? <span className="picker-option-meta">{tokensLabel(m.contextWindow)}</span> : null}
        </>
      )}
      {selected && <Check size={14} className="picker-check" aria-hidden="true" />}
    </button>
  )
}

function Group({p, current, onPick}: {p: ProviderModels; current: string; onPick: (model: string) => void}) {
  const setView = useUI((s) => s.setView)
  const [refreshing, setRefreshing] = useState(false)
  const [curProvider, curModel] = [current.slice(0, current.indexOf('/')), current.slice(current.indexOf('/') + 1)]
  // The chat's model when the provider no longer lists it: shown, so the
  // picker says why the chat's model cannot be used.
  const orphan: ModelInfo | undefined =
    curProvider === p.provider && curModel && !p.models.some((m) => m.id === curModel)
      ? {id: curModel, name: curModel, unavailable: `${p.displayName} does not list this model for your account.`}
      : undefined
  const source = sourceLine(p)

  async function refresh() {
    setRefreshing(true)
    try {
      await chatApi.refreshModels(p.provider)
    } catch (err) {
      toastError(err, "Couldn't refresh the model list")
    } finally {
      setRefreshing(false)
    }
  }

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
        {p.available && (
          <button
            type="button"
            className="picker-refresh"
            aria-label={`Refresh ${p.displayName} models`}
            title={`Ask ${p.displayName} for the models your account can use`}
            data-testid={`models-refresh-${p.provider}`}
            disabled={refreshing}
            onClick={() => void refresh()}
          >
            <RotateCw size={12} aria-hidden="true" className={refreshing ? 'spin' : undefined} />
          </button>
        )}
      </div>
      {source && (
        <p className="picker-source" data-testid={`models-source-${p.provider}`} title={p.error || undefined}>
          {source}
        </p>
      )}
      {[...p.models, ...(orphan ? [orphan] : [])].map((m) => (
        <Option key={m.id} p={p} m={m} selected={current === `${p.provider}/${m.id}`} onPick={onPick} />
      ))}
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
  const pickerRequest = useUI((s) => s.pickerRequest)

  // An error card asked for another model.
  useEffect(() => {
    if (pickerRequest > 0) setOpen(true)
  }, [pickerRequest])

  useEffect(() => {
    if (!open) return
    void load()
    menuRef.current?.querySelector<HTMLElement>('[aria-selected="true"], .picker-option:not(:disabled)')?.focus()
  }, [open, load])
  const close = useCallback(() => setOpen(false), [])
  useClickAway(rootRef, open, close)

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
