import type {ReactNode} from 'react'
import type {LucideIcon} from 'lucide-react'

interface Props {
  icon: LucideIcon
  title: string
  children?: ReactNode
  action?: ReactNode
  testId?: string
}

/** A centred icon, a title, one line of guidance and an optional action. */
export function EmptyState({icon: Icon, title, children, action, testId}: Props) {
  return (
    <div className="empty-state" data-testid={testId}>
      <div className="empty-state-icon">
        <Icon size={22} strokeWidth={1.75} aria-hidden="true" />
      </div>
      <h2 className="empty-state-title">{title}</h2>
      {children && <p className="empty-state-text">{children}</p>}
      {action && <div className="empty-state-action">{action}</div>}
    </div>
  )
}
