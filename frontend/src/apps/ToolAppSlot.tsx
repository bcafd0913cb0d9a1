import {useCallback, useMemo} from 'react'
import {chatApi, openExternal} from '../api/client'
import type {ToolAppDTO} from '../api/contract.gen'
import type {ToolResult} from '../api/types'
import {getDraft} from '../lib/drafts'
import {appContextState, useAppContexts} from '../stores/appContexts'
import {useChat} from '../stores/chat'
import {useTheme} from '../stores/theme'
import {AppCard} from './AppCard'
import type {AppResourceView, CallToolResult} from './host'
import type {ModelContext} from './policy'

interface Props {
  sessionId: string
  /** The tool call whose card this is: one app view, one model context. */
  callId: string
  app: ToolAppDTO
  /** The call's arguments, as JSON text. */
  args: string
  /** The result; undefined while the call runs (the view is drawn already, the result follows). */
  result?: ToolResult
}

function objectOf(text: string | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined
  try {
    const v: unknown = JSON.parse(text)
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/** The result as the view expects it: the server's own (raw), else the text Maestro kept. */
export function callToolResultOf(result: ToolResult): CallToolResult {
  const raw = objectOf(result.raw)
  if (raw && Array.isArray(raw.content)) return raw as CallToolResult
  const text = result.successful ? (result.data ?? '') : (result.error ?? '')
  return {content: [{type: 'text', text}], isError: !result.successful}
}

/**
 * A tool card's MCP App (docs/APPS.md), wired to Maestro: the resource from
 * the connector, the view's tool calls through the approvals
 * (Chat.AppCallTool), its messages into this chat's composer as a draft,
 * what it tells the model onto the chat's next message (Chat.SetAppContext),
 * links to the system browser once the user says so, and the app's theme.
 */
export function ToolAppSlot({sessionId, callId, app, args, result}: Props) {
  const theme = useTheme((s) => s.shown)
  const contextState = useAppContexts((s) => appContextState(s, sessionId, callId))
  const {connectorId, resourceUri} = app
  const loadResource = useCallback(
    (): Promise<AppResourceView> => chatApi.appResource(connectorId, resourceUri),
    [connectorId, resourceUri],
  )
  const toolResult = useMemo(() => (result ? callToolResultOf(result) : undefined), [result])
  const toolInput = useMemo(() => objectOf(args) ?? {}, [args])
  const callbacks = useMemo(
    () => ({
      callTool: async (name: string, a: Record<string, unknown>) =>
        JSON.parse(await chatApi.appCallTool(sessionId, app, name, JSON.stringify(a))) as CallToolResult,
      draft: (text: string) => {
        const chat = useChat.getState()
        const current = getDraft(chat.drafts, sessionId)
        chat.setDraft(sessionId, current.trim() ? `${current}\n\n${text}` : text)
      },
      openLink: openExternal,
      modelContext: async (ctx: ModelContext) => {
        await chatApi.setAppContext(sessionId, callId, app, ctx.text, ctx.structured ?? '')
        useAppContexts.getState().keep(sessionId, callId)
      },
    }),
    [sessionId, callId, app],
  )
  return (
    <AppCard
      toolName={app.tool}
      toolInput={toolInput}
      toolResult={toolResult}
      loadResource={loadResource}
      theme={theme}
      callbacks={callbacks}
      contextState={contextState}
      fallback={<div className="app-card-note">Open the card for the result as text.</div>}
    />
  )
}
