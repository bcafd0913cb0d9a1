// The Go side's chat events, routed to the stores: every run event to runs,
// a saved message to the chat that shows it as well, models:changed to the
// model list. It sits above those stores so none of them imports another
// to pass an event on (see bus.ts for the layers).

import {onChatEvents} from '../api/client'
import {useChat} from './chat'
import {useModels} from './models'
import {useRuns} from './runs'

/** Feeds every chat event to the stores; returns the unsubscribe. */
export function syncRuns(): () => void {
  return onChatEvents((e) => {
    if (e.name === 'models:changed') {
      void useModels.getState().load()
      return
    }
    useRuns.getState().handle(e)
    if (e.name === 'message:saved' && e.payload?.message) useChat.getState().receive(e.payload.sessionId, e.payload.message)
  })
}
