import {useState} from 'react'
import {Ban, Check, CircleHelp, Hourglass, LoaderCircle, Unplug, X} from 'lucide-react'
import type {LucideIcon} from 'lucide-react'
import {formatDuration} from '../../lib/duration'
import {TASK_STATUS_LABEL, taskEnded, taskFraction, type TaskView} from '../../lib/trust'
import {ToolProgress} from '../chat/ToolParts'
import {ToolName} from '../tools/ToolName'

const STATUS_ICON: Record<string, LucideIcon> = {
  working: LoaderCircle,
  input_required: CircleHelp,
  completed: Check,
  failed: X,
  cancelled: Ban,
  lost: Unplug,
}

interface Props {
  task: TaskView
  /** The call's latest progress notification, when the server sends them besides the task status. */
  progress?: {progress: number; total?: number; message?: string}
  /** Asks the server to cancel the task (tasks/cancel); absent when the task cannot be cancelled from here. */
  onCancel?: () => Promise<void> | void
  /** Draws the card without the tool name (inside a list already grouped by tool). */
  compact?: boolean
}

function elapsed(task: TaskView): number | undefined {
  const a = Date.parse(task.createdAt)
  const b = Date.parse(task.updatedAt)
  return Number.isFinite(a) && Number.isFinite(b) && b >= a ? b - a : undefined
}

/**
 * A tool call running as an MCP task: its status, progress and the
 * server's status message, Cancel while it runs; once over, how it ended.
 * A lost task (the server no longer knows it, after a restart of either
 * side) says so: it is never dropped silently.
 */
export function JobCard({task, progress, onCancel, compact}: Props) {
  const [cancelling, setCancelling] = useState(false)
  const ended = taskEnded(task.status)
  const Icon = STATUS_ICON[task.status] ?? Hourglass
  const fraction = taskFraction(task.message)
  const bar = progress ?? (fraction !== undefined ? {progress: fraction * 100, total: 100, message: task.message} : undefined)
  const took = ended ? elapsed(task) : undefined

  async function cancel() {
    if (!onCancel) return
    setCancelling(true)
    try {
      await onCancel()
    } finally {
      setCancelling(false)
    }
  }

  return (
    <div
      className={`job-card is-${task.status}${compact ? ' is-compact' : ''}`}
      data-testid="job-card"
      data-task-id={task.id}
      data-status={task.status}
      role="group"
      aria-label={`Task ${task.tool}: ${TASK_STATUS_LABEL[task.status] ?? task.status}`}
    >
      <div className="job-head">
        {!compact && (
          <span className="job-title">
            <span className="job-kind">Task</span>
            <ToolName name={task.tool} className="job-tool" />
          </span>
        )}
        <span className={`job-status is-${task.status}`} data-testid="job-status">
          <Icon size={12} aria-hidden="true" className={task.status === 'working' ? 'spin' : undefined} />
          {TASK_STATUS_LABEL[task.status] ?? task.status}
        </span>
        {took !== undefined && <span className="job-duration">{formatDuration(took)}</span>}
        {!ended && onCancel && (
          <button
            type="button"
            className="btn btn-secondary btn-sm job-cancel"
            data-testid="job-cancel"
            disabled={cancelling}
            onClick={() => void cancel()}
          >
            {cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
        )}
      </div>
      {!ended &&
        (bar ? (
          <ToolProgress {...bar} />
        ) : (
          <div className="tool-progress" data-testid="job-progress" data-determinate="false">
            <div className="progress-track is-indeterminate" role="progressbar" aria-label={task.message || 'Working'}>
              <div className="progress-fill" />
            </div>
          </div>
        ))}
      {task.message && (ended || !bar?.message) && (
        <p className="job-message selectable" data-testid="job-message">
          {task.message}
        </p>
      )}
      {task.status === 'lost' && (
        <p className="job-lost" role="note" data-testid="job-lost">
          The server no longer knows this task (it or Maestro restarted, or the task expired). Its result cannot be
          fetched; run the tool again if you still need it.
        </p>
      )}
      {task.status === 'input_required' && (
        <p className="job-note" role="note">
          The server asks you something: answer it in the dialog.
        </p>
      )}
    </div>
  )
}
