// Package app is Maestro's Wails facade and the only package that imports the
// Wails runtime.
//
// App's exported methods are bound to the frontend: they validate input, call
// the backend services, and return DTOs with JSON tags (domain types never
// reach JavaScript). Errors cross as rejected promises shaped by FormatError
// into {kind, message}. Events go out through one injected Runtime.Emit with
// noun:verb names, so tests replace the runtime and never touch Wails (any
// runtime call with a context that did not come from Wails kills the process).
//
// Lifecycle and concurrency: startup creates a root context; every piece of
// long work runs in a goroutine that app/ starts with a child of that context
// and tracks in a WaitGroup. shutdown cancels the root, waits for that work,
// and only then closes the store. Bound methods may be called concurrently
// from the frontend; mu guards the fields set in startup and shutdown, and the
// store serialises its own writes.
//
// Branches (branches.go): a run appends to its session's active branch, so
// nothing may move that branch while a run is on. EditAndResend starts its
// run through startRun, whose check and registration of the session's run
// happen under chatState.mu; SwitchBranch moves the branch while holding
// the same lock after checking that no run is registered. A run leaves the
// registry before its run:finished event goes out.
//
// Browser sign-ins (accounts.go) follow the same rule: SignIn returns the
// login at once, and a goroutine app/ starts holds the login's context (a
// child of the root) until the manager reports the login's one terminal
// update through Lifecycle.LoginUpdate. At shutdown that goroutine cancels
// the login and waits, boundedly, for the update. loginMu guards the logins
// being watched and is never held while calling the manager, which may
// report synchronously from inside a call.
//
// MCP connectors (connectors.go, tools.go): EnableConnectors makes startup
// build the tools.Registry and mcp.Supervisor on the opened store and load
// and start the connectors on a goroutine tracked in the WaitGroup, so no
// server delays the window; bound connector methods wait for that load.
// Shutdown closes the supervisor (stopping every server) after the work
// has finished and before the store closes, and silences connector events
// from then on. The supervisor reports states and log lines through the
// mcp.Events methods of connectorsState, from its own goroutines: they
// read a mutex-guarded copy of the configs and emit, never calling back
// into the supervisor. The registry's revision listener emits
// tools:changed. AgentTools is the agent's view of the same registry and
// supervisor.
package app
