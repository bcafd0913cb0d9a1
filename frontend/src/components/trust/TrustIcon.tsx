import {useState} from 'react'
import type {LucideIcon} from 'lucide-react'
import {pickIcon, type Icon} from '../../lib/trust'
import {useTheme} from '../../stores/theme'

interface Props {
  icons?: readonly Icon[]
  /** Drawn when there is no icon that may be shown, or it fails to load. */
  fallback: LucideIcon
  size: number
  className?: string
  testId?: string
}

/**
 * A server's or tool's own icon (SEP-973): data: and https: only (the
 * backend keeps nothing else; pickIcon checks again), drawn as an image
 * with no referrer, never sent to a model. A broken image falls back.
 */
export function TrustIcon({icons, fallback: Fallback, size, className, testId}: Props) {
  const theme = useTheme((s) => s.shown)
  const icon = pickIcon(icons, theme, size)
  const [failed, setFailed] = useState<string | null>(null)
  if (!icon || failed === icon.src) return <Fallback size={size} strokeWidth={1.75} aria-hidden="true" className={className} />
  return (
    <img
      src={icon.src}
      width={size}
      height={size}
      alt=""
      aria-hidden="true"
      className={`trust-icon${className ? ` ${className}` : ''}`}
      data-testid={testId}
      referrerPolicy="no-referrer"
      draggable={false}
      onError={() => setFailed(icon.src)}
    />
  )
}
