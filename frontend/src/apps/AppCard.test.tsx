import {describe, expect, it, vi} from 'vitest'
import {fireEvent, render, screen, waitFor} from '@testing-library/react'
import {AppCard, type AppCardProps} from './AppCard'
import {withCsp} from './proxy'

const resource = {
  uri: 'ui://t/app.html',
  html: '<!DOCTYPE html><html><head></head><body><button>go</button></body></html>',
  csp: {connectDomains: ['https://api.example.com']},
}

function props(over: Partial<AppCardProps> = {}): AppCardProps {
  return {
    toolName: 'get-time',
    toolInput: {},
    loadResource: () => Promise.resolve(resource),
    theme: 'light',
    callbacks: {callTool: vi.fn(), draft: vi.fn(), openLink: vi.fn()},
    fallback: <pre>the text result</pre>,
    ...over,
  }
}

describe('AppCard', () => {
  it('renders the view in a sandbox proxy that is never same-origin with Maestro', async () => {
    render(<AppCard {...props()} />)
    const frame = (await screen.findByTitle('App ui://t/app.html')) as HTMLIFrameElement
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts')
    const doc = frame.getAttribute('srcdoc')!
    expect(doc).toContain('Content-Security-Policy')
    expect(doc).toContain('connect-src https://api.example.com')
    expect(doc).toContain("inner.setAttribute('sandbox', SANDBOX)")
    expect(doc).toContain('"allow-scripts allow-forms"')
    expect(doc).not.toContain('allow-same-origin')
    expect(doc).not.toContain('frame-src')
  })

  it('shows the static fallback when the UI cannot be had', async () => {
    render(<AppCard {...props({loadResource: () => Promise.reject(new Error('the connector no longer exists'))})} />)
    expect(await screen.findByText('the text result')).toBeInTheDocument()
    expect(screen.getByText(/the connector no longer exists/)).toBeInTheDocument()
    expect(screen.queryByTestId('app-card')).toBeNull()
  })

  it('expands to a larger panel and back without reloading the view', async () => {
    render(<AppCard {...props()} />)
    const frame = await screen.findByTitle('App ui://t/app.html')
    fireEvent.click(screen.getByRole('button', {name: 'Expand the app'}))
    await waitFor(() => expect(screen.getByTestId('app-card')).toHaveClass('expanded'))
    expect(screen.getByTitle('App ui://t/app.html')).toBe(frame)
    fireEvent.click(screen.getByRole('button', {name: 'Collapse the app'}))
    await waitFor(() => expect(screen.getByTestId('app-card')).not.toHaveClass('expanded'))
  })
})

describe('withCsp', () => {
  it.each([
    ['a head', '<html><head><title>x</title></head></html>', /^<html><head><meta http-equiv="Content-Security-Policy"/],
    ['no head', '<html><body>x</body></html>', /^<html><head><meta http-equiv/],
    ['a fragment', '<p>x</p>', /^<!DOCTYPE html><html><head><meta http-equiv/],
  ])('puts the policy first with %s', (_, html, want) => {
    expect(withCsp(html, "default-src 'none'")).toMatch(want)
  })

  it('escapes the policy into its attribute', () => {
    expect(withCsp('<head></head>', '"><script>')).toContain('content="&quot;&gt;&lt;script&gt;"')
  })
})
