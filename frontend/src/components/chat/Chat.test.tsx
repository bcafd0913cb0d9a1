import {act, fireEvent, screen, waitFor, within} from '@testing-library/react'
import {describe, expect, it, vi} from 'vitest'
import type {Message, ProviderModels} from '../../api/types'
import {type FakeBackend, type FakeOptions, NOW, message, session} from '../../test/fakeBackend'
import {renderApp} from '../../test/render'

const s1 = {...session('s1', 'Trip to Lisbon', 5), provider: 'anthropic', model: 'claude-sonnet-4-5'}

async function emit(backend: FakeBackend, name: string, payload: unknown) {
  await act(async () => {
    backend.emit(name, payload)
  })
}

/** Renders the app with runs on, sends a message and starts run-N. */
async function startRun(opts: FakeOptions = {}) {
  const r = await renderApp({sessions: [s1], runs: true, ...opts})
  await r.user.type(screen.getByTestId('composer'), 'Plan my trip{Enter}')
  const runId = (await r.backend.Chat.SendMessage.mock.results[0].value).runId as string
  await emit(r.backend, 'run:started', {runId, sessionId: 's1'})
  return {...r, runId}
}

const card = () => screen.getByTestId('tool-card')

describe('streaming reply', () => {
  it('shows dots, then renders the deltas as Markdown with highlighted code, then the stored message', async () => {
    const {backend, runId} = await startRun()
    expect(screen.getByTestId('typing-indicator')).toBeInTheDocument()
    expect(screen.getByTestId('stop')).toBeInTheDocument()
    expect(screen.queryByTestId('send')).not.toBeInTheDocument()

    await emit(backend, 'chat:delta', {runId, kind: 'text', text: 'Here is **the plan**:\n\n```go\nfunc main'})
    await emit(backend, 'chat:delta', {runId, kind: 'text', text: '() {}\n```\n'})
    expect(screen.queryByTestId('typing-indicator')).not.toBeInTheDocument()
    const reply = screen.getByTestId('assistant-message')
    expect(within(reply).getByText('the plan').tagName).toBe('STRONG')
    const code = within(reply).getByTestId('code-block')
    expect(code).toHaveAttribute('data-language', 'go')
    expect(code.querySelector('.hljs-keyword')).toHaveTextContent('func')
    expect(within(code).getByRole('button', {name: 'Copy code'})).toBeInTheDocument()

    const saved: Message = {
      id: 'm2', seq: 2, role: 'assistant', status: 'complete', runId, createdAt: NOW,
      parts: [{type: 'text', text: 'Here is **the plan**:\n\n```go\nfunc main() {}\n```'}],
    }
    await emit(backend, 'message:saved', {runId, sessionId: 's1', message: saved})
    await emit(backend, 'run:finished', {runId, sessionId: 's1', canceled: false})
    expect(screen.getAllByTestId('assistant-message')).toHaveLength(1)
    expect(screen.getByTestId('assistant-message')).toHaveAttribute('data-status', 'complete')
    expect(screen.getByTestId('send')).toBeInTheDocument()
  })

  it('shows reasoning collapsed, with how long it took once text arrives', async () => {
    const {backend, user, runId} = await startRun()
    await emit(backend, 'chat:delta', {runId, kind: 'reasoning', text: 'Weighing options'})
    expect(screen.getByTestId('reasoning')).toHaveTextContent('Thinking…')
    expect(screen.queryByText('Weighing options')).not.toBeInTheDocument()
    await emit(backend, 'chat:delta', {runId, kind: 'text', text: 'Done.'})
    const toggle = within(screen.getByTestId('reasoning')).getByRole('button')
    expect(toggle).toHaveTextContent(/Thought for \d+s/)
    await user.click(toggle)
    expect(screen.getByText('Weighing options')).toBeInTheDocument()
  })

  it('Esc in the composer stops the reply', async () => {
    const {backend, user, runId} = await startRun()
    await user.type(screen.getByTestId('composer'), '{Escape}')
    expect(backend.Chat.StopRun).toHaveBeenCalledWith(runId)
    expect(screen.getByTestId('stop')).toBeDisabled()
  })

  it('Esc elsewhere in the chat stops it too; the Stop button as well', async () => {
    const {backend, user, runId} = await startRun()
    ;(document.activeElement as HTMLElement).blur()
    await user.keyboard('{Escape}')
    expect(backend.Chat.StopRun).toHaveBeenCalledTimes(1)
    await emit(backend, 'run:finished', {runId, sessionId: 's1', canceled: true})
    expect(screen.queryByTestId('stop')).not.toBeInTheDocument()
    expect(screen.queryByTestId('run-error')).not.toBeInTheDocument()
  })

  it('run:retrying throws away the abandoned attempt', async () => {
    const {backend, runId} = await startRun()
    await emit(backend, 'chat:delta', {runId, kind: 'text', text: 'A first try that'})
    expect(screen.getByTestId('message-text')).toHaveTextContent('A first try that')
    await emit(backend, 'run:retrying', {runId, attempt: 2, delayMs: 3000, reason: 'overloaded'})
    expect(screen.queryByTestId('message-text')).not.toBeInTheDocument()
    expect(screen.getByTestId('typing-indicator')).toHaveTextContent('The provider is busy — retrying in 3 s…')
    await emit(backend, 'chat:delta', {runId, kind: 'text', text: 'Second try'})
    expect(screen.getByTestId('message-text')).toHaveTextContent(/^Second try$/)
  })

  it('offers to apply changed connectors to the running step', async () => {
    const {backend, user, runId} = await startRun({sessions: [{...s1, toolsRevision: 1}]})
    await emit(backend, 'run:step', {runId, sessionId: 's1', step: 1, attempt: 1, provider: 'anthropic', model: 'claude-sonnet-4-5', toolsRevision: 1, toolCount: 3})
    expect(screen.queryByTestId('apply-now')).not.toBeInTheDocument()
    backend.state.sessions[0].toolsRevision = 2
    await emit(backend, 'sessions:changed', undefined)
    await user.click(await screen.findByTestId('apply-now'))
    expect(backend.Chat.ApplyNow).toHaveBeenCalledWith(runId)
  })

  it('drops a stored attempt that was superseded', async () => {
    const {backend, runId} = await startRun()
    const partial: Message = {id: 'm5', seq: 5, role: 'assistant', status: 'canceled', runId: 'old', createdAt: NOW, parts: [{type: 'text', text: 'Old partial'}]}
    await emit(backend, 'message:saved', {runId, sessionId: 's1', message: partial})
    expect(screen.getByText('Old partial')).toBeInTheDocument()
    await emit(backend, 'message:saved', {runId, sessionId: 's1', message: {...partial, status: 'superseded'}})
    expect(screen.queryByText('Old partial')).not.toBeInTheDocument()
  })

  it('copies a message', async () => {
    const {backend, user} = await renderApp({
      sessions: [s1],
      messages: {s1: [message('m1', 1, 'user', 'hi'), message('m2', 2, 'assistant', 'Use `go test`.')]},
    })
    const buttons = await screen.findAllByTestId('copy-message')
    await user.click(buttons[1])
    expect(backend.runtime.ClipboardSetText).toHaveBeenCalledWith('Use `go test`.')
  })
})

