interface Props {
  /** Shown next to the dots, e.g. "Retrying in 4 s…". */
  label?: string
}

/** Three pulsing dots: the reply has started but nothing has arrived yet. */
export function TypingIndicator({label}: Props) {
  return (
    <div className="typing" data-testid="typing-indicator" role="status" aria-label={label || 'Maestro is replying'}>
      <span className="typing-dots" aria-hidden="true">
        <span />
        <span />
        <span />
      </span>
      {label && <span className="typing-label">{label}</span>}
    </div>
  )
}
