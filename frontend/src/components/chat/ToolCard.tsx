import {useId} from 'react'
import {Ban, Check, ChevronDown, CircleStop, Hand, LoaderCircle, Wrench, X} from 'lucide-react'
import type {LucideIcon} from 'lucide-react'
import type {Part, ToolResult} from '../../api/types'
import {formatDuration} from '../../lib/duration'
import {isEmptyJson} from '../../lib/json'
import {isToolActive, splitToolName, statusOfResult, TOOL_STATUS_LABEL, type ToolStatus} from '../../lib/toolCards'
import type {LogLine} from '../../stores/runReducer'
import {useRuns} from '../../stores/runs'
import {Elapsed, JsonBlock, ToolLogs, ToolProgress} from './ToolParts'
import {ValueView} from './ValueView'
import {ToolResultView} from './ToolResultView'
import {ToolSection} from './ToolSection'
import {ToolName} from '../tools/ToolName'
import {AnnotationBadges, JobCard} from '../trust'
import {taskOfCall, useTasks} from '../../stores/tasks'
import {ToolAppSlot} from '../../apps/ToolAppSlot'
import {useSessions} from '../../stores/sessions'
import {useKept} from '../../lib/useKept'

const STATUS_ICON: Record<ToolStatus, LucideIcon> = {
  preparing: LoaderCircle,
  pending: Hand,
  running: LoaderCircle,
  succeeded: Check,
  failed: X,
  denied: Ban,
  stopped: CircleStop,
}

interface CardView {
  callId: string
  name: string
  server?: string
  args: string
  status: ToolStatus
  progress?: {progress: number; total?: number; message?: string}
  logs: readonly LogLine[]
  result?: ToolResult
  durationMs?: number
  startedAt?: number
}

interface Props {
  callId: string
  /** The stored tool_call part, for history. */
  part?: Part
  /** The stored result of the call, for history. */
  result?: ToolResult
  /** The status of a stored call without a result (running, or never finished). */
  pendingStatus?: ToolStatus
}

/**
 * One tool call: what was called with which arguments, its status,
 * progress, logs and result. Live state (from events) wins over history.
 */
export function ToolCard({callId, part, result, pendingStatus = 'stopped'}: Props) {
  const live = useRuns((s) => s.tools[callId])
  const task = useTasks((s) => taskOfCall(s, callId))
  const view: CardView = live
    ? {...live, result: live.result ?? result, durationMs: live.durationMs ?? result?.durationMs}
    : {
        callId,
        name: part?.name ?? part?.result?.name ?? 'tool',
        server: part?.server,
        args: part?.arguments ?? '',
        status: result ? statusOfResult(result) : pendingStatus,
        logs: [],
        result,
        durationMs: result?.durationMs,
      }
  // Kept by call: the list drops rows out of view, and one drawn again is as the reader left it.
  // The MCP App: from the result, or drawn already while the call runs.
  const app = view.result?.app ?? (view.status === 'running' ? live?.app : undefined)
  const [open, setOpen] = useKept(`tool-card:${callId}`, !!live)
  const sessionId = useSessions((s) => s.activeId)
  const bodyId = useId()
  const {tool, server} = splitToolName(view.name, view.server)
  const active = isToolActive(view.status)
  const Icon = STATUS_ICON[view.status]
  const showArgs = !isEmptyJson(view.args) || view.status === 'preparing'

  return (
    <div className={`tool-card is-${view.status}`} data-testid="tool-card" data-call-id={callId} data-status={view.status}>
      <button
        type="button"
        className="tool-head"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen(!open)}
      >
        <span className="tool-icon" aria-hidden="true">
          <Wrench size={14} />
        </span>
        <span className="tool-title">
          <ToolName name={tool} className="tool-name" testId="tool-name" />
          {server && (
            <span className="tool-server" data-testid="tool-server">
              {server}
            </span>
          )}
          <AnnotationBadges hints={live?.hints} className="tool-hints" />
        </span>
        <span className={`tool-status tool-status-${view.status}`} data-testid="tool-status">
          <Icon size={12} className={active && view.status !== 'pending' ? 'spin' : undefined} aria-hidden="true" />
          {TOOL_STATUS_LABEL[view.status]}
        </span>
        <span className="tool-duration" data-testid="tool-duration">
          {view.status === 'running' && view.startedAt ? (
            <Elapsed since={view.startedAt} />
          ) : view.durationMs !== undefined && !active ? (
            formatDuration(view.durationMs)
          ) : null}
        </span>
        <ChevronDown size={14} className="tool-chevron" aria-hidden="true" />
      </button>
      {task && (
        <JobCard task={task} compact onCancel={() => useTasks.getState().cancel(task.connectorId, task.id)} />
      )}
      {view.status === 'running' && view.progress && !task && <ToolProgress {...view.progress} />}
      {view.status === 'running' && !view.progress && !task && (
        <div className="tool-progress" data-testid="tool-progress" data-determinate="false">
          <div className="progress-track is-indeterminate" role="progressbar" aria-label="Running">
            <div className="progress-fill" />
          </div>
        </div>
      )}
      {app && sessionId && <ToolAppSlot sessionId={sessionId} callId={callId} app={app} args={view.args} result={view.result} />}
      <div id={bodyId} className="tool-body" hidden={!open}>
        {showArgs && (
          <ToolSection label="Arguments" open={active} testId="tool-args-section">
            {view.status === 'preparing' ? (
              <JsonBlock text={view.args || ''} streaming testId="tool-args" />
            ) : (
              <ValueView text={view.args || '{}'} testId="tool-args" />
            )}
          </ToolSection>
        )}
        {view.logs.length > 0 && (
          <ToolSection label={`Log · ${view.logs.length}`} open={active}>
            <ToolLogs logs={view.logs} />
          </ToolSection>
        )}
        {view.result && <ToolResultView result={view.result} tool={view.name} />}
      </div>
    </div>
  )
}

