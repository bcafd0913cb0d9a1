// Package app is Maestro's Wails facade and the only package that imports the
// Wails runtime: binding and DTO conversion, nothing else.
//
// # Services
//
// New builds every service at once from Deps; Services are bound side by
// side, one per area of the UI, so the frontend calls
// window.go.app.<Service>.<Method> through the generated bindings
// (frontend/wailsjs/go/app):
//
//   - Sessions: the sidebar's list, opening a session a page at a time,
//     search and export (sessions.go).
//   - Chat: sending and editing messages, the runs (stop, retry, apply
//     now), approvals, branches and the session's model (chat.go, runs.go,
//     branches.go, models.go).
//   - Accounts: provider credentials, browser sign-ins and API keys
//     (accounts.go).
//   - Connectors: MCP connectors, their sign-ins, imports and exports, a
//     session's Tools panel, and the servers' elicitation and sampling
//     questions (connectors*.go, tools.go, elicit.go, sampling.go).
//   - Settings: status, keychain, theme and the model new chats start on
//     (settings.go).
//   - Window: the window's size and place, full screen, quitting and the
//     theme's background (window.go, menu.go).
//
// Bound methods validate, call the backend, and return DTOs with JSON tags
// (domain types never reach JavaScript). Errors cross as rejected promises
// shaped by FormatError into {kind, message}. Events go out through the one
// sink (events.go) with noun:verb names; Events lists each with its payload
// type, and the TypeScript contract is generated from the DTOs and that
// list (cmd/maestro-contract). The runtime is injected (Runtime), so tests
// never touch Wails: a runtime call with a context that did not come from
// Wails kills the process.
//
// # Lifecycle and concurrency
//
// The services share a core (core.go). Startup creates the root context,
// opens the data file and builds on it what runs (App.build: the tools
// registry, the connectors' supervisor, the toolbox, the agent, the
// sampling runner), then publishes it under core.mu; a bound call gets it
// with a context bounded by a timeout (core.call), or the reason there is
// none: still starting, the data file's error (Settings.Status shows it),
// or shutting down. Sign-ins do not need the data file. Every piece of long
// work (a run, a sign-in, the connectors' load) runs on a goroutine app/
// starts with a child of the root context and tracks in core.work.
// Shutdown cancels the root, waits for that work, silences the sink, stops
// the connectors' servers, and only then closes the data file.
//
// Bound methods may be called concurrently from the frontend. Each service
// documents what its mutex guards; none is held while calling the backend
// in a way that could call back (the sign-in manager may report
// synchronously from inside a call; the supervisor reports from its own
// goroutines and is never called from connectorEvents).
package app
