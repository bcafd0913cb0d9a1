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
package app
