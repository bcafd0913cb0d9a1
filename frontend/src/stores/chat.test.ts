import {describe, expect, it} from 'vitest'
import type {Message} from '../api/types'
import {installFakeBackend, message, session} from '../test/fakeBackend'
import {useChat} from './chat'
import {useRuns} from './runs'
import {useSessions} from './sessions'
import {useToasts} from './toasts'

const st = () => useChat.getState()
const seqs = () => st().messages.map((m) => m.seq)

const shown = [
  message('m1', 1, 'user', 'When should I go?'),
  message('m2', 2, 'assistant', 'In May.'),
  message('m3', 3, 'user', 'What should I pack?'),
  message('m4', 4, 'assistant', 'Light clothes.'),
]

/** A backend with session s1 showing `shown`, opened in the chat store. */
async function opened(opts: Parameters<typeof installFakeBackend>[0] = {}) {
  const backend = installFakeBackend({sessions: [session('s1', 'Lisbon')], messages: {s1: shown}, runs: true, ...opts})
  await st().open('s1')
  return backend
}

describe('chat store: edit and resend', () => {
  it('replaces the edited message and what followed with the new version, and follows its run', async () => {
    const backend = await opened()
    expect(await st().editAndResend('s1', 3, 'What about shoes?')).toBe(true)
    expect(backend.Chat.EditAndResend).toHaveBeenCalledWith('s1', 3, 'What about shoes?')
    expect(seqs()).toEqual([1, 2, 5])
    expect(st().messages[2].branch).toEqual({index: 1, count: 2, prev: 3, next: 0})
    const runId = (await backend.Chat.EditAndResend.mock.results[0].value).runId
    expect(useRuns.getState().active.s1).toBe(runId)
    expect(st().sending.s1).toBeUndefined()
  })

  it('keeps the new branch saved before Go answered, and drops the old one', async () => {
    const backend = await opened()
    const added: Message = {...message('m5', 5, 'user', 'What about shoes?'), branch: {index: 1, count: 2, prev: 3, next: 0}}
    const reply: Message = {...message('m6', 6, 'assistant', 'Walking shoes.'), runId: 'run-e'}
    backend.Chat.EditAndResend.mockImplementationOnce(async () => {
      // message:saved events can overtake the answer to the call.
      st().receive('s1', added)
      st().receive('s1', reply)
      return {runId: 'run-e', message: added}
    })
    await st().editAndResend('s1', 3, 'What about shoes?')
    expect(seqs()).toEqual([1, 2, 5, 6])
  })

  it('does nothing with blank text, while sending, or while a reply runs', async () => {
    const backend = await opened({activeRuns: {s1: 'run-9'}})
    await useRuns.getState().restore('s1')
    expect(await st().editAndResend('s1', 3, 'x')).toBe(false)
    useRuns.setState({active: {}})
    expect(await st().editAndResend('s1', 3, '  ')).toBe(false)
    useChat.setState({sending: {s1: true}})
    expect(await st().editAndResend('s1', 3, 'x')).toBe(false)
    expect(backend.Chat.EditAndResend).not.toHaveBeenCalled()
    expect(seqs()).toEqual([1, 2, 3, 4])
  })

  it('a refused edit changes nothing and says why', async () => {
    const backend = await opened()
    backend.Chat.EditAndResend.mockImplementationOnce(async () => Promise.reject({kind: 'invalid', message: 'only your own messages can be edited'}))
    expect(await st().editAndResend('s1', 2, 'x')).toBe(false)
    expect(seqs()).toEqual([1, 2, 3, 4])
    expect(useToasts.getState().toasts.map((t) => t.message).join()).toContain('only your own messages can be edited')

    backend.Chat.EditAndResend.mockImplementationOnce(async () => Promise.reject({kind: 'auth_required', message: 'sign in to Claude'}))
    expect(await st().editAndResend('s1', 3, 'x')).toBe(false)
    expect(useRuns.getState().notices.s1?.message).toBe('sign in to Claude')
  })
})

describe('chat store: switching branches', () => {
  const other = [message('m1', 1, 'user', 'When should I go?'), message('m5', 5, 'user', 'Is June fine?')]

  it('shows the branch Go returns and forgets the failure of the one left', async () => {
    const backend = await opened({branches: {s1: {5: [...other].reverse()}}})
    await useSessions.getState().load()
    backend.state.sessions[0].title = 'Lisbon in June'
    useRuns.setState({failures: {s1: {runId: 'run-old', kind: 'unavailable', message: 'overloaded'}}})
    await st().switchBranch('s1', 5)
    expect(backend.Chat.SwitchBranch).toHaveBeenCalledWith('s1', 5)
    expect(seqs()).toEqual([1, 5])
    expect(useRuns.getState().failures.s1).toBeUndefined()
    expect(useSessions.getState().sessions.find((s) => s.id === 's1')?.title).toBe('Lisbon in June')
    expect(st().switching.s1).toBeUndefined()
  })

  it('does nothing while a reply runs', async () => {
    const backend = await opened({branches: {s1: {5: other}}})
    useRuns.setState({active: {s1: 'run-1'}})
    await st().switchBranch('s1', 5)
    expect(backend.Chat.SwitchBranch).not.toHaveBeenCalled()
    expect(seqs()).toEqual([1, 2, 3, 4])
  })

  it('a refused switch keeps the view and says why', async () => {
    await opened()
    await st().switchBranch('s1', 42)
    expect(seqs()).toEqual([1, 2, 3, 4])
    expect(useToasts.getState().toasts.map((t) => t.message).join()).toContain('message 42 not found')
  })
})
