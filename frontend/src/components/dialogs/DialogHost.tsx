import {useRuns} from '../../stores/runs'
import {ApprovalDialog} from './ApprovalDialog'

/**
 * Shows the oldest request a run is waiting on, one at a time. Each kind
 * of request has its dialog: approvals now; elicitation (a form the MCP
 * server asks the user to fill) and sampling (a server asking to use the
 * model) get theirs here when the backend sends them.
 */
export function DialogHost() {
  const request = useRuns((s) => s.requests[0])
  const queued = useRuns((s) => Math.max(0, s.requests.length - 1))
  if (!request) return null
  switch (request.kind) {
    case 'approval':
      return <ApprovalDialog key={request.requestId} request={request} queued={queued} />
    default:
      return null
  }
}
