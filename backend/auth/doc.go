// Package auth keeps Maestro's credentials: API keys and OAuth tokens.
//
// Secrets live only in the OS keychain (Secret Service over D-Bus on Linux,
// Keychain on macOS, Credential Manager on Windows), reached through a
// [Keychain]. A secret never touches the bbolt store, a log line or an event
// sent to the frontend, and no error returned here contains one: errors name
// the service and account, never the value.
//
// Keychain calls fail with one of these kinds:
//   - [ErrNotFound] (a chat.ErrNotFound) when the entry does not exist, including
//     on Delete;
//   - [*UnavailableError] (a chat.ErrUnavailable) when the keychain cannot be
//     used: no D-Bus session, no Secret Service, a locked keyring, or no answer
//     within the timeout. Its Hint tells the user what to install or unlock;
//   - chat.ErrInvalid for an empty account, and chat.ErrCanceled together with
//     ctx.Err() when the caller's context ends first.
//
// Concurrency: a Keychain is immutable after [New] and safe for concurrent
// use. Each call runs the underlying go-keyring call on a goroutine of its own
// and waits for whichever comes first: the answer, the timeout (5s unless
// [WithTimeout] says otherwise) or the end of ctx. The call then returns, but
// the goroutine cannot be stopped: go-keyring has no cancellation, so it may
// stay blocked inside D-Bus (for example behind a password prompt for a
// locked keyring) until the daemon answers or the bus goes away. Its late
// answer is dropped and the goroutine exits then. For the same reason a Set
// or Delete that timed out or was canceled may still take effect afterwards.
package auth
