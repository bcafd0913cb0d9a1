// Trust you can see (issue 16): a connector's approval policy, its grants
// for every chat, its audit log and its MCP tasks (app/trust.go), typed by
// the generated contract. Every call rejects with an AppError.

import {call, go} from './client'
import type * as C from './contract.gen'
import {EventTaskChanged} from './contract.gen'
import {on} from './events'

export type Task = C.Task
export type Grant = C.Grant
export type AuditRecord = C.AuditRecord

export const trustApi = {
  tasks: (connectorId: string) => call(() => go().Connectors.Tasks(connectorId)),
  cancelTask: (connectorId: string, taskId: string) => call(() => go().Connectors.CancelTask(connectorId, taskId)),
  setApproval: (connectorId: string, policy: string) => call(() => go().Connectors.SetApproval(connectorId, policy)),
  setSessionApproval: (sessionId: string, connectorId: string, policy: string) =>
    call(() => go().Connectors.SetSessionApproval(sessionId, connectorId, policy)),
  grants: (connectorId: string) => call(() => go().Connectors.Grants(connectorId)),
  revokeGrant: (connectorId: string, tool: string) => call(() => go().Connectors.RevokeGrant(connectorId, tool)),
  audit: (connectorId: string) => call(() => go().Connectors.Audit(connectorId)),
  /** Asks where to save the log as JSON Lines; resolves to the path, or '' when cancelled. */
  exportAudit: (connectorId: string) => call(() => go().Connectors.ExportAudit(connectorId)),
}

/** task:changed: one of a connector's tasks changed. */
export const onTaskChanged = (cb: (t: Task) => void) => on(EventTaskChanged, cb)
