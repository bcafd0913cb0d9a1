import {type ElicitationRequest, useDialogs} from '../../stores/dialogs'
import {UrlConsentDialog} from '../trust'

/**
 * A URL elicitation from the dialogs queue, as the consent dialog: Open
 * accepts (the backend then opens the page in the system browser), Decline
 * declines; once the page is open and the server learns of completion by a
 * retry (2026-07-28), the backend asks again in the waiting phase, where
 * Continue accepts and Cancel cancels.
 */
export function UrlElicitationDialog({request}: {request: ElicitationRequest}) {
  const answer = useDialogs((s) => s.answerElicitation)
  const send = (action: 'accept' | 'decline' | 'cancel') => void answer(request.requestId, action, null)
  return (
    <UrlConsentDialog
      request={{...request, url: request.url ?? ''}}
      phase={request.phase === 'waiting' ? 'waiting' : 'consent'}
      onOpen={() => send('accept')}
      onDecline={() => send('decline')}
      onContinue={() => send('accept')}
      onCancel={() => send('cancel')}
    />
  )
}
