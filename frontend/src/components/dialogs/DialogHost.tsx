import {useDialogs} from '../../stores/dialogs'
import {useRuns} from '../../stores/runs'
import {ApprovalDialog} from './ApprovalDialog'
import {ElicitationDialog} from './ElicitationDialog'
import {SamplingDialog} from './SamplingDialog'
import {UrlElicitationDialog} from './UrlElicitationDialog'

/**
 * Shows the oldest request waiting on the user, one at a time: tool
 * approvals first (runs), then what MCP servers ask during a tool call
 * (dialogs): elicitation (a form to fill, or consent to open a URL) and
 * sampling (a server asking to use the model).
 */
export function DialogHost() {
  const request = useRuns((s) => s.requests[0])
  const approvals = useRuns((s) => s.requests.length)
  const mcpRequest = useDialogs((s) => s.queue[0])
  const mcpCount = useDialogs((s) => s.queue.length)
  const queued = Math.max(0, approvals + mcpCount - 1)
  if (request) {
    switch (request.kind) {
      case 'approval':
        return <ApprovalDialog key={request.requestId} request={request} queued={queued} />
      default:
        return null
    }
  }
  if (!mcpRequest) return null
  switch (mcpRequest.kind) {
    case 'elicitation':
      if (mcpRequest.mode === 'url') return <UrlElicitationDialog key={mcpRequest.requestId} request={mcpRequest} />
      return <ElicitationDialog key={mcpRequest.requestId} request={mcpRequest} queued={queued} />
    case 'sampling':
      return <SamplingDialog key={mcpRequest.requestId} request={mcpRequest} queued={queued} />
    default:
      return null
  }
}
