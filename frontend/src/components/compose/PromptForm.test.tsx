import {render, screen, waitFor} from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import {describe, expect, it, vi} from 'vitest'
import {PromptForm} from './PromptForm'
import type {Prompt} from './types'

const prompt: Prompt = {
  connectorId: 'e',
  server: 'Everything',
  name: 'completable-prompt',
  description: 'Pick a department',
  arguments: [
    {name: 'department', description: 'Which one', required: true},
    {name: 'name', required: false},
  ],
}

const departments = ['Engineering', 'Marketing', 'Sales', 'Support']

describe('PromptForm', () => {
  it('asks completions as the user types, debounced, with the other arguments as context', async () => {
    const user = userEvent.setup()
    const complete = vi.fn(async (_name: string, value: string) => departments.filter((d) => d.toLowerCase().startsWith(value.toLowerCase())))
    render(<PromptForm prompt={prompt} complete={complete} onSubmit={async () => {}} onCancel={() => {}} />)
    const field = screen.getByTestId('field-department')
    expect(field).toHaveFocus()
    await user.type(field, 'Eng')
    await waitFor(() => expect(complete).toHaveBeenLastCalledWith('department', 'Eng', {}))
    await screen.findByRole('button', {name: 'Engineering'})
    expect(screen.queryByRole('button', {name: 'Sales'})).toBeNull()
    // One question for the three keystrokes typed faster than the pause.
    expect(complete.mock.calls.filter(([, v]) => v !== '').map(([, v]) => v)).toEqual(['Eng'])
    await user.click(screen.getByRole('button', {name: 'Engineering'}))
    expect(field).toHaveValue('Engineering')
    await user.type(screen.getByTestId('field-name'), 'Ada')
    await waitFor(() => expect(complete).toHaveBeenLastCalledWith('name', 'Ada', {department: 'Engineering'}))
  })

  it('keeps Insert off until every required argument is filled, then sends the filled ones', async () => {
    const user = userEvent.setup()
    const onSubmit = vi.fn(async () => {})
    render(<PromptForm prompt={prompt} onSubmit={onSubmit} onCancel={() => {}} />)
    expect(screen.getByTestId('prompt-insert')).toBeDisabled()
    expect(screen.getByTestId('prompt-missing')).toHaveTextContent('Needs department')
    await user.type(screen.getByTestId('field-department'), '  ')
    expect(screen.getByTestId('prompt-insert')).toBeDisabled()
    await user.type(screen.getByTestId('field-department'), 'Sales{Enter}')
    expect(onSubmit).toHaveBeenCalledWith({department: '  Sales'})
  })

  it("shows the server's refusal in the form and keeps what was typed", async () => {
    const user = userEvent.setup()
    const onSubmit = vi.fn(async () => {
      throw new Error('prompt "completable-prompt": the Everything server said: Invalid department')
    })
    render(<PromptForm prompt={prompt} onSubmit={onSubmit} onCancel={() => {}} />)
    await user.type(screen.getByTestId('field-department'), 'Nope')
    await user.click(screen.getByTestId('prompt-insert'))
    expect(await screen.findByTestId('prompt-error')).toHaveTextContent('Invalid department')
    expect(screen.getByTestId('field-department')).toHaveValue('Nope')
    expect(screen.getByTestId('prompt-insert')).toBeEnabled()
  })

  it('drops a late answer to an older question', async () => {
    const user = userEvent.setup()
    const pending: Array<(v: string[]) => void> = []
    const complete = vi.fn(() => new Promise<string[]>((res) => pending.push(res)))
    render(<PromptForm prompt={prompt} complete={complete} onSubmit={async () => {}} onCancel={() => {}} />)
    const field = screen.getByTestId('field-department')
    await waitFor(() => expect(pending.length).toBe(1)) // the empty value, on focus
    await user.type(field, 'S')
    await waitFor(() => expect(pending.length).toBe(2))
    pending[1](['Sales', 'Support'])
    await screen.findByRole('button', {name: 'Sales'})
    pending[0](['Engineering']) // the first question's answer, arriving last
    await new Promise((r) => setTimeout(r, 20))
    expect(screen.queryByRole('button', {name: 'Engineering'})).toBeNull()
  })

  it('cancels on Escape', async () => {
    const user = userEvent.setup()
    const onCancel = vi.fn()
    render(<PromptForm prompt={{...prompt, arguments: []}} onSubmit={async () => {}} onCancel={onCancel} />)
    expect(screen.getByTestId('prompt-insert')).toBeEnabled()
    await user.keyboard('{Escape}')
    expect(onCancel).toHaveBeenCalled()
  })
})
