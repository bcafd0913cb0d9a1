import {describe, expect, it} from 'vitest'
import {protectDollars} from './mathText'

describe('protectDollars', () => {
  it.each([
    ['It costs $5 and $10 a month.', 'It costs \\$5 and \\$10 a month.'],
    ['Euler: $e^{i\\pi}+1=0$.', 'Euler: $e^{i\\pi}+1=0$.'],
    ['A price of $3.50, and $x$ the unknown', 'A price of \\$3.50, and $x$ the unknown'],
    ['$$\\int x\\,dx$$', '$$\n\\int x\\,dx\n$$'],
    ['  $$ a^2 + b^2 = c^2 $$ ', '  $$\n  a^2 + b^2 = c^2\n  $$'],
    ['$$a$$ and $$b$$', '$$a$$ and $$b$$'],
    ['    $$code$$', '    $$code$$'],
    ['cost $ 5', 'cost \\$ 5'],
    ['`$HOME $PATH` stays', '`$HOME $PATH` stays'],
    ['already \\$5', 'already \\$5'],
    ['$2x+1$ is linear', '$2x+1$ is linear'],
    ['Pay $1,200.', 'Pay \\$1,200.'],
  ])('%s', (input, want) => {
    expect(protectDollars(input)).toBe(want)
  })

  it('leaves fenced code alone', () => {
    const text = 'Run:\n```sh\necho $HOME and $USER\n```\nIt costs $5.'
    expect(protectDollars(text)).toBe('Run:\n```sh\necho $HOME and $USER\n```\nIt costs \\$5.')
  })
})
