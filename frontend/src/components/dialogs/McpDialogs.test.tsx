import {act, render, screen, waitFor} from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import {type FakeBackend, installFakeBackend} from '../../test/fakeBackend'
import {syncDialogs, useDialogs} from '../../stores/dialogs'
import {useToasts} from '../../stores/toasts'
import {DialogHost} from './DialogHost'

const schema = {
  title: 'About you',
  fields: [
    {name: 'age', kind: 'integer', minimum: 0, maximum: 150, default: 30},
    {name: 'agree', kind: 'boolean', default: true},
    {name: 'born', kind: 'string', format: 'date'},
    {name: 'color', kind: 'string', options: ['red', 'blue'], labels: ['Red', 'Blue'], default: 'blue'},
    {name: 'email', kind: 'string', format: 'email', required: true},
    {name: 'name', kind: 'string', title: 'Name', required: true, minLength: 2},
    {name: 'site', kind: 'string', format: 'uri'},
  ],
}

let backend: FakeBackend
let answerElicitation: ReturnType<typeof vi.fn>
let answerSampling: ReturnType<typeof vi.fn>
let off: () => void

beforeEach(() => {
  useDialogs.setState(useDialogs.getInitialState(), true)
  backend = installFakeBackend()
  answerElicitation = vi.fn(async () => {})
  answerSampling = vi.fn(async () => {})
  const app = backend.Connectors as unknown as Record<string, unknown>
  app.AnswerElicitation = answerElicitation
  app.AnswerSampling = answerSampling
  off = syncDialogs()
})

afterEach(() => off())

function elicit(extra: Record<string, unknown> = {}) {
  act(() =>
    backend.emit('elicitation:needed', {
      requestId: 'e1',
      sessionId: 's1',
      connector: 'Files',
      message: 'Who are you?',
      mode: 'form',
      schema: JSON.stringify(schema),
      ...extra,
    }),
  )
}

