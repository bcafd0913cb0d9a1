import {useEffect} from 'react'
import {chatApi} from '../../api/client'
import {refreshContext, useContextStore} from '../../stores/context'
import {useRuns} from '../../stores/runs'
import {useSessions} from '../../stores/sessions'
import {toastError} from '../../stores/toasts'
import {ContextMeter} from './ContextMeter'

/**
 * The context meter of the open chat, wired: measured when the chat opens,
 * when its model changes and after each turn, live while a turn runs
 * (context:measured); the chat's totals from its session; Compact now and
 * its Stop through the chat's runs.
 */
export function ContextMeterFor({sessionId}: {sessionId: string}) {
  const use = useContextStore((s) => s.use[sessionId])
  const compaction = useContextStore((s) => s.compacting[sessionId])
  const session = useSessions((s) => s.sessions.find((x) => x.id === sessionId))
  const running = useRuns((s) => !!s.active[sessionId])
  const model = `${session?.provider ?? ''}/${session?.model ?? ''}`

  useEffect(() => {
    if (!running) void refreshContext(sessionId)
  }, [sessionId, model, running])

  async function compact() {
    try {
      const runId = await chatApi.compactNow(sessionId)
      if (runId) useRuns.getState().begin(sessionId, runId)
    } catch (err) {
      toastError(err, "Couldn't compact the conversation")
    }
  }

  async function stop() {
    if (!compaction) return
    useContextStore.getState().stopping(sessionId)
    try {
      await chatApi.stopRun(compaction.runId)
    } catch (err) {
      toastError(err, "Couldn't stop the compaction")
    }
  }

  return (
    <ContextMeter
      use={use}
      totals={session?.usage}
      compaction={compaction}
      onCompact={running ? undefined : () => void compact()}
      onStop={() => void stop()}
    />
  )
}
