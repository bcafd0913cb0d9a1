import type {ReactNode} from 'react'

interface Props {
  title: string
  description: string
  children: ReactNode
  testId?: string
}

/** The frame of a full-page view: a header and a centred column. */
export function Page({title, description, children, testId}: Props) {
  return (
    <section className="page" aria-label={title} data-testid={testId}>
      <header className="pane-header">
        <h1 className="pane-title">{title}</h1>
      </header>
      <div className="page-scroll">
        <div className="page-body">
          <p className="page-description">{description}</p>
          {children}
        </div>
      </div>
    </section>
  )
}
