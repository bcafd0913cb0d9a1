// Package tools is the per-session tool overlay: which tools each session
// has, what each provider calls them and how their schemas must look to
// it, the built-in search_tools, the checking of a call's arguments, and
// the envelope a tool's answer reaches the model and the UI in. It knows
// nothing of where tools come from (backend/mcp reports servers' tool
// lists and runs the calls) or of any provider by name: each adapter
// declares its chat.ToolRules (name pattern, name length, tool budget,
// schema dialect) and the catalog hands them to NewRegistry.
//
// # Registry and snapshots
//
// A Registry knows every connector's live tool list (SetConnectorTools,
// RemoveConnector) and, for each session, which connectors and tools are on
// (chat.Session.EnabledConnectors and DisabledTools, changed through
// SetConnectorEnabled and SetToolEnabled). From these it keeps one Snapshot
// per session: the session's effective tools, each as an Entry with its
// canonical name (server.tool, see ServerSlug), the connector that serves it,
// the schemas normalised into each provider's dialect (NormalizeSchema) and
// the name each provider knows it by (ExposedNames). The agent reads the snapshot
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
// A Snapshot is immutable once built: every change builds a new one and
// replaces the session's, and nothing modifies a built Snapshot's slices,
// maps or entries. So Snapshot returns the registry's own snapshot without
// copying (a tool call looks its tool up in it, and copying 1,000 entries
// per call cost 135 µs), and it stays valid and unchanged after the lock is
// released. A caller must not modify it either.
//
// The naming, schema and envelope functions (ExposedNames, NormalizeSchema,
// ValidateArguments, Envelope, ErrorResult) are pure and safe for
// concurrent use; ValidateArguments shares a cache of decoded schemas under
// its own lock.
package tools
