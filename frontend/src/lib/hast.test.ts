import {describe, expect, it} from 'vitest'
import {codeLanguage, hastText} from './hast'

const pre = {
  type: 'element',
  tagName: 'pre',
  children: [
    {
      type: 'element',
      tagName: 'code',
      properties: {className: ['hljs', 'language-go']},
      children: [
        {type: 'element', tagName: 'span', properties: {className: ['hljs-keyword']}, children: [{type: 'text', value: 'func'}]},
        {type: 'text', value: ' main() {}\n'},
      ],
    },
  ],
}

describe('hast helpers', () => {
  it('collects the text of highlighted code', () => {
    expect(hastText(pre)).toBe('func main() {}\n')
    expect(hastText(undefined)).toBe('')
  })

  it('finds the language of a code block', () => {
    expect(codeLanguage(pre)).toBe('go')
    expect(codeLanguage({tagName: 'pre', children: [{tagName: 'code', properties: {}}]})).toBe('')
  })
})
