import {type ReactNode, useCallback, useEffect, useLayoutEffect, useMemo, useRef} from 'react'
import {ArrowDown} from 'lucide-react'
import type {Message} from '../api/types'
import {chatBlocker} from '../lib/blocker'
import {messageText, visibleMessages} from '../lib/messages'
import type {RunErrorInfo} from '../lib/runError'
import {nearTop} from '../lib/scroll'
import {isSummary, placeSummaries} from '../lib/summaries'
import {pairToolResults, storedCallIds} from '../lib/toolCards'
import {canRegenerate, type ShownMessage, turnBranches} from '../lib/turns'
import {turnUsages} from '../lib/usage'
import {usePrependAnchor} from '../lib/usePrependAnchor'
import {useStickToBottom} from '../lib/useStickToBottom'
import {useVirtualRows} from '../lib/useVirtualRows'
import {useChat} from '../stores/chat'
import {useModels} from '../stores/models'
import {useRuns} from '../stores/runs'
import {useSessions} from '../stores/sessions'
import {AssistantDraft} from './chat/AssistantDraft'
import {MessageRow} from './chat/MessageRow'
import {RunError} from './chat/RunError'
import {SummaryMarker} from './context/SummaryMarker'

const INTERRUPTED: RunErrorInfo = {
  kind: 'interrupted',
  message: 'Maestro closed before this turn finished. Retry to continue from the last saved step.',
}

interface Props {
  sessionId: string
  messages: Message[]
  /** Shown under the last message (e.g. the sign-in notice). */
  footer?: ReactNode
  /** Older messages exist that are not loaded yet. */
  hasEarlier?: boolean
  loadingEarlier?: boolean
  /** Fetches the page before the loaded messages; auto when scrolling asked, not the user. */
  onLoadEarlier?: (auto?: boolean) => void
  /** Regenerates the answer whose last reply is seq, as a new branch (absent: the chat cannot answer). */
  onRegenerate?: (seq: number) => void
}

/**
 * The conversation: stored messages, the reply streaming in, and how the
 * last turn failed. Only the loaded messages are rendered (Go sends the
 * latest page when a session opens); scrolling near the top, or the button
 * there, loads the page before, and the rows on screen stay where they were.
 */
