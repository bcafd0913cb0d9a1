import {afterEach, describe, expect, it} from 'vitest'
import {act, render, screen} from '@testing-library/react'
import {forgetKept, MAX_KEPT, useKept} from './useKept'

function Toggle({k}: {k?: string}) {
  const [open, setOpen] = useKept(k, false)
  return (
    <button type="button" onClick={() => setOpen((o) => !o)}>
      {open ? 'open' : 'closed'}
    </button>
  )
}

describe('useKept', () => {
  afterEach(forgetKept)

  it('comes back as it was left after an unmount, by key', () => {
    const r = render(<Toggle k="card:1" />)
    act(() => screen.getByRole('button').click())
    expect(screen.getByRole('button')).toHaveTextContent('open')
    r.unmount()
    render(<Toggle k="card:1" />)
    expect(screen.getByRole('button')).toHaveTextContent('open')
  })

  it('keeps nothing without a key, and another key starts fresh', () => {
    const r = render(<Toggle />)
    act(() => screen.getByRole('button').click())
    r.unmount()
    const again = render(<Toggle />)
    expect(screen.getByRole('button')).toHaveTextContent('closed')
    again.unmount()
    render(<Toggle k="card:2" />)
    expect(screen.getByRole('button')).toHaveTextContent('closed')
  })

  it('forgets the oldest past its bound', () => {
    const r = render(<Toggle k="first" />)
    act(() => screen.getByRole('button').click())
    r.unmount()
    for (let i = 0; i < MAX_KEPT; i++) {
      const x = render(<Toggle k={`k${i}`} />)
      act(() => screen.getByRole('button').click())
      x.unmount()
    }
    render(<Toggle k="first" />)
    expect(screen.getByRole('button')).toHaveTextContent('closed')
  })
})
