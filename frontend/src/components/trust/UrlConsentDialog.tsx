import {useRef} from 'react'
import {ExternalLink, Globe, TriangleAlert} from 'lucide-react'
import {isPunycode, urlDomain, type UrlConsentRequest} from '../../lib/trust'
import {Modal} from '../dialogs/Modal'

interface Props {
  request: UrlConsentRequest
  /**
   * consent: asks whether to open the page. waiting: the page was opened in
   * the browser (2026-07-28 servers learn it is done when the request is
   * made again), so Maestro waits for the user's Continue.
   */
  phase: 'consent' | 'waiting'
  /** Open: the backend opens the page in the system browser; nothing opens before. */
  onOpen: () => void
  onDecline: () => void
  /** waiting: the user finished on the page. */
  onContinue: () => void
  /** waiting: the user gave up; the server is told so. */
  onCancel: () => void
}

/**
 * Consent to open a page a server asks for (URL-mode elicitation,
 * docs/SECURITY.md): the connector and the server's own name, the target
 * domain first and large (a Punycode label flagged, as a look-alike can
 * hide there), then the full URL. Nothing is fetched or opened until Open;
 * Enter does not open (only a click does), Esc declines.
 */
export function UrlConsentDialog({request, phase, onOpen, onDecline, onContinue, onCancel}: Props) {
  const declineRef = useRef<HTMLButtonElement>(null)
  const continueRef = useRef<HTMLButtonElement>(null)
  const domain = request.domain || urlDomain(request.url)
  const puny = request.punycode ?? isPunycode(domain)
  const waiting = phase === 'waiting'
  return (
    <Modal
      className="url-consent-dialog"
      testId="url-consent-dialog"
      initialFocus={waiting ? continueRef : declineRef}
      onEscape={waiting ? onCancel : onDecline}
      title={
        <span className="approval-title">
          <span className="approval-icon" aria-hidden="true">
            <ExternalLink size={18} />
          </span>
          <span>{waiting ? 'Finish in your browser' : 'Open a page in your browser?'}</span>
        </span>
      }
    >
      <div className="dialog-body url-consent-body">
        <p>
          <strong data-testid="url-consent-connector">{request.connector}</strong>
          {request.server && request.server !== request.connector && (
            <span className="url-consent-server" data-testid="url-consent-server">
              {' '}
              (the server calls itself <strong>{request.server}</strong>)
            </span>
          )}{' '}
          {waiting ? 'sent you to:' : 'wants to send you to:'}
        </p>
        <div className={`url-consent-domain${puny ? ' is-punycode' : ''}`} data-testid="url-consent-domain">
          <Globe size={18} aria-hidden="true" />
          <span>{domain || 'an address that is not a valid URL'}</span>
        </div>
        {puny && (
          <p className="url-consent-warning" role="alert" data-testid="url-consent-punycode">
            <TriangleAlert size={14} aria-hidden="true" />
            <span>
              This domain is written in Punycode (<code>xn--</code>): it may show letters that look like others and
              imitate a site you know. Open it only if you expected this exact address.
            </span>
          </p>
        )}
        <p className="url-consent-url">
          <span className="tool-section-label">Full address</span>
          <code className="selectable" data-testid="url-consent-url">
            {request.url}
          </code>
        </p>
        {request.message && (
          <p className="url-consent-message" data-testid="url-consent-message">
            <span className="tool-section-label">The server says</span>
            {request.message}
          </p>
        )}
        <p className="url-consent-note">
          {waiting
            ? 'When you are done on that page, choose Continue and the server carries on.'
            : 'The page opens in your system browser. Maestro and the model never see it. This is the server’s request, not a sign-in of Maestro’s.'}
        </p>
      </div>
      <div className="dialog-actions">
        {waiting ? (
          <>
            <button type="button" className="btn btn-secondary" data-testid="url-consent-cancel" onClick={onCancel}>
              Cancel
            </button>
            <button ref={continueRef} type="button" className="btn btn-primary" data-testid="url-consent-continue" onClick={onContinue}>
              Continue
            </button>
          </>
        ) : (
          <>
            <button ref={declineRef} type="button" className="btn btn-secondary" data-testid="url-consent-decline" onClick={onDecline}>
              Decline
              <kbd className="btn-kbd" aria-hidden="true">Esc</kbd>
            </button>
            <button type="button" className="btn btn-primary" data-testid="url-consent-open" onClick={onOpen}>
              <ExternalLink size={14} aria-hidden="true" />
              Open {domain || 'the page'}
            </button>
          </>
        )}
      </div>
    </Modal>
  )
}
