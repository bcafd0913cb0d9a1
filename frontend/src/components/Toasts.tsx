import {useEffect, useState} from 'react'
import {CircleAlert, CircleCheck, Info, X} from 'lucide-react'
import {type Toast, useToasts} from '../stores/toasts'

/** How long a toast stays up unless the pointer rests on it. */
export const TOAST_MS = 6000

const ICONS = {error: CircleAlert, info: Info, success: CircleCheck}

function ToastItem({toast}: {toast: Toast}) {
  const dismiss = useToasts((s) => s.dismiss)
  const [paused, setPaused] = useState(false)

  useEffect(() => {
    if (paused) return
    const t = setTimeout(() => dismiss(toast.id), TOAST_MS)
    return () => clearTimeout(t)
  }, [paused, toast.id, dismiss])

  const Icon = ICONS[toast.tone]
  return (
    <div
      className={`toast toast-${toast.tone}`}
      data-testid="toast"
      role={toast.tone === 'error' ? 'alert' : 'status'}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <Icon className="toast-icon" size={18} aria-hidden="true" />
      <div className="toast-body">
        {toast.title && <div className="toast-title">{toast.title}</div>}
        <div className="toast-message">{toast.message}</div>
      </div>
      <button type="button" className="icon-btn icon-btn-sm toast-close" aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
        <X size={14} aria-hidden="true" />
      </button>
    </div>
  )
}

export function Toasts() {
  const toasts = useToasts((s) => s.toasts)
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </div>
  )
}
