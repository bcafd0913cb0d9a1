import {render} from '@testing-library/react'
import {describe, expect, it} from 'vitest'
import {highlightJson} from './highlight'

describe('highlightJson', () => {
  it('marks keys, strings and numbers', () => {
    const {container} = render(<code>{highlightJson('{\n  "city": "Lisbon",\n  "days": 3\n}')}</code>)
    expect(container.querySelector('.hljs-attr')).toHaveTextContent('"city"')
    expect(container.querySelector('.hljs-string')).toHaveTextContent('"Lisbon"')
    expect(container.querySelector('.hljs-number')).toHaveTextContent('3')
    expect(container.textContent).toBe('{\n  "city": "Lisbon",\n  "days": 3\n}')
  })
})
