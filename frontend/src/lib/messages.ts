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
