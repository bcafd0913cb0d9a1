import {screen, waitFor, within} from '@testing-library/react'
import {describe, expect, it} from 'vitest'
import {renderApp} from '../test/render'

describe('first run', () => {
  it('leads with three steps, each a button, until they are done', async () => {
    const {backend, user} = await renderApp()
    const list = await screen.findByTestId('first-run')
    expect(list).toHaveTextContent('Three steps to your first chat')
    for (const id of ['account', 'connector', 'chat']) expect(screen.getByTestId(`first-run-${id}`)).toHaveAttribute('data-done', 'false')
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument()
    await user.click(within(list).getByTestId('first-run-accounts'))
    expect(screen.getByTestId('accounts-page')).toBeInTheDocument()
    expect(backend.Accounts.List).toHaveBeenCalled()
  })

  it('ticks what is done and keeps leading to the rest', async () => {
    const {backend, user} = await renderApp({accounts: [{provider: 'gemini', method: 'apikey'}]})
    const list = await screen.findByTestId('first-run')
    await waitFor(() => expect(screen.getByTestId('first-run-account')).toHaveAttribute('data-done', 'true'))
    expect(screen.getByTestId('first-run-connector')).toHaveAttribute('data-done', 'false')
    expect(list).toHaveTextContent('2 steps to go')
    await user.click(within(list).getByTestId('start-chat'))
    expect(backend.Sessions.Create).toHaveBeenCalled()
  })
})
