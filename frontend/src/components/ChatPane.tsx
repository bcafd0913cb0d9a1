import {useEffect, useMemo} from 'react'
import {ExportMenu} from './ExportMenu'
import {InstructionsButton} from './InstructionsButton'
import {KeyRound, MessageSquareText, Sparkles} from 'lucide-react'
import type {AppError} from '../api/errors'
import {awaitsProvider, visibleMessages} from '../lib/messages'
import {shortcutLabel} from '../lib/platform'
import {useChat} from '../stores/chat'
import {useRuns} from '../stores/runs'
import {useSessions} from '../stores/sessions'
import {useUI} from '../stores/ui'
import {ModelPicker} from './chat/ModelPicker'
import {ContextMeterFor} from './context/ContextMeterFor'
import {regenerate} from '../stores/regenerate'
import {Composer} from './Composer'
import {EmptyState} from './EmptyState'
import {FirstRun, useFirstRunSteps} from './FirstRun'
import {LogoMark} from './LogoMark'
import {MessageList} from './MessageList'
import {ToolsButton} from './tools/ToolsButton'
import {composeApi, readToolResource} from '../api/compose'
import {ToolResourceContext} from './compose/toolResources'
import {SentResourceContext, sentResourceApi} from './compose/sentResources'

function AccountsLink() {
  const setView = useUI((s) => s.setView)
  return (
    <button type="button" className="link-btn" onClick={() => setView('accounts')}>
      Accounts
    </button>
  )
}

/** No model chosen for this chat and nothing answered the last message. */
function ProviderNotice() {
  return (
    <div className="provider-notice" data-testid="provider-notice" role="note">
      <Sparkles size={14} aria-hidden="true" />
      <span>
        No model is chosen for this chat yet. Pick one above, or sign in to a provider in <AccountsLink /> to get
        replies.
      </span>
    </div>
  )
}

/** SendMessage refused because the provider has no credentials. */
function AuthNotice({error}: {error: AppError}) {
  return (
    <div className="provider-notice is-auth" data-testid="auth-notice" role="alert">
      <KeyRound size={14} aria-hidden="true" />
      <span>
        {error.message.replace(/\.?$/, '.')} Open <AccountsLink /> to sign in, then send again.
      </span>
    </div>
  )
}

function Welcome() {
  const create = useSessions((s) => s.create)
  const steps = useFirstRunSteps()
  const firstRun = steps?.some((s) => !s.done)
  return (
    <div className="welcome" data-testid="welcome">
      <LogoMark size={48} />
      <h1 className="welcome-title">Welcome to Maestro</h1>
      <p className="welcome-text">Chat with Gemini, Claude and ChatGPT, with tools from your MCP connectors.</p>
      {firstRun ? (
        <FirstRun steps={steps!} />
      ) : (
        <button type="button" className="btn btn-primary btn-lg" data-testid="start-chat" onClick={() => void create()}>
          Start a new chat
        </button>
      )}
      <p className="welcome-hint">
        or press <kbd className="kbd">{shortcutLabel('n')}</kbd>
      </p>
    </div>
  )
}

/** Esc anywhere in the chat (outside other fields and dialogs) stops the running reply. */
function useEscapeStops(sessionId: string | null) {
  useEffect(() => {
    if (!sessionId) return
    function onKeyDown(e: KeyboardEvent) {
      if (e.key !== 'Escape' || e.defaultPrevented || document.querySelector('[aria-modal="true"]')) return
      const t = e.target as HTMLElement | null
      if (t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))) return
      const runs = useRuns.getState()
      if (runs.active[sessionId!]) void runs.stop(sessionId!)
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [sessionId])
}

export function ChatPane() {
  const activeId = useSessions((s) => s.activeId)
  const session = useSessions((s) => s.sessions.find((x) => x.id === s.activeId))
  const loadedId = useChat((s) => s.sessionId)
  const messages = useChat((s) => s.messages)
  const load = useChat((s) => s.load)
  const earlierBefore = useChat((s) => s.earlierBefore)
  const loadingEarlier = useChat((s) => s.loadingEarlier)
  const loadEarlier = useChat((s) => s.loadEarlier)
  const running = useRuns((s) => !!activeId && !!s.active[activeId])
  const failed = useRuns((s) => !!activeId && !!s.failures[activeId])
  const notice = useRuns((s) => (activeId ? s.notices[activeId] : undefined))
  useEscapeStops(activeId)
  const sentApi = useMemo(() => (activeId ? sentResourceApi(activeId, composeApi) : null), [activeId])

  if (!activeId) return <Welcome />

  const ready = loadedId === activeId && load === 'ready'
  const shown = ready ? visibleMessages(messages) : []
  let footer = null
  if (notice) footer = <AuthNotice error={notice} />
  else if (ready && !running && !failed && !session?.model && awaitsProvider(shown)) footer = <ProviderNotice />

  return (
    <section className="chat" aria-label="Chat">
      <header className="pane-header">
        <h1 className="pane-title" data-testid="chat-title" title={session?.title}>
          {session?.title || 'New chat'}
        </h1>
        <ContextMeterFor sessionId={activeId} />
        <ToolsButton sessionId={activeId} />
        <InstructionsButton sessionId={activeId} />
        <ExportMenu sessionId={activeId} />
        <ModelPicker sessionId={activeId} provider={session?.provider ?? ''} model={session?.model ?? ''} />
      </header>
      {ready && shown.length === 0 && !earlierBefore && !running && !notice ? (
        <div className="chat-empty">
          <EmptyState icon={MessageSquareText} title="Start the conversation" testId="chat-empty">
            Ask anything. Tools from your connectors will appear here.
          </EmptyState>
        </div>
      ) : (
        <ToolResourceContext.Provider value={(tool, uri) => readToolResource(activeId, tool, uri).then((ps) => ps.map((p) => ({...p, uri: p.uri || uri})))}>
          <SentResourceContext.Provider value={sentApi}>
            <MessageList
              sessionId={activeId}
              messages={ready ? messages : []}
              footer={footer}
              hasEarlier={ready && earlierBefore > 0}
              loadingEarlier={loadingEarlier}
              onLoadEarlier={loadEarlier}
              onRegenerate={(seq) => void regenerate(activeId, seq)}
            />
          </SentResourceContext.Provider>
        </ToolResourceContext.Provider>
      )}
      <Composer key={activeId} sessionId={activeId} />
    </section>
  )
}
