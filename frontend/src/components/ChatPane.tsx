import {ChevronDown, MessageSquareText, Sparkles} from 'lucide-react'
import {awaitsProvider} from '../lib/messages'
import {shortcutLabel} from '../lib/platform'
import {useChat} from '../stores/chat'
import {useSessions} from '../stores/sessions'
import {useUI} from '../stores/ui'
import {Composer} from './Composer'
import {EmptyState} from './EmptyState'
import {LogoMark} from './LogoMark'
import {MessageList} from './MessageList'

function ProviderNotice() {
  const setView = useUI((s) => s.setView)
  return (
    <div className="provider-notice" data-testid="provider-notice" role="note">
      <Sparkles size={14} aria-hidden="true" />
      <span>
        No model provider is connected yet. Sign in to a provider in{' '}
        <button type="button" className="link-btn" onClick={() => setView('accounts')}>
          Accounts
        </button>{' '}
        to get replies.
      </span>
    </div>
  )
}

function Welcome() {
  const create = useSessions((s) => s.create)
  return (
    <div className="welcome" data-testid="welcome">
      <LogoMark size={48} />
      <h1 className="welcome-title">Welcome to Maestro</h1>
      <p className="welcome-text">Chat with Gemini, Claude and ChatGPT, with tools from your MCP connectors.</p>
      <button type="button" className="btn btn-primary btn-lg" data-testid="start-chat" onClick={() => void create()}>
        Start a new chat
      </button>
      <p className="welcome-hint">
        or press <kbd className="kbd">{shortcutLabel('n')}</kbd>
      </p>
    </div>
  )
}

export function ChatPane() {
  const activeId = useSessions((s) => s.activeId)
  const title = useSessions((s) => s.sessions.find((x) => x.id === s.activeId)?.title)
  const loadedId = useChat((s) => s.sessionId)
  const messages = useChat((s) => s.messages)
  const load = useChat((s) => s.load)

  if (!activeId) return <Welcome />

  const ready = loadedId === activeId && load === 'ready'
  return (
    <section className="chat" aria-label="Chat">
      <header className="pane-header">
        <h1 className="pane-title" data-testid="chat-title" title={title}>
          {title || 'New chat'}
        </h1>
        <button type="button" className="pill" disabled title="Model providers arrive with Accounts">
          <span className="pill-dot" aria-hidden="true" />
          No provider
          <ChevronDown size={14} aria-hidden="true" />
        </button>
      </header>
      {ready && messages.length === 0 ? (
        <div className="chat-empty">
          <EmptyState icon={MessageSquareText} title="Start the conversation" testId="chat-empty">
            Ask anything. Tools from your connectors will appear here.
          </EmptyState>
        </div>
      ) : (
        <MessageList
          sessionId={activeId}
          messages={ready ? messages : []}
          footer={ready && awaitsProvider(messages) ? <ProviderNotice /> : null}
        />
      )}
      <Composer key={activeId} sessionId={activeId} />
    </section>
  )
}
