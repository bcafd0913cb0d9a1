import type {ReactNode} from 'react'
import {codeLanguage, hastText} from '../../lib/hast'
import {CopyButton} from '../CopyButton'

interface Props {
  /** The hast <pre> element react-markdown passes along. */
  node?: unknown
  children: ReactNode
}

/** A fenced code block: a header with its language and Copy, then the code. */
export function CodeBlock({node, children}: Props) {
  const hast = node as Parameters<typeof hastText>[0]
  const lang = codeLanguage(hast)
  const text = hastText(hast).replace(/\n$/, '')
  return (
    <div className="code-block" data-testid="code-block" data-language={lang || undefined}>
      <div className="code-block-header">
        <span className="code-block-lang">{lang || 'text'}</span>
        <CopyButton text={text} label="code" variant="ghost" />
      </div>
      <pre className="code-block-pre">{children}</pre>
    </div>
  )
}
