// Package auth keeps Maestro's credentials: API keys and OAuth tokens, and
// the browser sign-ins that obtain the tokens. It holds every OAuth
// building block, used by both sign-ins Maestro runs: the providers'
// (Manager, here) and the MCP servers' (backend/mcp).
//
// # OAuth building blocks
//
// Each exists once, here:
//   - the loopback listener: [ListenLoopback] binds it, [ServeCallback]
//     answers one path, checks the state (400 "State mismatch" otherwise,
//     and the sign-in keeps waiting), hands the redirect's query to its
//     Deliver and shows the browser the outcome; [RedirectError] puts a
//     refusal into words;
//   - PKCE and state: [PKCE], [NewPKCE], [NewState];
//   - the token request (postToken): the providers' flows post their
//     documented bodies through it, and [Client] posts the standard RFC
//     6749 ones (code exchange, client credentials, refresh) with the RFC
//     8707 resource and the client's authentication;
//   - the refreshing transport: a [SavingTokenSource] (refresh early, one
//     refresh in flight, every rotated token saved whole) behind a
//     [Transport] (on a 401, refresh once and replay);
//   - the keychain token store: [TokenStore], one JSON record per account,
//     written whole in one Set, over the [Keychain] (or any [SecretStore]).
//
// backend/mcp owns what only MCP does and calls these for the rest:
// WWW-Authenticate challenges and step-up (insufficient_scope), protected
// resource and authorization server metadata discovery, the choice of
// client (pre-registered, Client ID Metadata Document, dynamic
// registration), and the Authorizer seam with its LoopbackAuthorizer.
//
// # Keychain
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
// Entries, per provider (chat.ProviderGemini, ProviderAnthropic,
// ProviderOpenAI): "oauth:<provider>" holds one JSON object with the tokens
// and what the sign-in learned (email, plan, ChatGPT account id, Gemini
// project); "apikey:<provider>" holds the key. A refreshed token is written
// back whole in one Set, so a rotated refresh token and its access token
// are never half written.
//
// # Sign-in
//
// A [Manager] runs the browser sign-ins described in the Sign-in section
// of each docs/providers file: ChatGPT (docs/providers/openai.md §Sign-in:
// PKCE S256, loopback 127.0.0.1:1455 falling back to 1457, redirect
// http://localhost:PORT/auth/callback, form exchange, account from the
// id_token, JSON refresh with single-use refresh tokens), Claude
// (docs/providers/anthropic.md §Sign-in: PKCE, independent state, loopback
// on a free port and the code#state paste flow, JSON exchange with state)
// and Gemini (docs/providers/gemini.md §Sign-in: loopback on 127.0.0.1 and
// a free port with PKCE added, form exchange with the client secret, then
// the Code Assist project from loadCodeAssist and, for a new user,
// onboardUser and its long-running operation). Every listener binds a
// loopback address only, answers one path, checks the state (400 "State
// mismatch" otherwise), and closes after the callback, on CancelLogin or
// Close, or after five minutes (docs/providers/README.md §Sign-in). The
// browser is opened through the injected OpenURL. Every URL comes from
// [Endpoints] ([EndpointsFromEnv]).
//
// [Manager.Credentials] hands an adapter an API key or an *http.Client
// whose [Transport] takes tokens from a [SavingTokenSource]: refreshed
// [RefreshEarly] before expiry, once more after a 401 (and the request
// replayed), one refresh in flight, each result saved. A refresh token that
// is expired, revoked or reused is a chat.ErrAuthRequired saying "sign in
// to <Provider> again".
//
// # Concurrency
//
// A Keychain is immutable after [New] and safe for concurrent use. Each call
// runs the underlying go-keyring call on a goroutine of its own and waits
// for whichever comes first: the answer, the timeout (5s unless
// [WithTimeout] says otherwise) or the end of ctx. The call then returns,
// but the goroutine cannot be stopped: go-keyring has no cancellation, so
// it may stay blocked inside D-Bus (for example behind a password prompt
// for a locked keyring) until the daemon answers or the bus goes away. Its
// late answer is dropped and the goroutine exits then. For the same reason
// a Set or Delete that timed out or was canceled may still take effect
// afterwards.
//
// A Manager is safe for concurrent use. Each login runs on one goroutine
// the Manager starts and tracks; it ends with exactly one terminal
// LoginUpdate, after which its listener is closed. Notify is called from
// login goroutines, never with a lock held. Per provider, one mutex
// serializes keychain writes (sign-in, refresh save, sign-out, API key), so
// a refresh that finishes after a sign-out or a new sign-in is not saved.
// A SavingTokenSource runs each refresh on a goroutine detached from its
// callers (a rotated refresh token must be saved even if the caller gave
// up), bounded by a timeout; Close cancels the logins and waits for them
// and for refreshes in flight. A Callback serves on one goroutine of its
// own, which Close ends (letting a page being written finish). A Client
// and a TokenStore are values with no state of their own, safe for
// concurrent use.
package auth
