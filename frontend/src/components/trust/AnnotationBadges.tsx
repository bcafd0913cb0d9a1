import {Eye, Globe, Repeat, TriangleAlert} from 'lucide-react'
import type {LucideIcon} from 'lucide-react'
import {hintBadges, type HintBadge, type ToolHints} from '../../lib/trust'

const ICON: Record<HintBadge['key'], LucideIcon> = {
  'read-only': Eye,
  destructive: TriangleAlert,
  idempotent: Repeat,
  'open-world': Globe,
}

interface Props {
  hints?: ToolHints
  /** Show "May destroy" for a tool the server does not mark read-only or harmless (the approval dialog). */
  presumeDestructive?: boolean
  className?: string
}

/**
 * A tool's annotations as badges (readOnlyHint, destructiveHint,
 * idempotentHint, openWorldHint). Each says, on hover, that it is the
 * server's claim: Maestro shows annotations and grants nothing on them
 * (docs/SECURITY.md) unless the connector's policy says so.
 */
export function AnnotationBadges({hints, presumeDestructive, className}: Props) {
  const badges = hintBadges(hints, {presumeDestructive})
  if (badges.length === 0) return null
  return (
    <span className={`hint-badges${className ? ` ${className}` : ''}`} data-testid="hint-badges">
      {badges.map((b) => {
        const Icon = ICON[b.key]
        return (
          <span key={b.key} className={`hint-badge is-${b.key}`} title={b.title} data-testid={`hint-${b.key}`}>
            <Icon size={11} aria-hidden="true" />
            {b.label}
          </span>
        )
      })}
    </span>
  )
}
