import {chatApi} from '../api/client'
import {toAppError} from '../api/errors'
import {answerSpan} from '../lib/turns'
import {useChat} from './chat'
import {useRuns} from './runs'
import {toastError} from './toasts'

/**
 * Regenerates the answer whose reply is seq as a new branch (issue 18): Go
 * stores the new answer next to the old one. Once the run starts, the old
 * answer and what followed it leave the view (they stay stored, on their
 * branch, behind the versions switcher the new answer shows).
 */
export async function regenerate(sessionId: string, seq: number): Promise<boolean> {
  const chat = useChat.getState()
  const runs = useRuns.getState()
  if (chat.sending[sessionId] || chat.switching[sessionId] || runs.active[sessionId]) return false
  runs.setNotice(sessionId, null)
  const span = chat.sessionId === sessionId ? answerSpan(chat.messages, seq) : undefined
  try {
    const runId = await chatApi.regenerate(sessionId, seq)
    if (span && useChat.getState().sessionId === sessionId) {
      useChat.setState((s) => ({messages: s.messages.filter((m) => m.seq < span.from || m.seq > span.to)}))
    }
    if (runId) useRuns.getState().begin(sessionId, runId)
    return true
  } catch (err) {
    const e = toAppError(err)
    if (e.kind === 'auth_required') useRuns.getState().setNotice(sessionId, e)
    else toastError(e, "Couldn't regenerate the answer")
    return false
  }
}