describe('ElicitationDialog', () => {
  it('builds the form from the schema with the defaults filled in', async () => {
    render(<DialogHost />)
    elicit()
    expect(await screen.findByTestId('elicitation-dialog')).toBeInTheDocument()
    expect(screen.getByText('Who are you?')).toBeInTheDocument()
    expect(screen.getByTestId('elicitation-field-age')).toHaveValue(30)
    expect(screen.getByTestId('elicitation-field-age')).toHaveAttribute('type', 'number')
    expect(screen.getByTestId('elicitation-field-agree')).toBeChecked()
    expect(screen.getByTestId('elicitation-field-born')).toHaveAttribute('type', 'date')
    expect(screen.getByTestId('elicitation-field-color')).toHaveValue('blue')
    expect(screen.getByTestId('elicitation-field-color').tagName).toBe('SELECT')
    expect(screen.getByTestId('elicitation-field-email')).toHaveAttribute('type', 'email')
    expect(screen.getByTestId('elicitation-field-site')).toHaveAttribute('type', 'url')
    expect(screen.getByTestId('elicitation-field-name')).toHaveValue('')
  })

  it('says a field is required only once it was changed or Accept pressed, and what Decline and Cancel do', async () => {
    const user = userEvent.setup()
    render(<DialogHost />)
    elicit()
    await screen.findByTestId('elicitation-dialog')
    // Tabbing through the empty fields marks nothing.
    await user.tab()
    await user.tab()
    await user.tab()
    expect(screen.queryByTestId('elicitation-error-name')).not.toBeInTheDocument()
    expect(screen.queryByTestId('elicitation-error-email')).not.toBeInTheDocument()
    // Typing and clearing a field shows its problem.
    await user.type(screen.getByTestId('elicitation-field-name'), 'x')
    await user.clear(screen.getByTestId('elicitation-field-name'))
    expect(screen.getByTestId('elicitation-error-name')).toHaveTextContent('Name is required')
    expect(screen.queryByTestId('elicitation-error-email')).not.toBeInTheDocument()
    expect(screen.getByTestId('elicitation-choices')).toHaveTextContent("Decline tells Files you won't answer. Cancel dismisses this without an answer")
  })

  it('validates on the client before sending, then accepts with typed values', async () => {
    const user = userEvent.setup()
    render(<DialogHost />)
    elicit()
    await screen.findByTestId('elicitation-dialog')
    await user.click(screen.getByTestId('elicitation-accept'))
    expect(screen.getByTestId('elicitation-error-name')).toHaveTextContent('Name is required')
    expect(screen.getByTestId('elicitation-error-email')).toHaveTextContent('email is required')
    expect(answerElicitation).not.toHaveBeenCalled()

    await user.type(screen.getByTestId('elicitation-field-name'), 'A')
    await user.type(screen.getByTestId('elicitation-field-email'), 'not-an-email')
    await user.clear(screen.getByTestId('elicitation-field-age'))
    await user.type(screen.getByTestId('elicitation-field-age'), '200')
    await user.click(screen.getByTestId('elicitation-accept'))
    expect(screen.getByTestId('elicitation-error-name')).toHaveTextContent('at least 2 characters')
    expect(screen.getByTestId('elicitation-error-email')).toHaveTextContent('must be an email address')
    expect(screen.getByTestId('elicitation-error-age')).toHaveTextContent('at most 150')
    expect(answerElicitation).not.toHaveBeenCalled()

    await user.type(screen.getByTestId('elicitation-field-name'), 'da')
    await user.clear(screen.getByTestId('elicitation-field-email'))
    await user.type(screen.getByTestId('elicitation-field-email'), 'ada@example.com')
    await user.clear(screen.getByTestId('elicitation-field-age'))
    await user.type(screen.getByTestId('elicitation-field-age'), '36')
    await user.selectOptions(screen.getByTestId('elicitation-field-color'), 'red')
    await user.click(screen.getByTestId('elicitation-field-agree'))
    await user.click(screen.getByTestId('elicitation-accept'))
    expect(answerElicitation).toHaveBeenCalledTimes(1)
    const [id, action, content] = answerElicitation.mock.calls[0]
    expect([id, action]).toEqual(['e1', 'accept'])
    expect(JSON.parse(content as string)).toEqual({age: 36, agree: false, color: 'red', email: 'ada@example.com', name: 'Ada'})
    await waitFor(() => expect(screen.queryByTestId('elicitation-dialog')).not.toBeInTheDocument())
  })

  it('shows the backend validation error and keeps the dialog open', async () => {
    answerElicitation.mockRejectedValueOnce({kind: 'invalid', message: 'name is taken'})
    const user = userEvent.setup()
    render(<DialogHost />)
    elicit()
    await user.type(await screen.findByTestId('elicitation-field-name'), 'Ada')
    await user.type(screen.getByTestId('elicitation-field-email'), 'ada@example.com')
    await user.click(screen.getByTestId('elicitation-accept'))
    expect(await screen.findByTestId('elicitation-server-error')).toHaveTextContent('name is taken')
    expect(screen.getByTestId('elicitation-dialog')).toBeInTheDocument()
    await user.click(screen.getByTestId('elicitation-accept'))
    await waitFor(() => expect(screen.queryByTestId('elicitation-dialog')).not.toBeInTheDocument())
    expect(answerElicitation).toHaveBeenCalledTimes(2)
  })

  it('declines and cancels without content', async () => {
    const user = userEvent.setup()
    render(<DialogHost />)
    elicit()
    await user.click(await screen.findByTestId('elicitation-decline'))
    expect(answerElicitation).toHaveBeenLastCalledWith('e1', 'decline', '')
    await waitFor(() => expect(screen.queryByTestId('elicitation-dialog')).not.toBeInTheDocument())
    elicit({requestId: 'e2'})
    await user.click(await screen.findByTestId('elicitation-cancel'))
    expect(answerElicitation).toHaveBeenLastCalledWith('e2', 'cancel', '')
  })

  it('goes away with a note when the backend withdraws the question', async () => {
    render(<DialogHost />)
    elicit()
    expect(await screen.findByTestId('elicitation-dialog')).toBeInTheDocument()
    act(() => backend.emit('elicitation:closed', {requestId: 'other', reason: 'x'}))
    expect(screen.getByTestId('elicitation-dialog')).toBeInTheDocument()
    act(() => backend.emit('elicitation:closed', {requestId: 'e1', reason: 'the tool call ended before you answered'}))
    await waitFor(() => expect(screen.queryByTestId('elicitation-dialog')).not.toBeInTheDocument())
    const toast = useToasts.getState().toasts.at(-1)
    expect(toast).toMatchObject({tone: 'info', title: 'Files withdrew its question', message: 'The tool call ended before you answered.'})
    expect(answerElicitation).not.toHaveBeenCalled()
  })

  it('asks consent for a URL; Open accepts', async () => {
    const user = userEvent.setup()
    render(<DialogHost />)
    elicit({mode: 'url', schema: undefined, url: 'https://example.com/connect'})
    expect(await screen.findByTestId('elicitation-url')).toHaveTextContent('https://example.com/connect')
    expect(screen.getByTestId('elicitation-accept')).toHaveTextContent('Open')
    await user.click(screen.getByTestId('elicitation-accept'))
    expect(answerElicitation).toHaveBeenCalledWith('e1', 'accept', '')
  })
})

function sample() {
  act(() =>
    backend.emit('sampling:needed', {
      requestId: 'm1',
      sessionId: 's1',
      connector: 'Files',
      messages: [{role: 'user', text: 'Summarise the file'}],
      systemPrompt: 'Be brief.',
      maxTokens: 100,
    }),
  )
}

describe('SamplingDialog', () => {
  it('shows the prompt, approves, then shows the model answer', async () => {
    const user = userEvent.setup()
    render(<DialogHost />)
    sample()
    expect(await screen.findByTestId('sampling-dialog')).toBeInTheDocument()
    expect(screen.getByText('Summarise the file')).toBeInTheDocument()
    expect(screen.getByText('Be brief.')).toBeInTheDocument()
    await user.click(screen.getByTestId('sampling-approve'))
    expect(answerSampling).toHaveBeenCalledWith('m1', true)
    expect(screen.getByTestId('sampling-approve')).toBeDisabled()
    act(() => backend.emit('sampling:result', {requestId: 'm1', text: 'It is a list.', model: 'gemini-2.5-pro'}))
    expect(await screen.findByTestId('sampling-result')).toHaveTextContent('It is a list.')
    await user.click(screen.getByTestId('sampling-close'))
    expect(screen.queryByTestId('sampling-dialog')).not.toBeInTheDocument()
  })

  it('denies', async () => {
    const user = userEvent.setup()
    render(<DialogHost />)
    sample()
    await user.click(await screen.findByTestId('sampling-deny'))
    expect(answerSampling).toHaveBeenCalledWith('m1', false)
    await waitFor(() => expect(screen.queryByTestId('sampling-dialog')).not.toBeInTheDocument())
  })
})
