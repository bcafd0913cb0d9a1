import {useEffect, useState} from 'react'
import {onOfferChanged, onResourceUpdated} from '../../api/compose'
import {useDraftAttachments} from './draftAttachments'
import {useSentUpdates} from './sentResources'

/**
 * A number that grows each time a connector says its prompts or resources
 * changed (prompts:changed, resources:changed), so the composer's lists
 * are read again; and, while mounted, resource:updated marks the followed
 * resource in the drafts and the sent messages that carry it.
 */
export function useComposeRevision(): number {
  const [revision, setRevision] = useState(0)
  useEffect(() => {
    const offA = onOfferChanged(() => setRevision((r) => r + 1))
    const offB = onResourceUpdated((e) => {
      useDraftAttachments.getState().markUpdated(e.connectorId, e.uri, e.sessionIds)
      useSentUpdates.getState().mark(e.connectorId, e.uri, e.sessionIds) // the sent messages' chips
    })
    return () => {
      offA()
      offB()
    }
  }, [])
  return revision
}
