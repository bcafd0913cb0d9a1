import {screen, waitFor} from '@testing-library/react'
import {describe, expect, it} from 'vitest'
import {renderApp} from '../../test/render'

describe('Settings', () => {
  it('chooses the model new chats start on, or the one last used', async () => {
    const {backend, user} = await renderApp()
    await user.click(screen.getByTestId('nav-settings'))
    const select = await screen.findByTestId('settings-default-model')
    await waitFor(() => expect(select).toBeEnabled())
    expect(select).toHaveValue('')
    // Only providers with credentials are offered (DEFAULT_MODELS: ChatGPT is signed out).
    expect(screen.queryByRole('option', {name: 'GPT-5'})).not.toBeInTheDocument()
    await user.selectOptions(select, 'gemini/gemini-2.5-flash')
    expect(backend.App.SetDefaultModel).toHaveBeenCalledWith('gemini', 'gemini-2.5-flash')
    await user.selectOptions(select, '')
    expect(backend.App.SetDefaultModel).toHaveBeenLastCalledWith('', '')
  })
})
