// Package mcp is Maestro's MCP side: the connectors (MCP server configs)
// and the Supervisor that runs them, the client features servers use
// (sampling, elicitation, roots, logging, progress), OAuth for remote
// servers, the per-session tool registry, the per-provider names and
// schemas of MCP tools, and the envelope tool results are normalised into.
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
// Registry) when a server becomes ready, on notifications/tools/list_changed
// and on reconnect; a connector that never became ready is reported with no
// tools, and Remove calls RemoveConnector. No connector, or only failing
// ones, leaves a plain chat app: nothing waits for a server.
//
// Supervisor.Call runs a model's tool call: exposed name → Snapshot.Resolve
// → connector → tools/call with the MCP name, after ValidateArguments; the
// result goes through Normalize. It carries a progress token; progress
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
// bounded by ResultLimits (Normalize, fitAttachments), and what its
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

// # Responsibility
//
// A Registry knows every connector's live tool list (SetConnectorTools,
// RemoveConnector) and, for each session, which connectors and tools are on
// (chat.Session.EnabledConnectors and DisabledTools, changed through
// SetConnectorEnabled and SetToolEnabled). From these it keeps one Snapshot
// per session: the session's effective tools, each as an Entry with its
// canonical name (server.tool, see ServerSlug), the connector that serves it,
// the schemas normalised for each provider (NormalizeSchema) and the name
// each provider knows it by (ExposedNames). The agent reads the snapshot
// right before building each request: Snapshot.Overlay gives the tools to
// declare, within the provider's tool budget, and the canonical → exposed
// name map; Snapshot.Resolve maps a name the model called back to its entry.
//
// When a session has more tools than a provider takes (Budget), the overlay
// declares the built-in search_tools plus the tools the session used and the
// tools search_tools returned before; Registry.SearchTools runs a search and
// records what it returned, so those tools join the next overlay.
//
// # Revisions
//
// Every change to a session's effective tool set bumps its tools_revision by
// one: a connector or tool toggled, a connector's tool list changed
// (list_changed, reconnect, removal) where the session uses that connector,
// new search_tools results. A change that leaves the set as it was (a no-op
// toggle, a list change of a connector the session does not use, the same
// list announced again) does not. The revision never decreases.
//
// # Persistence
//
// The snapshot is stored with store.PutRegistrySnapshot under the session id:
//
//	{
//	  "format": 1,
//	  "revision": 7,
//	  "entries": [              // sorted by canonical name
//	    {"canonical": "fs.read_file", "server": "fs", "serverName": "Files",
//	     "tool": "read_file", "connectorId": "…", "title": "…",
//	     "description": "…",    // as the server gave it, without "(via …)"
//	     "inputSchema": {…},    // as the server gave it
//	     "outputSchema": {…}, "annotations": {"readOnlyHint": true},
//	     "names": {"anthropic": "fs__read_file", "gemini": "fs__read_file",
//	               "openai": "fs__read_file"}}
//	  ],
//	  "found": ["fs.read_file"] // search_tools results, most recent first
//	}
//
// Normalised schemas are not stored: they are a pure function of the input
// schema and are recomputed on load. chat.Session.ToolsRevision mirrors the
// snapshot's revision. The store has no transaction spanning both records,
// so every change writes the session first (UpdateSession, which also
// carries the toggle itself) and the snapshot second; loading takes the
// larger of the two revisions, so a crash between the writes can repeat a
// bump but never lower a revision.
//
// After a restart, connectors report their tools again. Until a connector
// has reported (SetConnectorTools, even with no tools) the session keeps
// that connector's entries from its stored snapshot, so the revision does
// not flap while servers start. A supervisor should therefore report every
// configured connector, failed ones with no tools, and call RemoveConnector
// for deleted ones. Server slugs are assigned over the connectors the
// registry knows (the oldest id keeps a contested slug); reporting every
// configured connector also keeps slugs stable.
//
// # Concurrency
//
// A Supervisor is safe for concurrent use. Its goroutines:
//
//   - one run goroutine per started connector, started by Start, Add,
//     Update (re-enable) or Restart, and ended by Remove, Update (disable)
//     or Close, which cancel its context and wait for it. It alone creates
//     and closes the connector's links (one live connection each), so it
//     owns the server process; it sleeps between restarts.
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
//
// A Registry is safe for concurrent use. One mutex guards the connector
// table and the session cache, and is held for a whole operation, store
// writes included, so operations on the registry are serialised and every
// session's writes reach the store in revision order. (bbolt transactions
// are short; the cost is that a Snapshot call waits for a write in flight.)
// The registry starts no goroutines and holds no resources: there is
// nothing to close. It assumes it is the only writer of a session's
// EnabledConnectors, DisabledTools and ToolsRevision once it has loaded
// the session; when a store write fails the session is dropped from the
// cache and reloaded (and reconciled) on next use.
//
// A Snapshot is a value: Snapshot returns a copy that stays valid and
// unchanged after the lock is released. Its entries share schema bytes and
// name maps with the registry, which never modifies them after building; a
// caller must not modify them either.
//
// The naming, schema and envelope functions (ExposedNames, NormalizeSchema,
// ValidateArguments, Normalize, ErrorResult) are pure and safe for
// concurrent use.
package mcp