export function MessageList({sessionId, messages, footer, hasEarlier = false, loadingEarlier = false, onLoadEarlier, onRegenerate}: Props) {
  const activeRunId = useRuns((s) => s.active[sessionId])
  const run = useRuns((s) => (activeRunId ? s.runs[activeRunId] : undefined))
  const failure = useRuns((s) => s.failures[sessionId])
  const retry = useRuns((s) => s.retry)
  const retryTurn = useCallback(() => void retry(sessionId), [retry, sessionId])
  // A Retry that cannot help (nothing can answer this chat; the composer
  // says why) is not offered.
  const session = useSessions((s) => s.sessions.find((x) => x.id === sessionId))
  const providers = useModels((s) => (s.loaded ? s.providers : undefined))
  const blocked = !!chatBlocker(session, providers)
  const onRetry = blocked ? undefined : retryTurn

  // Summary nodes are drawn as markers where they begin (lib/summaries);
  // rows are the messages, items what the list draws.
  const shown = useMemo(() => visibleMessages(messages, activeRunId) as ShownMessage[], [messages, activeRunId])
  const items = useMemo(() => placeSummaries(shown), [shown])
  const rows = useMemo(() => shown.filter((m) => !isSummary(m)), [shown])
  const rowIndex = useMemo(() => new Map(rows.map((m, i) => [m.id, i])), [rows])
  const usages = useMemo(() => turnUsages(rows), [rows])
  const branches = useMemo(() => turnBranches(rows), [rows])
  const results = useMemo(() => pairToolResults(messages), [messages])
  const storedCalls = useMemo(() => storedCallIds(messages), [messages])
  const lastUser = useMemo(() => [...rows].reverse().find((m) => m.role === 'user')?.id, [rows])
  const {scrollRef, contentRef, onScroll, jumpVisible, jump, reveal, release} = useStickToBottom(sessionId, lastUser)
  const onScrollAnchor = usePrependAnchor(scrollRef, sessionId, rows[0]?.seq)
  // Only the rows near the view are drawn (useVirtualRows).
  const keyOf = useCallback((i: number) => items[i]?.message.id ?? String(i), [items])
  const virtual = useVirtualRows(scrollRef, items.length, keyOf)
  const pendingFocus = useRef(0)

  // A search hit: scroll its row (or the nearest one before it: tool
  // results have no row of their own) to the middle and mark it a moment.
  // A row that is not drawn is scrolled to first (the list is virtualized);
  // the mark waits for it to be drawn.
  const focusSeq = useChat((s) => (s.sessionId === sessionId ? s.focusSeq : 0))
  useLayoutEffect(() => {
    if (!focusSeq || rows.length === 0) return
    useChat.getState().clearFocus()
    const at = focusIndex(rows, focusSeq)
    pendingFocus.current = rows[at].seq
    release()
    virtual.scrollToIndex(Math.max(0, items.findIndex((it) => it.message.id === rows[at].id)), {align: 'center'})
  }, [focusSeq, rows, items, release, virtual])
  useLayoutEffect(() => {
    const list = contentRef.current
    const seq = pendingFocus.current
    if (!seq || !list) return
    const row = list.querySelector<HTMLElement>(`[data-seq="${seq}"]`)
    if (!row) return
    pendingFocus.current = 0
    reveal(row)
    row.classList.add('is-found')
    row.dataset.found = 'true'
    window.setTimeout(() => {
      row.classList.remove('is-found')
      delete row.dataset.found
    }, 2500)
  })

  // Near the top (scrolled there, or the rows do not fill the view): fetch
  // the page before. Checked after every render as well as on scroll.
  const wantEarlier = hasEarlier && !loadingEarlier && !!onLoadEarlier
  const maybeLoadEarlier = useCallback(() => {
    if (wantEarlier && scrollRef.current && nearTop(scrollRef.current)) onLoadEarlier!(true)
  }, [wantEarlier, onLoadEarlier, scrollRef])
  useEffect(maybeLoadEarlier)
  const handleScroll = useCallback(() => {
    onScroll()
    onScrollAnchor()
    maybeLoadEarlier()
  }, [onScroll, onScrollAnchor, maybeLoadEarlier])

  // One turn may be several stored replies (a step per tool round): they read
  // as one, with a single action bar (copying the whole turn) under the last.
  const turnText = useMemo(() => {
    const out = new Map<string, string>()
    for (const m of rows) {
      const t = m.role === 'assistant' && m.runId ? messageText(m) : ''
      if (t) out.set(m.runId!, out.has(m.runId!) ? `${out.get(m.runId!)}\n\n${t}` : t)
    }
    return out
  }, [rows])
  const sameRun = (a?: Message, b?: Message) =>
    !!a && !!b && a.role === 'assistant' && b.role === 'assistant' && !!a.runId && a.runId === b.runId

  const last = rows[rows.length - 1]
  const lastFailed = !activeRunId && last?.role === 'assistant' && last.status === 'failed' ? last.id : undefined
  // A failure no stored message records (e.g. refused before the reply started).
  const looseFailure =
    failure && !activeRunId && !rows.some((m) => m.runId === failure.runId && m.status === 'failed') ? failure : undefined
  // A turn whose process died before the model answered (the app was killed).
  const midTurn = useChat((s) => s.midTurn && s.sessionId === sessionId)
  const unfinished = midTurn && !activeRunId && !failure

  return (
    <div className="message-scroll-wrap">
      <div className="message-scroll" ref={scrollRef} onScroll={handleScroll} data-testid="message-scroll">
        <div className="message-list" ref={contentRef} role="log" aria-label="Messages">
          {hasEarlier && (
            <div className="load-earlier">
              <button
                type="button"
                className="link-btn"
                data-testid="load-earlier"
                disabled={loadingEarlier}
                onClick={() => onLoadEarlier?.()}
              >
                {loadingEarlier ? 'Loading earlier messages…' : 'Load earlier messages'}
              </button>
            </div>
          )}
          <div className="message-rows" style={{height: virtual.getTotalSize()}}>
            {virtual.getVirtualItems().map(({index, key, start}) => {
              const item = items[index]
              const m = item.message
              const i = rowIndex.get(m.id) ?? -1
              const continues = sameRun(m, rows[i + 1]) || (i === rows.length - 1 && !!run && m.runId === run.runId)
              const turnEnd = item.kind === 'message' && !continues && m.role === 'assistant'
              return (
                <div
                  key={key}
                  className={`message-slot${index === 0 ? ' is-first' : ''}`}
                  data-index={index}
                  ref={virtual.measureElement}
                  style={{transform: `translateY(${start}px)`}}
                >
                  {item.kind === 'summary' ? (
                    <SummaryMarker
                      seq={m.seq}
                      facts={m.summary ?? {through: 0, messages: 0, reason: ''}}
                      text={messageText(m)}
                      tokens={m.tokens}
                    />
                  ) : (
                    <MessageRow
                      message={m}
                      sessionId={sessionId}
                      results={results}
                      activeRunId={activeRunId}
                      error={failure && failure.runId === m.runId ? failure : undefined}
                      onRetry={m.id === lastFailed ? onRetry : undefined}
                      follows={sameRun(rows[i - 1], m)}
                      continues={continues}
                      copyText={m.runId ? turnText.get(m.runId) : undefined}
                      usage={turnEnd ? (m.runId ? usages.get(m.runId) : m.usage) : undefined}
                      branch={turnEnd && m.runId ? branches.get(m.runId) : undefined}
                      onRegenerate={
                        turnEnd && onRegenerate && !blocked && canRegenerate(m, activeRunId) ? () => onRegenerate(m.seq) : undefined
                      }
                    />
                  )}
                </div>
              )
            })}
          </div>
          {run && <AssistantDraft run={run} storedCalls={storedCalls} follows={last?.role === 'assistant' && last.runId === run.runId} />}
          {unfinished && (
            <div className="message message-assistant" data-role="assistant" data-status="interrupted">
              <RunError error={INTERRUPTED} onRetry={onRetry} />
            </div>
          )}
          {looseFailure && (
            <div className="message message-assistant" data-role="assistant" data-status="failed">
              <RunError error={looseFailure} onRetry={onRetry} />
            </div>
          )}
          {footer}
        </div>
      </div>
      {jumpVisible && (
        <button type="button" className="jump-pill" data-testid="jump-to-latest" onClick={jump}>
          <ArrowDown size={14} aria-hidden="true" />
          Jump to latest
        </button>
      )}
    </div>
  )
}

/** The row a search hit at seq shows in: its own, else the nearest before it (tool results have no row), else the first. */
export function focusIndex(rows: readonly Message[], seq: number): number {
  let at = 0
  for (let i = 0; i < rows.length && rows[i].seq <= seq; i++) at = i
  return at
}
