import {render, screen} from '@testing-library/react'
import {describe, expect, it} from 'vitest'
import {Markdown} from './Markdown'

describe('Markdown math', () => {
  it('renders $…$ inline and $$…$$ as a block with KaTeX', () => {
    render(<Markdown text={'Euler: $e^{i\\pi} + 1 = 0$.\n\n$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$'} testId="md" />)
    const md = screen.getByTestId('md')
    expect(md.querySelectorAll('.katex')).toHaveLength(2)
    expect(md.querySelector('.katex-display')).not.toBeNull()
    // MathML for screen readers, and the source kept as the annotation.
    expect(md.querySelector('annotation')?.textContent).toBe('e^{i\\pi} + 1 = 0')
  })

  it('renders a one-line $$…$$ paragraph as a block, as models write it', () => {
    render(<Markdown text={'The area is\n\n$$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$\n\nindeed.'} testId="md" />)
    const md = screen.getByTestId('md')
    expect(md.querySelectorAll('.katex-display')).toHaveLength(1)
    expect(md.querySelector('annotation')?.textContent).toBe('\\int_0^1 x^2\\,dx = \\frac{1}{3}')
  })

  it('leaves dollar amounts and code alone', () => {
    render(<Markdown text={'It costs $5 and $10 a month. `echo $HOME $PATH`'} testId="md" />)
    const md = screen.getByTestId('md')
    expect(md.querySelector('.katex')).toBeNull()
    expect(md).toHaveTextContent('It costs $5 and $10 a month.')
    expect(md.querySelector('code')).toHaveTextContent('echo $HOME $PATH')
  })

  it('shows bad math as its source instead of failing the message', () => {
    render(<Markdown text={'Broken: $\\frac{1}{$ and fine text.'} testId="md" />)
    expect(screen.getByTestId('md')).toHaveTextContent('and fine text')
  })
})