describe('tool cards', () => {
  it('go from preparing through approval and progress to a result with its duration', async () => {
    const {backend, runId} = await startRun()
    await emit(backend, 'tool:started', {runId, callId: 'c1', name: 'travel.search_flights', server: 'travel'})
    await emit(backend, 'tool:args', {runId, callId: 'c1', fragment: '{"from":"LIS",'})
    expect(card()).toHaveAttribute('data-status', 'preparing')
    expect(card()).toHaveAttribute('data-call-id', 'c1')
    expect(within(card()).getByTestId('tool-name')).toHaveTextContent('search_flights')
    expect(within(card()).getByTestId('tool-server')).toHaveTextContent('travel')
    expect(within(card()).getByTestId('tool-args')).toHaveTextContent('{"from":"LIS",')

    await emit(backend, 'tool:args', {runId, callId: 'c1', fragment: '"to":"OPO"}'})
    expect(within(card()).getByTestId('tool-args').textContent).toBe('{"from": "LIS", "to": "OPO"}')

    await emit(backend, 'approval:needed', {runId, requestId: 'q1', callId: 'c1', name: 'travel.search_flights', server: 'travel', arguments: '{"from":"LIS","to":"OPO"}'})
    expect(card()).toHaveAttribute('data-status', 'pending')
    expect(screen.getByTestId('approval-dialog')).toBeInTheDocument()

    await emit(backend, 'tool:running', {runId, callId: 'c1', arguments: '{"from":"LIS","to":"OPO"}'})
    expect(screen.queryByTestId('approval-dialog')).not.toBeInTheDocument()
    expect(card()).toHaveAttribute('data-status', 'running')
    expect(within(card()).getByTestId('tool-progress')).toHaveAttribute('data-determinate', 'false')

    await emit(backend, 'tool:progress', {runId, callId: 'c1', progress: 5})
    expect(within(card()).getByRole('progressbar')).not.toHaveAttribute('aria-valuenow')
    await emit(backend, 'tool:progress', {runId, callId: 'c1', progress: 3, total: 4, message: 'Comparing fares'})
    const bar = within(card()).getByRole('progressbar')
    expect(bar).toHaveAttribute('aria-valuenow', '75')
    expect(within(card()).getByTestId('tool-progress')).toHaveTextContent('Comparing fares75%')

    await emit(backend, 'tool:log', {runId, callId: 'c1', level: 'info', message: 'Found 12 flights'})
    expect(within(card()).getByTestId('tool-logs')).toHaveTextContent('Found 12 flights')

    await emit(backend, 'tool:finished', {runId, callId: 'c1', durationMs: 1234, result: {successful: true, data: '{"cheapest":49}', truncated: true, size: 50 * 1024 * 1024, raw: '{"content":[]}'}})
    expect(card()).toHaveAttribute('data-status', 'succeeded')
    expect(within(card()).queryByTestId('tool-progress')).not.toBeInTheDocument()
    expect(within(card()).getByTestId('tool-duration')).toHaveTextContent('1.2 s')
    const result = within(card()).getByTestId('tool-result')
    // Read as a field and its value, not as JSON text.
    const data = within(result).getByTestId('tool-data')
    expect(within(data).getByText('cheapest')).toHaveClass('vv-key')
    expect(within(data).getByText('49')).toHaveClass('vv-number')
    expect(within(result).getByTestId('tool-truncated')).toHaveTextContent('truncated, 50 MB')
    expect(within(result).getByTestId('tool-truncated')).toHaveAttribute('title', expect.stringContaining('was 50 MB'))
    fireEvent.click(within(result).getByTestId('tool-raw-toggle'))
    expect(within(result).getByTestId('tool-raw')).toHaveTextContent('"content": []')
  })

  it("draws a tool's MCP App while the call runs, the result following", async () => {
    const {backend, runId} = await startRun()
    const app = {connectorId: 'k1', resourceUri: 'ui://clock/show.html', tool: 'show'}
    const AppResource = vi.fn(async () => ({uri: app.resourceUri, html: '<!DOCTYPE html><html><body>clock</body></html>', csp: {}}))
    Object.assign(backend.Connectors, {AppResource})
    await emit(backend, 'tool:started', {runId, callId: 'c1', name: 'clock.show', server: 'clock'})
    expect(within(card()).queryByTestId('app-card')).not.toBeInTheDocument()
    await emit(backend, 'tool:running', {runId, callId: 'c1', arguments: '{}', app})
    expect(card()).toHaveAttribute('data-status', 'running')
    expect(await within(card()).findByTestId('app-card')).toBeInTheDocument()
    expect(AppResource).toHaveBeenCalledWith('k1', 'ui://clock/show.html')
    await emit(backend, 'tool:finished', {runId, callId: 'c1', durationMs: 5, result: {successful: true, data: '"12:00"', app}})
    expect(card()).toHaveAttribute('data-status', 'succeeded')
    expect(within(card()).getByTestId('app-card')).toBeInTheDocument()
  })

  it('shows a tool error in red and images as pictures', async () => {
    const {backend, runId} = await startRun()
    await emit(backend, 'tool:started', {runId, callId: 'c1', name: 'charts.render', server: 'charts'})
    await emit(backend, 'tool:running', {runId, callId: 'c1', arguments: '{}'})
    await emit(backend, 'tool:finished', {
      runId, callId: 'c1', durationMs: 80,
      result: {successful: false, error: 'renderer crashed', attachments: [{type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo='}]},
    })
    expect(card()).toHaveAttribute('data-status', 'failed')
    expect(within(card()).getByTestId('tool-error')).toHaveTextContent('renderer crashed')
    const img = within(card()).getByTestId('tool-image')
    expect(img.tagName).toBe('IMG')
    expect(img).toHaveAttribute('src', 'data:image/png;base64,iVBORw0KGgo=')
    expect(card().textContent).not.toContain('iVBORw0KGgo')
  })

  it('shows why an image was left out, and that one was downscaled', async () => {
    const {backend, runId} = await startRun()
    await emit(backend, 'tool:started', {runId, callId: 'c1', name: 'hostile.huge_image', server: 'hostile'})
    await emit(backend, 'tool:finished', {
      runId, callId: 'c1', durationMs: 80,
      result: {successful: true, data: '{"text":"a picture"}', attachments: [
        {type: 'image', mimeType: 'image/png', text: '[image/png left out: the server sent 26 MiB of base64, more than Maestro reads]'},
        {type: 'image', mimeType: 'image/jpeg', data: 'iVBORw0KGgo=', text: '[downscaled by Maestro from 6000×4000 px (20 MiB, PNG) to 2000×1333 px (1.1 MiB)]'},
      ]},
    })
    const notes = within(card()).getAllByTestId('tool-attachment-note')
    expect(notes[0]).toHaveTextContent('left out: the server sent 26 MiB of base64')
    expect(notes[1]).toHaveTextContent('downscaled by Maestro')
    expect(within(card()).getAllByTestId('tool-image')).toHaveLength(1)
  })

  it('render from history by pairing tool_call and tool_result parts', async () => {
    const history: Message[] = [
      message('m1', 1, 'user', 'Read the notes'),
      {id: 'm2', seq: 2, role: 'assistant', status: 'complete', createdAt: NOW, parts: [
        {type: 'text', text: 'Reading them.'},
        {type: 'tool_call', callId: 'c1', name: 'fs.read_file', server: 'fs', arguments: '{"path":"notes.md"}'},
        {type: 'tool_call', callId: 'c2', name: 'fs.stat', server: 'fs', arguments: '{}'},
      ]},
      {id: 'm3', seq: 3, role: 'tool', status: 'complete', createdAt: NOW, parts: [
        {type: 'tool_result', callId: 'c1', name: 'fs.read_file', result: {callId: 'c1', name: 'fs.read_file', successful: true, data: '"# Notes"', durationMs: 42}},
        {type: 'tool_result', callId: 'c2', name: 'fs.stat', result: {callId: 'c2', name: 'fs.stat', successful: false, error: 'the user stopped the turn before this tool call finished'}},
      ]},
      message('m4', 4, 'assistant', 'They say: Notes.'),
    ]
    const {user} = await renderApp({sessions: [s1], messages: {s1: history}})
    const cards = await screen.findAllByTestId('tool-card')
    expect(cards.map((c) => [c.dataset.callId, c.dataset.status])).toEqual([['c1', 'succeeded'], ['c2', 'stopped']])
    expect(within(cards[0]).getByTestId('tool-duration')).toHaveTextContent('42 ms')
    // Collapsed in history; the header expands it.
    expect(within(cards[0]).getByTestId('tool-result')).not.toBeVisible()
    await user.click(within(cards[0]).getByRole('button', {expanded: false}))
    expect(within(cards[0]).getByTestId('tool-data')).toBeVisible()
    // A text result is Markdown: "# Notes" is a heading, not quoted JSON.
    expect(within(within(cards[0]).getByTestId('tool-data')).getByRole('heading', {name: 'Notes'})).toBeInTheDocument()
    // The tool message itself is not a row.
    expect(screen.getAllByTestId('message').map((m) => m.dataset.role)).toEqual(['user', 'assistant', 'assistant'])
  })
})

describe('approval dialog', () => {
  it('says when the arguments are long, and shows them readable', async () => {
    const {backend, runId} = await startRun()
    const body = 'Dear team,\n' + 'The numbers are in. '.repeat(200)
    await emit(backend, 'approval:needed', {runId, requestId: 'q9', callId: 'c9', name: 'mail.send', server: 'mail',
      arguments: JSON.stringify({to: 'all@example.com', body})})
    const dialog = screen.getByTestId('approval-dialog')
    expect(within(dialog).getByTestId('approval-long')).toHaveTextContent('These arguments are long (4.0 KB)')
    expect(within(dialog).getByTestId('approval-args')).toHaveTextContent('all@example.com')
  })

  const ask = (backend: FakeBackend, runId: string, requestId: string) =>
    emit(backend, 'approval:needed', {runId, requestId, callId: `call-${requestId}`, name: 'fs.write_file', server: 'fs', arguments: '{"path":"/tmp/a.txt","content":"hi"}'})

  it('shows the tool, server and arguments; each button answers', async () => {
    const {backend, user, runId} = await startRun()
    await ask(backend, runId, 'q1')
    const dialog = screen.getByTestId('approval-dialog')
    expect(dialog).toHaveTextContent('Allow write_file?')
    expect(within(dialog).getByTestId('approval-server')).toHaveTextContent('fs')
    const args = within(dialog).getByTestId('approval-args')
    expect(within(args).getByText('path')).toHaveClass('vv-key')
    expect(within(args).getByText('/tmp/a.txt')).toBeInTheDocument()
    expect(within(dialog).queryByTestId('approval-long')).not.toBeInTheDocument()
    await user.click(within(dialog).getByTestId('approval-allow-once'))
    expect(backend.Chat.AnswerApproval).toHaveBeenLastCalledWith('q1', 'allow_once')
    expect(screen.queryByTestId('approval-dialog')).not.toBeInTheDocument()

    await ask(backend, runId, 'q2')
    await user.click(screen.getByTestId('approval-always'))
    await user.click(screen.getByTestId('approval-always-chat'))
    expect(backend.Chat.AnswerApproval).toHaveBeenLastCalledWith('q2', 'always_allow')

    await ask(backend, runId, 'q3')
    await user.click(screen.getByTestId('approval-deny'))
    expect(backend.Chat.AnswerApproval).toHaveBeenLastCalledWith('q3', 'deny')
  })

  it('says a read-only claim is the server\'s, and marks look-alike letters in the name', async () => {
    const {backend, user, runId} = await startRun()
    await ask(backend, runId, 'q1')
    expect(screen.queryByTestId('approval-readonly-claim')).not.toBeInTheDocument()
    await user.click(screen.getByTestId('approval-deny'))
    await emit(backend, 'approval:needed', {
      runId, requestId: 'q2', callId: 'call-q2', name: 'hostile.get_d\u0430ta', server: 'hostile', arguments: '{}', readOnlyHint: true,
    })
    const dialog = screen.getByTestId('approval-dialog')
    const claim = within(dialog).getByTestId('approval-readonly-claim')
    expect(claim).toHaveTextContent('The hostile server says this tool only reads')
    expect(claim).toHaveTextContent('Maestro cannot check it')
    const name = within(dialog).getByTestId('approval-tool')
    expect(within(name).getByTestId('tool-name-foreign')).toHaveTextContent('аU+0430')
    expect(name).toHaveAttribute('title', expect.stringContaining('U+0430'))
  })

  it('Enter allows once, Esc denies, one request at a time', async () => {
    const {backend, user, runId} = await startRun()
    await ask(backend, runId, 'q1')
    await ask(backend, runId, 'q2')
    expect(screen.getByTestId('approval-dialog')).toHaveTextContent('1 more waiting')
    expect(screen.getByTestId('approval-allow-once')).toHaveFocus()
    await user.keyboard('{Enter}')
    expect(backend.Chat.AnswerApproval).toHaveBeenLastCalledWith('q1', 'allow_once')
    await waitFor(() => expect(screen.getByTestId('approval-allow-once')).toHaveFocus())
    await user.keyboard('{Escape}')
    expect(backend.Chat.AnswerApproval).toHaveBeenLastCalledWith('q2', 'deny')
    expect(backend.Chat.AnswerApproval).toHaveBeenCalledTimes(2)
    expect(screen.queryByTestId('approval-dialog')).not.toBeInTheDocument()
    // Esc in the dialog did not also stop the run.
    expect(backend.Chat.StopRun).not.toHaveBeenCalled()
  })
})

describe('failed turns', () => {
  it('show the error in plain words with Retry, which calls RetryTurn', async () => {
    const {backend, user, runId} = await startRun()
    const fail: Message = {id: 'm2', seq: 2, role: 'assistant', status: 'failed', runId, error: 'anthropic: overloaded', parts: [], createdAt: NOW}
    await emit(backend, 'message:saved', {runId, sessionId: 's1', message: fail})
    await emit(backend, 'run:finished', {runId, sessionId: 's1', canceled: false, error: {kind: 'unavailable', message: 'anthropic: overloaded'}, retryAt: Date.now() + 30 * 60_000})
    const err = screen.getByTestId('run-error')
    expect(err).toHaveTextContent('Usage limit reached')
    expect(err).toHaveTextContent('Anthropic: overloaded.')
    expect(within(err).getByTestId('run-error-reset')).toHaveTextContent(/Resets at .+\(in 30 min\)/)
    expect(screen.getAllByTestId('run-error')).toHaveLength(1)
    await user.click(screen.getByTestId('retry'))
    expect(backend.Chat.RetryTurn).toHaveBeenCalledWith('s1')
    expect(await screen.findByTestId('stop')).toBeInTheDocument()
    expect(screen.queryByTestId('retry')).not.toBeInTheDocument()
  })

  it('offer Retry from history and a way to Accounts when signing in would help', async () => {
    const history: Message[] = [
      message('m1', 1, 'user', 'Hello'),
      {id: 'm2', seq: 2, role: 'assistant', status: 'failed', error: 'Sign in to Claude in Accounts or add an API key', parts: [], createdAt: NOW,
        failure: {kind: 'auth_required', message: 'Sign in to Claude in Accounts or add an API key'}},
    ]
    const {backend, user} = await renderApp({sessions: [s1], messages: {s1: history}})
    const err = await screen.findByTestId('run-error')
    expect(err).toHaveTextContent('Sign-in needed')
    await user.click(screen.getByTestId('retry'))
    expect(backend.Chat.RetryTurn).toHaveBeenCalledWith('s1')
  })

  it('a failed attempt keeps its title after a successful Retry and after a restart', async () => {
    const {backend, user, runId} = await startRun()
    // OpenAI's real 429 text mentions the account: the title must not follow the words.
    const limit = {kind: 'unavailable', message: 'openai: rate_limit (HTTP 429) rate_limit_exceeded: Rate limit reached for gpt-5.5 in organization org-1 on tokens per min (TPM). Visit https://platform.openai.com/account/rate-limits to learn more.',
      provider: 'openai', reason: 'rate_limit', retryAt: Date.now() + 60 * 60_000}
    const fail: Message = {id: 'm2', seq: 2, role: 'assistant', status: 'failed', runId, error: limit.message, failure: limit, parts: [], createdAt: NOW}
    await emit(backend, 'message:saved', {runId, sessionId: 's1', message: fail})
    await emit(backend, 'run:finished', {runId, sessionId: 's1', canceled: false, error: limit, retryAt: limit.retryAt})
    expect(screen.getByTestId('run-error')).toHaveTextContent('Usage limit reached')
    // Retry succeeds: the failed attempt stays on record with its own title.
    await user.click(screen.getByTestId('retry'))
    const runId2 = (await backend.Chat.RetryTurn.mock.results[0].value) as string
    await emit(backend, 'run:started', {runId: runId2, sessionId: 's1'})
    const ok: Message = {id: 'm3', seq: 3, role: 'assistant', status: 'complete', runId: runId2, parts: [{type: 'text', text: 'Done.'}], createdAt: NOW}
    await emit(backend, 'message:saved', {runId: runId2, sessionId: 's1', message: ok})
    await emit(backend, 'run:finished', {runId: runId2, sessionId: 's1', canceled: false})
    const cards = screen.getAllByTestId('run-error')
    expect(cards).toHaveLength(1)
    expect(cards[0]).toHaveTextContent('Usage limit reached')
    expect(cards[0]).not.toHaveTextContent('Sign-in needed')
    expect(within(cards[0]).queryByRole('button', {name: 'Open Accounts'})).not.toBeInTheDocument()
  })

  it("a stored \"couldn't be sent\" reads the same after a restart", async () => {
    const invalid = {kind: 'invalid', message: 'anthropic: invalid_request (HTTP 400): messages.0.content: empty'}
    const history: Message[] = [
      message('m1', 1, 'user', 'Hello'),
      {id: 'm2', seq: 2, role: 'assistant', status: 'failed', error: invalid.message, failure: invalid, parts: [], createdAt: NOW},
    ]
    await renderApp({sessions: [s1], messages: {s1: history}})
    expect(await screen.findByTestId('run-error')).toHaveTextContent("The request couldn't be sent")
  })

  it('offer Retry for a turn the app was killed in before the model answered', async () => {
    const calls: Message = {id: 'm2', seq: 2, role: 'assistant', status: 'complete', runId: 'r1', createdAt: NOW,
      parts: [{type: 'tool_call', callId: 'c1', name: 'demo.echo', arguments: '{"text":"hi"}'}]}
    const results: Message = {id: 'm3', seq: 3, role: 'tool', status: 'complete', runId: 'r1', createdAt: NOW,
      parts: [{type: 'tool_result', result: {callId: 'c1', name: 'demo.echo', successful: true, data: 'hi'}}]}
    const {backend, user} = await renderApp({sessions: [s1], runs: true, messages: {s1: [message('m1', 1, 'user', 'Echo hi'), calls, results]}})
    const err = await screen.findByTestId('run-error')
    expect(err).toHaveTextContent('The reply was interrupted')
    await user.click(within(err).getByTestId('retry'))
    expect(backend.Chat.RetryTurn).toHaveBeenCalledWith('s1')
    expect(screen.queryByTestId('run-error')).not.toBeInTheDocument()
  })

  it('a refused send (auth_required) keeps the text and explains inline', async () => {
    const {backend, user} = await renderApp({sessions: [s1]})
    backend.Chat.SendMessage.mockRejectedValueOnce({kind: 'auth_required', message: 'Sign in to Claude in Accounts or add an API key'})
    await user.type(screen.getByTestId('composer'), 'hello{Enter}')
    const notice = await screen.findByTestId('auth-notice')
    expect(notice).toHaveTextContent('Sign in to Claude in Accounts or add an API key. Open Accounts to sign in, then send again.')
    expect(screen.getByTestId('composer')).toHaveValue('hello')
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument()
    await user.click(within(notice).getByRole('button', {name: 'Accounts'}))
    expect(screen.getByTestId('accounts-page')).toBeInTheDocument()
  })
})

describe('provider refusals', () => {
  const gate = {kind: 'unavailable', message: 'anthropic: entitlement (HTTP 400) third_party_gate: Third-party apps now draw from your extra usage',
    provider: 'anthropic', reason: 'entitlement', code: 'third_party_gate', detail: 'Third-party apps now draw from your extra usage, not your plan limits.'}

  it("Claude's third-party gate says what to do and opens the API-key form", async () => {
    const {backend, user, runId} = await startRun()
    const fail: Message = {id: 'm2', seq: 2, role: 'assistant', status: 'failed', runId, error: gate.message, failure: gate, parts: [], createdAt: NOW}
    await emit(backend, 'message:saved', {runId, sessionId: 's1', message: fail})
    await emit(backend, 'run:finished', {runId, sessionId: 's1', canceled: false, error: gate})
    const err = screen.getByTestId('run-error')
    expect(err).toHaveTextContent("Your Claude plan doesn't cover Maestro")
    expect(within(err).getByTestId('run-error-quote')).toHaveTextContent('Third-party apps now draw from your extra usage, not your plan limits.')
    expect(err).not.toHaveTextContent('[object Object]')
    await user.click(within(err).getByTestId('run-error-apikey'))
    expect(screen.getByTestId('accounts-page')).toBeInTheDocument()
    expect(await screen.findByTestId('apikey-input-anthropic')).toBeInTheDocument()
  })

  it('a stored refusal reads the same after a restart', async () => {
    const history: Message[] = [
      message('m1', 1, 'user', 'Hello'),
      {id: 'm2', seq: 2, role: 'assistant', status: 'failed', error: gate.message, failure: gate, parts: [], createdAt: NOW},
    ]
    await renderApp({sessions: [s1], messages: {s1: history}})
    const err = await screen.findByTestId('run-error')
    expect(err).toHaveTextContent("Your Claude plan doesn't cover Maestro")
    expect(within(err).getByTestId('run-error-apikey')).toHaveTextContent('Add an Anthropic API key')
  })

  it('a model the plan does not serve offers the picker, which marks it', async () => {
    const refused = "The 'gpt-5' model is not supported when using Codex with a ChatGPT account."
    const models: ProviderModels[] = [
      {provider: 'openai', displayName: 'ChatGPT', available: true, source: 'service', fetchedAt: Date.now() - 5 * 60_000,
        models: [{id: 'gpt-5.5', name: 'GPT-5.5', contextWindow: 400_000}, {id: 'gpt-5', name: 'GPT-5', unavailable: refused}]},
    ]
    const s2 = {...session('s2', 'Code review', 5), provider: 'openai', model: 'gpt-5'}
    const failure = {kind: 'not_found', message: 'openai: model_unavailable (HTTP 400): ' + refused, provider: 'openai', reason: 'model_unavailable', detail: refused}
    const history: Message[] = [
      message('m1', 1, 'user', 'Hello'),
      {id: 'm2', seq: 2, role: 'assistant', status: 'failed', error: failure.message, failure, parts: [], createdAt: NOW},
    ]
    const {backend, user} = await renderApp({sessions: [s2], messages: {s2: history}, models})
    const err = await screen.findByTestId('run-error')
    expect(err).toHaveTextContent("This model isn't available to your account")
    await user.click(within(err).getByTestId('run-error-choose-model'))
    const menu = await screen.findByTestId('model-menu')
    expect(within(menu).getByTestId('model-option-openai-gpt-5')).toBeDisabled()
    expect(within(menu).getByTestId('model-refused-openai-gpt-5')).toHaveTextContent('Unavailable')
    expect(within(menu).getByTestId('model-option-openai-gpt-5')).toHaveAttribute('title', refused)
    expect(within(menu).getByTestId('model-option-openai-gpt-5.5')).toHaveTextContent('400K')
    expect(within(menu).getByTestId('models-source-openai')).toHaveTextContent("Your account's models · updated 5m ago")
    await user.click(within(menu).getByTestId('models-refresh-openai'))
    expect(backend.Chat.RefreshModels).toHaveBeenCalledWith('openai')
  })

  it("the chat's model, no longer listed, shows why it cannot be used", async () => {
    const models: ProviderModels[] = [{provider: 'openai', displayName: 'ChatGPT', available: true, source: 'service', models: [{id: 'gpt-5.5', name: 'GPT-5.5'}]}]
    const s3 = {...session('s3', 'Old chat', 5), provider: 'openai', model: 'gpt-5-codex'}
    const {user} = await renderApp({sessions: [s3], models})
    await user.click(screen.getByTestId('model-picker'))
    const old = screen.getByTestId('model-option-openai-gpt-5-codex')
    expect(old).toBeDisabled()
    expect(old).toHaveAttribute('title', 'ChatGPT does not list this model for your account.')
  })
})

describe('model picker', () => {
  it('lists providers, disables those without credentials and switches the model', async () => {
    const {backend, user} = await renderApp({sessions: [s1]})
    const picker = screen.getByTestId('model-picker')
    await waitFor(() => expect(picker).toHaveTextContent('Claude Sonnet 4.5'))
    await user.click(picker)
    const gpt = screen.getByTestId('model-option-openai-gpt-5')
    expect(gpt).toBeDisabled()
    expect(screen.getByTestId('model-menu')).toHaveTextContent('Sign in in Accounts')
    expect(screen.getByTestId('model-option-anthropic-claude-sonnet-4-5')).toHaveAttribute('aria-selected', 'true')
    await user.click(screen.getByTestId('model-option-gemini-gemini-2.5-flash'))
    expect(backend.Chat.SetSessionModel).toHaveBeenCalledWith('s1', 'gemini', 'gemini-2.5-flash')
    await waitFor(() => expect(picker).toHaveTextContent('Gemini 2.5 Flash'))
    expect(screen.queryByTestId('model-menu')).not.toBeInTheDocument()
  })

  it('asks for a model when the chat has none', async () => {
    await renderApp({sessions: [session('s2', 'Fresh')]})
    expect(screen.getByTestId('model-picker')).toHaveTextContent('Choose a model')
  })
})

describe('reopening a session', () => {
  it('restores the running reply from ActiveRun and its checkpoint', async () => {
    const checkpoint: Message = {id: 'm2', seq: 2, role: 'assistant', status: 'streaming', runId: 'run-9', createdAt: NOW, parts: [{type: 'text', text: 'Half an ans'}]}
    const {backend} = await renderApp({sessions: [s1], activeRuns: {s1: 'run-9'}, messages: {s1: [message('m1', 1, 'user', 'Q'), checkpoint]}})
    expect(await screen.findByTestId('stop')).toBeInTheDocument()
    expect(backend.Chat.ActiveRun).toHaveBeenCalledWith('s1')
    expect(screen.getAllByTestId('assistant-message')).toHaveLength(1)
    await emit(backend, 'chat:delta', {runId: 'run-9', kind: 'text', text: 'wer.'})
    expect(screen.getByTestId('message-text')).toHaveTextContent('Half an answer.')
  })
})

describe('auto-scroll', () => {
  it('offers "jump to latest" after the reader scrolls up', async () => {
    const {user} = await renderApp({sessions: [s1], messages: {s1: [message('m1', 1, 'user', 'Q'), message('m2', 2, 'assistant', 'A')]}})
    const el = await screen.findByTestId('message-scroll')
    Object.defineProperty(el, 'scrollHeight', {configurable: true, value: 3000})
    Object.defineProperty(el, 'clientHeight', {configurable: true, value: 600})
    el.scrollTop = 2400
    fireEvent.scroll(el)
    expect(screen.queryByTestId('jump-to-latest')).not.toBeInTheDocument()
    fireEvent.wheel(el)
    el.scrollTop = 1000
    fireEvent.scroll(el)
    await user.click(await screen.findByTestId('jump-to-latest'))
    expect(el.scrollTop).toBe(3000)
    expect(screen.queryByTestId('jump-to-latest')).not.toBeInTheDocument()
  })

  it('stays at the bottom when the page, not the reader, moves the view up', async () => {
    await renderApp({sessions: [s1], messages: {s1: [message('m1', 1, 'user', 'Q'), message('m2', 2, 'assistant', 'A')]}})
    const el = await screen.findByTestId('message-scroll')
    Object.defineProperty(el, 'scrollHeight', {configurable: true, value: 3000})
    Object.defineProperty(el, 'clientHeight', {configurable: true, value: 600})
    el.scrollTop = 2400
    fireEvent.scroll(el)
    // A row above the view measured smaller: the list kept its place and scrollTop dropped, no input.
    el.scrollTop = 2300
    fireEvent.scroll(el)
    expect(el.scrollTop).toBe(3000)
    expect(screen.queryByTestId('jump-to-latest')).not.toBeInTheDocument()
  })
})
