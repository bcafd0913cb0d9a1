import {fireEvent, render, screen, within} from '@testing-library/react'
import {describe, expect, it} from 'vitest'
import {FOLD_CHARS, FOLD_ITEMS, readable, ValueView} from './ValueView'

describe('readable', () => {
  it('takes text out of a plain string or a {"text": …} result, and parses the rest', () => {
    expect(readable('"a\\nb"')).toEqual({kind: 'text', text: 'a\nb'})
    expect(readable('{"text":"# Notes\\n- one"}')).toEqual({kind: 'text', text: '# Notes\n- one'})
    expect(readable('{"text":"x","more":1}')).toEqual({kind: 'value', value: {text: 'x', more: 1}})
    expect(readable('not json {')).toEqual({kind: 'raw', text: 'not json {'})
  })
})

describe('ValueView', () => {
  it('shows a text result as Markdown, newlines and all', () => {
    render(<ValueView text={'{"text":"# Report\\n\\nAll **good**."}'} testId="v" />)
    const v = screen.getByTestId('v')
    expect(within(v).getByRole('heading', {name: 'Report'})).toBeInTheDocument()
    expect(within(v).getByText('good').tagName).toBe('STRONG')
    expect(v.textContent).not.toContain('\\n')
  })

  it('folds nested branches past two levels and opens them on a click', () => {
    render(<ValueView text={JSON.stringify({a: {b: {c: {d: 1}}}})} testId="v" />)
    const v = screen.getByTestId('v')
    const folded = within(v).getByRole('button', {expanded: false})
    expect(folded).toHaveTextContent('b1 field')
    expect(within(v).queryByText('c')).not.toBeInTheDocument()
    fireEvent.click(folded)
    expect(within(v).getByText('c')).toBeInTheDocument()
  })

  it('folds a long string and a long list until asked', () => {
    const long = 'x'.repeat(FOLD_CHARS + 100)
    const list = Array.from({length: FOLD_ITEMS + 5}, (_, i) => i)
    render(<ValueView text={JSON.stringify({long, list})} testId="v" />)
    const v = screen.getByTestId('v')
    expect(v.textContent).not.toContain(long)
    fireEvent.click(within(v).getByText(`… show all ${(FOLD_CHARS + 100).toLocaleString()} characters`))
    expect(v.textContent).toContain(long)
    expect(within(v).getByText('Show 5 more of 55')).toBeInTheDocument()
    expect(within(v).queryAllByText(String(FOLD_ITEMS))).toHaveLength(0)
    fireEvent.click(within(v).getByText('Show 5 more of 55'))
    expect(within(v).getAllByText(String(FOLD_ITEMS + 4))).toHaveLength(2) // its index and its value
  })

  it('keeps multi-line strings as lines, and text that is not JSON as it is', () => {
    const {rerender} = render(<ValueView text={JSON.stringify({stdout: 'line one\nline two'})} testId="v" />)
    expect(screen.getByText(/line one/)).toHaveClass('is-multiline')
    rerender(<ValueView text="partial {json" testId="v" />)
    expect(screen.getByTestId('v')).toHaveTextContent('partial {json')
  })
})
