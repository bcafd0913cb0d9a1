// Package export renders a chat session for the user to keep: Markdown to
// read, or JSON (format maestro.session.v1) for other tools. What leaves
// Maestro this way is what the conversation said, never a secret: no
// provider data (signatures, encrypted reasoning), no provider call ids,
// no raw tool results beyond the {successful, data, error} envelope the
// model saw, no connectors, grants or folders of the session, and no
// superseded attempts.
//
// Write takes the messages as an iterator and writes each as it comes, so
// a caller that reads a session's history a message at a time (a long
// session streamed from the store) never holds the whole export.
//
// Concurrency: the package has no state; Write uses only its arguments.
package export
