import {render, screen, waitFor} from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import {describe, expect, it, vi} from 'vitest'
import {InstructionsDialog} from '../dialogs/InstructionsDialog'
import {DiagnosticsSection} from './DiagnosticsSection'
import {
  ApprovalDefaultValue,
  BaseURLsValue,
  baseURLProblem,
  CompactValue,
  InstructionsValue,
  LogLevelValue,
  MAX_INSTRUCTIONS,
} from './SettingsPrefs'

const refused = (message: string) => vi.fn(async () => Promise.reject({kind: 'invalid', message}))

describe('Settings rows', () => {
  it('saves the default instructions only when changed and under 32 KiB, and shows a refusal', async () => {
    const user = userEvent.setup()
    const onSave = vi.fn(async () => {})
    const {rerender} = render(<InstructionsValue value="Be brief." onSave={onSave} />)
    const save = screen.getByTestId('settings-instructions-save')
    expect(save).toBeDisabled()
    const area = screen.getByTestId('settings-instructions')
    await user.type(area, ' Use metric units.')
    await user.click(save)
    expect(onSave).toHaveBeenCalledWith('Be brief. Use metric units.')

    rerender(<InstructionsValue value="Be brief." onSave={refused('the instructions are 40 KiB; at most 32 KiB of text')} />)
    await user.clear(area)
    await user.click(area)
    await user.paste('x'.repeat(MAX_INSTRUCTIONS + 1))
    expect(screen.getByTestId('settings-instructions-count')).toHaveTextContent('33 KiB: at most 32 KiB')
    expect(save).toBeDisabled()
    await user.clear(area)
    await user.type(area, 'ok')
    await user.click(save)
    expect(await screen.findByTestId('settings-instructions-error')).toHaveTextContent('at most 32 KiB of text')
    expect(area).toHaveValue('ok') // kept for another try
  })

  it('picks the approval default and the log level', async () => {
    const user = userEvent.setup()
    const approval = vi.fn(async () => {})
    render(<ApprovalDefaultValue value="ask" onSave={approval} />)
    expect(screen.getByTestId('settings-approval-ask')).toHaveAttribute('aria-checked', 'true')
    await user.click(screen.getByTestId('settings-approval-ask'))
    expect(approval).not.toHaveBeenCalled()
    await user.click(screen.getByTestId('settings-approval-read_only'))
    expect(approval).toHaveBeenCalledWith('read_only')

    const level = refused('the log level is debug, info, warn or error, not "x"')
    render(<LogLevelValue value="info" onSave={level} />)
    await user.selectOptions(screen.getByTestId('settings-log-level'), 'debug')
    expect(level).toHaveBeenCalledWith('debug')
    expect(await screen.findByTestId('settings-log-level-error')).toHaveTextContent('not "x"')
  })

  it('bounds the compaction threshold and saves on Enter or leaving the field', async () => {
    const user = userEvent.setup()
    const onSave = vi.fn(async () => {})
    render(<CompactValue value={80} onSave={onSave} />)
    const input = screen.getByTestId('settings-compact')
    await user.clear(input)
    await user.type(input, '99{Enter}')
    expect(screen.getByTestId('settings-compact-error')).toHaveTextContent('Between 30 % and 95 %.')
    expect(onSave).not.toHaveBeenCalled()
    await user.clear(input)
    await user.type(input, '70{Enter}')
    expect(onSave).toHaveBeenCalledWith(70)
  })

  it.each([
    ['', ''],
    ['https://proxy.example.com/v1', ''],
    ['http://localhost:8080', ''],
    ['http://127.0.0.1:9', ''],
    ['http://proxy.example.com', 'http is allowed only for localhost; use https'],
    ['https://user:sk-secret@proxy.example.com', 'No user, password, query or fragment'],
    ['https://proxy.example.com/?key=1', 'No user, password, query or fragment'],
    ['proxy', 'Not a URL like https://host'],
    ['ftp://proxy.example.com', 'Use https'],
  ])('says what is wrong with base URL %j', (raw, want) => {
    expect(baseURLProblem(raw)).toBe(want)
  })

  it('saves base URLs when valid and says the next request uses them', async () => {
    const user = userEvent.setup()
    const onSave = vi.fn(async () => {})
    const providers = [
      {id: 'openai', name: 'OpenAI', placeholder: 'https://api.openai.com'},
      {id: 'gemini', name: 'Gemini', placeholder: 'https://generativelanguage.googleapis.com'},
    ]
    render(<BaseURLsValue providers={providers} value={{}} onSave={onSave} />)
    const save = screen.getByTestId('settings-base-urls-save')
    await user.type(screen.getByTestId('settings-base-url-openai'), 'http://proxy.example.com')
    expect(screen.getByText('http is allowed only for localhost; use https')).toBeInTheDocument()
    expect(save).toBeDisabled()
    await user.clear(screen.getByTestId('settings-base-url-openai'))
    await user.type(screen.getByTestId('settings-base-url-openai'), 'https://proxy.example.com')
    await user.click(save)
    expect(onSave).toHaveBeenCalledWith({openai: 'https://proxy.example.com'})
    expect(screen.getByTestId('settings-base-urls-note')).toHaveTextContent('Saved. The next request uses them.')
  })
})

describe('Diagnostics', () => {
  it('shows the report it will copy, and the reason when it cannot build one', async () => {
    const user = userEvent.setup()
    const load = vi.fn().mockResolvedValueOnce('Maestro diagnostics\n\nMaestro:   1.2.3').mockRejectedValueOnce({message: 'the data file is closed'})
    render(<DiagnosticsSection load={load} />)
    expect(await screen.findByTestId('diagnostics-text')).toHaveTextContent('Maestro: 1.2.3')
    expect(screen.getByTestId('diagnostics-copy')).toBeInTheDocument()
    await user.click(screen.getByTestId('diagnostics-refresh'))
    expect(await screen.findByTestId('diagnostics-error')).toHaveTextContent("Couldn't build the diagnostics: the data file is closed")
  })
})

describe('InstructionsDialog', () => {
  it('edits the chat instructions, offers the default ones, and keeps the text on a refusal', async () => {
    const user = userEvent.setup()
    const onClose = vi.fn()
    const onSave = vi.fn().mockRejectedValueOnce({message: 'the session is gone'}).mockResolvedValueOnce(undefined)
    render(<InstructionsDialog value="" defaults="Answer in French." onSave={onSave} onClose={onClose} />)
    const area = screen.getByTestId('instructions-text')
    await waitFor(() => expect(area).toHaveFocus())
    await user.click(screen.getByTestId('instructions-defaults'))
    expect(area).toHaveValue('Answer in French.')
    await user.type(area, ' Be brief.  ')
    await user.click(screen.getByTestId('instructions-save'))
    expect(await screen.findByTestId('instructions-error')).toHaveTextContent('the session is gone')
    expect(onClose).not.toHaveBeenCalled()
    await user.click(screen.getByTestId('instructions-save'))
    expect(onSave).toHaveBeenLastCalledWith('Answer in French. Be brief.')
    await waitFor(() => expect(onClose).toHaveBeenCalled())
  })
})
