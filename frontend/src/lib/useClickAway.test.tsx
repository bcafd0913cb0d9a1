import {describe, expect, it, vi} from 'vitest'
import {fireEvent, render, screen} from '@testing-library/react'
import {useRef} from 'react'
import {escapeCloses, useClickAway} from './useClickAway'

function Box({open, onAway}: {open: boolean; onAway: () => void}) {
  const ref = useRef<HTMLDivElement>(null)
  useClickAway(ref, open, onAway)
  return (
    <div>
      <div ref={ref} onKeyDown={escapeCloses(open, onAway)}>
        <button type="button">inside</button>
      </div>
      <button type="button">outside</button>
    </div>
  )
}

describe('useClickAway', () => {
  it('closes on a press outside while open, not inside, not while closed', () => {
    const onAway = vi.fn()
    const r = render(<Box open onAway={onAway} />)
    fireEvent.mouseDown(screen.getByText('inside'))
    expect(onAway).not.toHaveBeenCalled()
    fireEvent.mouseDown(screen.getByText('outside'))
    expect(onAway).toHaveBeenCalledOnce()
    r.rerender(<Box open={false} onAway={onAway} />)
    fireEvent.mouseDown(screen.getByText('outside'))
    expect(onAway).toHaveBeenCalledOnce()
  })

  it('closes on Escape while open, and the key goes no further', () => {
    const onAway = vi.fn()
    const outer = vi.fn()
    render(
      <div onKeyDown={outer}>
        <Box open onAway={onAway} />
      </div>,
    )
    fireEvent.keyDown(screen.getByText('inside'), {key: 'Escape'})
    expect(onAway).toHaveBeenCalledOnce()
    expect(outer).not.toHaveBeenCalled()
  })
})
