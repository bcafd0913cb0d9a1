import {ListChecks} from 'lucide-react'
import {taskEnded, type TaskView} from '../../lib/trust'
import {JobCard} from './JobCard'

interface Props {
  tasks: readonly TaskView[]
  onCancel: (taskId: string) => Promise<void> | void
}

/**
 * A connector's tasks (Supervisor.Tasks): the running ones first, then the
 * latest ended ones, each as a job card; a task lost across a restart is
 * listed as lost.
 */
export function TaskList({tasks, onCancel}: Props) {
  const running = tasks.filter((t) => !taskEnded(t.status))
  const ended = tasks.filter((t) => taskEnded(t.status))
  if (tasks.length === 0)
    return (
      <div className="logs-empty" data-testid="task-list-empty">
        <ListChecks size={18} aria-hidden="true" />
        <p>No tasks. Long tools that the server runs as tasks show here while they run and after they end.</p>
      </div>
    )
  return (
    <div className="task-list" data-testid="task-list">
      {running.length > 0 && <h3 className="tp-section-title task-list-head">Running · {running.length}</h3>}
      {running.map((t) => (
        <JobCard key={t.id} task={t} onCancel={() => onCancel(t.id)} />
      ))}
      {ended.length > 0 && <h3 className="tp-section-title task-list-head">Ended · {ended.length}</h3>}
      {ended.map((t) => (
        <JobCard key={t.id} task={t} />
      ))}
    </div>
  )
}
