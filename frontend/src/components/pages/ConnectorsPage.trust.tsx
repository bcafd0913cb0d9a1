import {useCallback, useEffect, useMemo, useState} from 'react'
import {create} from 'zustand'
import {settingsApi} from '../../api/client'
import {type AuditRecord, type Grant, trustApi} from '../../api/trust'
import {POLICIES, type ToolPolicy} from '../../lib/trust'
import {useConnectors} from '../../stores/connectors'
import {tasksOf, useTasks} from '../../stores/tasks'
import {toastError} from '../../stores/toasts'
import {ConnectorTrustDrawer, type TrustTab} from '../trust'

/** Which connector's Trust drawer is open. */
export const useTrustDrawer = create<{id: string | null; tab: TrustTab; open: (id: string, tab?: TrustTab) => void; close: () => void}>()(
  (set) => ({
    id: null,
    tab: 'approvals',
    open: (id, tab = 'approvals') => set({id, tab}),
    close: () => set({id: null}),
  }),
)

/**
 * The connector's policy as the agent applies it (agent.ConnectorPolicy):
 * its own, else read-only trust set before policies, else Settings' default.
 */
function policyOf(c: {approval?: string; trustReadOnlyHints?: boolean}, fallback: ToolPolicy): ToolPolicy {
  if (POLICIES.includes(c.approval as ToolPolicy)) return c.approval as ToolPolicy
  return c.trustReadOnlyHints ? 'read_only' : fallback
}

/** The open connector's Trust drawer, with its data loaded from Go. */
export function TrustDrawerHost() {
  const {id, tab, open, close} = useTrustDrawer()
  const connector = useConnectors((s) => s.connectors.find((c) => c.id === id))
  const byId = useTasks((s) => s.byId)
  const tasks = useMemo(() => (id ? tasksOf({byId}, id) : []), [byId, id])
  const [grants, setGrants] = useState<Grant[]>([])
  const [audit, setAudit] = useState<AuditRecord[]>([])
  const [fallback, setFallback] = useState<ToolPolicy>('ask')

  const reload = useCallback(async (cid: string) => {
    try {
      const [g, a, , prefs] = await Promise.all([trustApi.grants(cid), trustApi.audit(cid), useTasks.getState().load(cid), settingsApi.prefs()])
      setGrants(g)
      setAudit(a)
      if (POLICIES.includes(prefs.approval)) setFallback(prefs.approval)
    } catch (err) {
      toastError(err, "Couldn't load the connector's trust")
    }
  }, [])

  useEffect(() => {
    if (id) void reload(id)
  }, [id, tab, reload])
  useEffect(() => () => useTrustDrawer.getState().close(), [])

  if (!id || !connector) return null
  return (
    <ConnectorTrustDrawer
      connector={connector}
      tab={tab}
      onTab={(t) => open(id, t)}
      policy={policyOf(connector, fallback)}
      onPolicy={(p) => {
        // The server keeps running (the policy is Maestro's): no
        // connector:state follows, so the answer updates the card.
        trustApi.setApproval(id, p).then(useConnectors.getState().put, (err) => toastError(err, "Couldn't set the approval policy"))
      }}
      grants={grants}
      onRevoke={(tool) => {
        trustApi.revokeGrant(id, tool).then(() => reload(id), (err) => toastError(err, "Couldn't revoke the grant"))
      }}
      tasks={tasks}
      onCancelTask={(taskId) => useTasks.getState().cancel(id, taskId)}
      audit={audit}
      onExportAudit={() => {
        trustApi.exportAudit(id).catch((err) => toastError(err, "Couldn't export the audit log"))
      }}
      onClose={close}
    />
  )
}
