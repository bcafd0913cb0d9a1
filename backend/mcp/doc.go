// Package mcp is Maestro's MCP side, servers only: the connectors (MCP
// server configs) and the Supervisor that runs them, their processes and
// links, tool calls, the importer of other apps' server files, the client
// features servers use (sampling, elicitation, roots, logging, progress)
// behind small interfaces, and OAuth for remote servers. Which tools a
// session has, what each provider calls them and how their results read
// to a model is backend/tools': the supervisor reports every server's tool
// list to a ToolSink (the tools.Registry) and routes calls by a
// tools.Snapshot.
//
// # Connectors and the supervisor
//
// A Connector is one server's config: stdio (command, args, env, working
// directory), streamable HTTP or SSE (url, headers, optional OAuth), or an
// in-process Go server. The Supervisor stores configs through a
// ConnectorStore (backend/store) with the secret values (env and header
// values, the secret parts of arguments, client secrets) in a SecretStore
// (the keychain), never in the store: an argument keeps a ${secret:N}
// reference in place of its secret (argsecrets.go), and only the process
// gets the value. ParseServersFile, Supervisor.Import and Supervisor.Export
// read and write Claude Desktop's mcpServers files, reporting per entry
// what was imported or skipped and why; arguments that look like secrets
// are moved to the keychain on import.
//
// Supervisor.Start loads the configs and starts every enabled connector in
// its own goroutine, each within its own init timeout (start, initialize
// pinned to protocol 2025-11-25 unless the connector says otherwise,
// tools/list). A connector's state (ConnectorStatus: starting, ready with N
// tools, error, restarting, stopped) and its log (stderr lines, the
// server's notifications/message at the level set with SetLevel, the
// supervisor's notes) go to Events and are kept: a stdio server that dies
// at start shows its exit status and last stderr lines. A server that
// crashes or drops its connection after it was ready is restarted with
// exponential backoff; one that fails to start is retried a few times,
// then left in error until Restart. Tool lists go to a ToolSink (the
// tools.Registry) when a server becomes ready, on notifications/tools/list_changed
// and on reconnect; a connector that never became ready is reported with no
// tools, and Remove calls RemoveConnector. No connector, or only failing
// ones, leaves a plain chat app: nothing waits for a server.
//
// Supervisor.Call runs a model's tool call: exposed name →
// tools.Snapshot.Resolve → connector → tools/call with the MCP name, after
// tools.ValidateArguments; the result is decoded and bounded by Normalize
// into the tools.Envelope. It carries a progress token; progress
// notifications reach CallRequest.OnProgress and push the per-connector
// call timeout back; a cancelled or timed-out call sends
// notifications/cancelled. Every failure is an error envelope: a tool whose
// connector needs a sign-in returns "unauthorized: sign in to <connector>"
// without calling anything, and a server that dies mid-call gives an error
// for that call and is restarted.
//
// A server is not trusted (docs/SECURITY.md). What it sends is bounded
// before mcp-go reads it (boundedReader and boundedTransport: long strings
// cut, oversized base64 dropped, messages too large or too deep refused,
// stdout lines that are not JSON reported), every copy of a result is
// bounded by tools.ResultLimits (Normalize, fitAttachments), and what its
// notifications cause is rate-limited (ratelimit.go). Annotations are
// shown, never trusted: approvals are the agent's, per the session's policy
// and the user's per-connector Connector.TrustReadOnlyHints.
//
// Servers' requests go to small interfaces the app backs: Sampler
// (sampling/createMessage), Elicitor (elicitation/create; forms are parsed
// into a Form whose defaults are filled in and whose answer is validated;
// URL mode asks consent, then URLOpener opens the page), and the roots
// chosen with SetRoots. Each request carries its Origin: the connector, and
// the session and call running on it.
//
// # Prompts and resources
//
// A session sees the prompts, resources and resource templates of the
// connectors it enables, as with tools (WithSessions reads the session):
// Offers says what each offers, Prompts and ResourceTemplates list them
// across connectors (a connector that is not ready or fails is listed in
// Unavailable), Resources pages one connector's resources with the
// server's cursors, GetPrompt and ReadResource turn what the server sends
// into canonical parts (content.go: text, files, chat.ResourcePart, text
// cut to MaxResourceText with a note), Complete asks completion/complete
// for a prompt argument or a template variable, and Subscribe and
// Unsubscribe follow a resource (UnsubscribeSession drops all a session
// follows, when a chat turns a connector off or is deleted).
// ConnectorOffering is one ready connector's prompts, templates and first
// page of resources, outside any chat, for the connectors page. Prompt and template lists are read once
// per link and read again after list_changed; FeatureEvents hears of
// changes once per read and of updates to followed resources. A tool
// result's resource_link is its own attachment type, read on demand with
// ReadResource. Every list and text is bounded (docs/SECURITY.md,
// "Prompts and resources").
//
// Remote connectors with OAuth sign in app-side (see oauth.go). This
// package owns the MCP-only steps: the transport's HTTP client reads 401
// and 403 insufficient_scope challenges (step-up), discovers the
// protected resource and authorization server metadata (discovery.go),
// picks a client (pre-registered, Client ID Metadata Document, or dynamic
// registration) and runs authorization code + PKCE S256 with the resource
// parameter through an Authorizer (signin.go). Every OAuth building block
// under those steps is backend/auth's: the loopback listener behind
// LoopbackAuthorizer, PKCE and state, the token requests (auth.Client),
// the refreshing transport (auth.Transport over one auth.SavingTokenSource
// per connector) and the keychain record (auth.TokenStore, in the
// SecretStore). With WithAuthorizer's inline flag a sign-in happens during
// the request (at most three per request); otherwise the connector waits
// with NeedsSignIn until SignIn.
//
// # Concurrency
//
// A Supervisor is safe for concurrent use. Its goroutines:
//
//   - one run goroutine per started connector, started by Start, Add,
//     Update (re-enable) or Restart, and ended by Remove, Update (disable)
//     or Close, which cancel its context and wait for it. It alone creates
//     and closes the connector's links (one live connection each), so it
//     owns the server process; it sleeps between restarts. An Update that
//     changes only host-side fields (the approval policy, read-only trust,
//     new chats) swaps the config under the runner's lock and leaves the
//     run goroutine, its process and its session alone.
//   - per link: mcp-go's transport reader (stdio: reads stdout, through
//     the link's boundedReader, until EOF; HTTP: the listening GET stream
//     and the response streams, each body through its own boundedReader,
//     which only that reader goroutine uses), and for
//     stdio the process waiter and the stderr reader. Closing the link
//     closes the transport, stops the process (stdin closed, then SIGTERM
//     to its process group after 2s, then SIGKILL after 2s more) and waits
//     for both. A cancelled request's notifications/cancelled is sent from
//     a short goroutine that the link's close also waits for.
//   - server → client requests (sampling, elicitation, roots) run on
//     goroutines of the transport, and may block on the user; they end
//     with their context when the link closes.
//   - prompts and resources run on the caller's goroutine; Prompts and
//     ResourceTemplates list the connectors in parallel and wait for all
//     of them. A link's featureLists (its own mutex) is read by callers and
//     marked stale by the reader goroutine. A runner's subscriptions keep
//     two locks: op, held across a subscribe or unsubscribe request (and
//     by the run goroutine while it renews them on a new link), and mu,
//     which guards the map and is all the reader goroutine takes, so a
//     notification never waits for a request.
//   - per OAuth connector: the token refreshes of its
//     auth.SavingTokenSource, detached from the request that needed them
//     (a rotated refresh token must be saved) and bounded by a timeout;
//     Close waits for them. A sign-in (the Authorizer's loopback listener)
//     runs on the goroutine of the request or SignIn call that needs it.
//
// Close cancels every run goroutine and returns once all of them (and so
// every link, process and reader) are gone; goleak checks this in the
// tests. Calls borrow the current link under the connector's mutex and use
// it without locks; a link closed under a call makes the call fail, never
// hang. Events methods are called from these goroutines (one connector's
// states in order, under the connector's mutex): they must not block or
// call back into the Supervisor. One caveat of shared servers: a server
// runs once per connector, not per session, so the roots it sees are the
// union of every session's (SetRoots), and a server request is attributed
// to the latest call running on its connector.
package mcp
