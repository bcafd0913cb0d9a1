import {render, screen} from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import {useState} from 'react'
import {describe, expect, it, vi} from 'vitest'
import {PromptMenu} from './PromptMenu'
import {filterPrompts, slashQuery} from './promptFilter'
import type {Prompt} from './types'
import {useMenuKeys} from './useMenuKeys'

const prompts: Prompt[] = [
  {connectorId: 'e', server: 'Everything', name: 'simple-prompt', description: 'A prompt without arguments', arguments: []},
  {connectorId: 'e', server: 'Everything', name: 'args-prompt', title: 'Arguments', arguments: [{name: 'city', required: true}]},
  {connectorId: 'e', server: 'Everything', name: 'resource-prompt', arguments: []},
]

/** A text box with the menu as the composer hosts it. */
function Host({onPick}: {onPick: (p: Prompt) => void}) {
  const [text, setText] = useState('')
  const q = slashQuery(text)
  const shown = q === null ? [] : filterPrompts(prompts, q)
  const keys = useMenuKeys(shown.length, q, (i) => onPick(shown[i]), () => setText(''))
  return (
    <>
      {q !== null && <PromptMenu prompts={shown} active={keys.active} onHover={keys.setActive} onPick={onPick} />}
      <textarea aria-label="Message" value={text} onChange={(e) => setText(e.target.value)} onKeyDown={(e) => q !== null && keys.onKeyDown(e)} />
    </>
  )
}

describe('PromptMenu', () => {
  it('opens on "/", filters as the user types, and picks with the arrow keys and Enter', async () => {
    const user = userEvent.setup()
    const onPick = vi.fn()
    render(<Host onPick={onPick} />)
    const box = screen.getByRole('textbox', {name: 'Message'})
    expect(screen.queryByTestId('prompt-menu')).toBeNull()
    await user.type(box, '/')
    expect(screen.getAllByTestId('prompt-option').map((o) => o.dataset.prompt)).toEqual(['simple-prompt', 'args-prompt', 'resource-prompt'])
    await user.type(box, 'pro')
    expect(screen.getAllByRole('option')[0]).toHaveAttribute('aria-selected', 'true')
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}') // wraps round to the first
    expect(screen.getAllByRole('option')[0]).toHaveAttribute('aria-selected', 'true')
    await user.keyboard('{ArrowUp}') // and back to the last
    expect(screen.getAllByRole('option')[2]).toHaveAttribute('aria-selected', 'true')
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}')
    expect(onPick).toHaveBeenCalledWith(prompts[1])
    expect(box).toHaveValue('/pro') // Enter picked; it did not reach the text box
  })

  it('shows the server, the title and the description of each prompt', async () => {
    const user = userEvent.setup()
    render(<Host onPick={() => {}} />)
    await user.type(screen.getByRole('textbox'), '/args')
    const option = screen.getByTestId('prompt-option')
    expect(option).toHaveTextContent('/args-prompt')
    expect(option).toHaveTextContent('Arguments')
    expect(option).toHaveTextContent('Everything')
  })

  it('says when nothing matches and closes on Escape', async () => {
    const user = userEvent.setup()
    render(<Host onPick={() => {}} />)
    await user.type(screen.getByRole('textbox'), '/zzz')
    expect(screen.getByTestId('prompt-menu-empty')).toHaveTextContent('No prompt matches')
    await user.keyboard('{Escape}')
    expect(screen.queryByTestId('prompt-menu')).toBeNull()
  })

  it('picks with a click', async () => {
    const user = userEvent.setup()
    const onPick = vi.fn()
    render(<Host onPick={onPick} />)
    await user.type(screen.getByRole('textbox'), '/')
    await user.click(screen.getAllByTestId('prompt-option')[2])
    expect(onPick).toHaveBeenCalledWith(prompts[2])
  })

  it('names the connectors that could not list their prompts', () => {
    render(<PromptMenu prompts={[]} active={0} onHover={() => {}} onPick={() => {}} unavailable={['Git: starting']} />)
    expect(screen.getByTestId('prompt-menu-unavailable')).toHaveTextContent('Git: starting')
  })
})
