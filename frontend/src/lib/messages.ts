import type {Message} from '../api/types'

/** The visible text of a message: its text parts, separated by blank lines. */
export function messageText(m: Pick<Message, 'parts'>): string {
  return (m.parts ?? [])
    .filter((p) => p.type === 'text' && typeof p.text === 'string' && p.text !== '')
    .map((p) => p.text)
    .join('\n\n')
}

/**
 * Whether the conversation is waiting on a reply that cannot come because
 * no provider is connected: its last message is the user's.
 */
export function awaitsProvider(messages: readonly Pick<Message, 'role'>[]): boolean {
  return messages.length > 0 && messages[messages.length - 1].role === 'user'
}

/** Adds m to messages (by id, kept in seq order) without duplicating it. */
export function upsertMessage(messages: readonly Message[], m: Message): Message[] {
  const rest = messages.filter((x) => x.id !== m.id)
  rest.push(m)
  return rest.sort((a, b) => a.seq - b.seq)
}

/**
 * Puts a page of older messages (EarlierMessages) before the loaded ones,
 * skipping any already there (a message can arrive both ways), in seq order.
 */
export function prependPage(messages: readonly Message[], older: readonly Message[]): Message[] {
  const have = new Set(messages.map((m) => m.id))
  return [...older.filter((m) => !have.has(m.id)), ...messages].sort((a, b) => a.seq - b.seq)
}

/** The reasoning ("thinking") text of a message. */
export function reasoningText(m: Pick<Message, 'parts'>): string {
  return (m.parts ?? [])
    .filter((p) => p.type === 'reasoning' && typeof p.text === 'string' && p.text !== '')
    .map((p) => p.text)
    .join('\n\n')
}

/** Removes the message with id, if present. */
export function removeMessage(messages: readonly Message[], id: string): Message[] {
  return messages.some((m) => m.id === id) ? messages.filter((m) => m.id !== id) : (messages as Message[])
}

/**
 * The messages the conversation shows as rows: tool messages (their
 * results appear on the calls' cards) and superseded attempts are left
 * out, and so is the checkpoint of the reply still streaming in activeRunId
 * (the live draft shows it instead).
 */
export function visibleMessages(messages: readonly Message[], activeRunId?: string): Message[] {
  return messages.filter((m) => {
    if (m.role === 'tool' || m.status === 'superseded') return false
    if (activeRunId && m.role === 'assistant' && m.status === 'streaming' && m.runId === activeRunId) return false
    return true
  })
}

/** Whether m is an assistant message with nothing to show but its error. */
export function isBareFailure(m: Message): boolean {
  return (
    m.role === 'assistant' &&
    m.status === 'failed' &&
    !(m.parts ?? []).some((p) => (p.type === 'text' || p.type === 'reasoning') ? !!p.text : p.type === 'tool_call')
  )
}

/**
 * Whether the conversation stops in the middle of a turn: its last stored
 * message is the user's, a tool result, or a completed reply that called
 * tools. With no reply running this is a turn whose process died (the app
 * was killed) before the model answered; Retry continues it.
 */
export function endsMidTurn(messages: readonly Message[]): boolean {
  const sendable = messages.filter((m) => m.status !== 'superseded' && !(m.role === 'assistant' && m.status === 'failed'))
  const last = sendable[sendable.length - 1]
  if (!last || messages[messages.length - 1]?.status === 'failed') return false
  if (last.role === 'user' || last.role === 'tool') return true
  return last.role === 'assistant' && last.status === 'complete' && (last.parts ?? []).some((p) => p.type === 'tool_call')
}

/**
 * The view after the user message editedSeq was sent again as added: the
 * messages before the edited one, then the new branch. The old branch was
 * all stored before added, the new one from added on, so seqs tell them
 * apart whatever order the saved events arrived in.
 */
export function afterEdit(messages: readonly Message[], editedSeq: number, added: Message): Message[] {
  return upsertMessage(
    messages.filter((m) => m.seq < editedSeq || m.seq >= added.seq),
    added,
  )
}
