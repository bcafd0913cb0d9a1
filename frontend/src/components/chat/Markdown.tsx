import {memo} from 'react'
import ReactMarkdown, {type Components} from 'react-markdown'
import rehypeHighlight from 'rehype-highlight'
import rehypeKatex from 'rehype-katex'
import remarkGfm from 'remark-gfm'
import remarkMath from 'remark-math'
import 'katex/dist/katex.min.css'
import {openExternal} from '../../api/client'
import {protectDollars} from '../../lib/mathText'
import {CodeBlock} from './CodeBlock'

// $…$ and $$…$$ are math (KaTeX); a dollar amount stays text
// (protectDollars, lib/mathText.ts).
const remarkPlugins = [remarkGfm, remarkMath]
// Highlight fenced code that names its language; unknown names stay plain.
// Math a model gets wrong renders as its source in red, not as an error.
const rehypePlugins: NonNullable<Parameters<typeof ReactMarkdown>[0]['rehypePlugins']> = [
  [rehypeHighlight, {detect: false, plainText: ['text', 'txt', 'plain', 'plaintext']}],
  [rehypeKatex, {throwOnError: false, strict: false, output: 'htmlAndMathml'}],
]

const components: Components = {
  pre: ({node, children}) => <CodeBlock node={node}>{children}</CodeBlock>,
  // Links open in the system browser; the app window never navigates away.
  a: ({href, children}) => (
    <a
      href={href}
      title={href}
      onClick={(e) => {
        e.preventDefault()
        if (href) openExternal(href)
      }}
    >
      {children}
    </a>
  ),
  // Remote images are not fetched; they are offered as links.
  img: ({src, alt}) =>
    typeof src === 'string' && src ? (
      <a href={src} title={src} onClick={(e) => (e.preventDefault(), openExternal(src))}>
        {alt || 'image'}
      </a>
    ) : null,
  table: ({children}) => (
    <div className="md-table-wrap">
      <table>{children}</table>
    </div>
  ),
}

interface Props {
  text: string
  className?: string
  testId?: string
}

/** Markdown (GFM) with highlighted code blocks and KaTeX math. Raw HTML is not rendered. */
export const Markdown = memo(function Markdown({text, className, testId}: Props) {
  return (
    <div className={className ? `markdown ${className}` : 'markdown'} data-testid={testId}>
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {protectDollars(text)}
      </ReactMarkdown>
    </div>
  )
})
