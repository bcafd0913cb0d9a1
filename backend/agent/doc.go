// Package agent runs a chat turn: it persists the user's message, renders
// each request from canonical history and the session's current tool
// overlay, streams the model's reply, executes tool calls, and loops until a
// step has no tool calls or the step cap is reached.
//
// The agent works against small interfaces it defines itself — Models (the
// provider catalog, which hands out chat.Model adapters), Tools (the
// session's tool overlay and the MCP supervisor), Approver (the UI), Store
// (backend/store) and Sink (the app's event bridge) — so none of those
// packages depend on it. It imports backend/chat and nothing else of
// Maestro's.
//
// # A turn
//
//  1. The user message is stored before any network call (Run with Retry
//     skips this and answers the last one again). History is the session's
//     active branch. Run with Edit stores the message as a sibling of an
//     earlier user message instead (the store keeps the old continuation as
//     another branch) and answers it with only the history before it. Run
//     with Regenerate stores no user message: it answers the named answer's
//     user message again, and its first write is stored as a sibling of the
//     old answer (regenerate.go), so the old answer stays as another branch.
//  2. Right before each request the agent reads the session (provider,
//     model, approval policy, grants) and asks Tools for the overlay of the
//     session's current provider, so a tool toggled or a provider switched
//     between steps applies to the very next request. History is rendered
//     by the adapter of the current provider, tool calls and results made
//     on other providers included.
//  3. The reply streams: deltas go to the sink; the partial message is
//     checkpointed at most once per checkpoint interval (a second); tool
//     calls get a canonical id (chat.NewID) and their canonical name from
//     the overlay, and keep the provider's id in ProviderIDs.
//  4. The reply is stored complete, its tool calls in the order the
//     provider output them. A call whose arguments are not a JSON object
//     or do not match the tool's declared input schema gets an error
//     result saying what was wrong, with the schema, and is neither
//     approved nor run (arguments.go); the model repairs it in its next
//     step. The other calls are approved (Maestro's built-in search_tools
//     always; "deny all" denies every other call; "allow all" sessions,
//     granted tools and read-only-hinted tools of a connector whose hints
//     the user trusts without asking; otherwise the Approver decides, told
//     whether the server claims the tool only reads) and run in parallel,
//     each result stored as it arrives in the step's one tool message.
//     Unknown tools, denials and panics become error results the model
//     reads; only Stop and infrastructure failures end the turn.
//
// Failures: a 401 ends the turn asking for a sign-in (backend/auth's
// transport has already refreshed the token once and replayed the
// request); rate limits, overloads, 5xx and cut-off streams retry with
// RetryPolicy while the wait is short, and otherwise end the turn
// with RunFinished.RetryAt set; "context too large" retries with a context
// view that leaves out the oldest turns (whole turns, so every tool call
// stays next to its result; the stored history is untouched). An abandoned
// attempt (retried, or restarted by Control.ApplyNow) is stored as
// StatusSuperseded if it was checkpointed, a failed one as
// chat.StatusFailed with the error; neither is sent to a model again. A
// stopped reply (chat.StatusCanceled) keeps its partial text in history,
// and its unanswered tool calls get "stopped" results.
//
// # Concurrency
//
// Run is synchronous: it returns when the turn is over, and the caller
// (app/) owns the goroutine it runs on, its context (Stop cancels it) and
// the run id. Run starts goroutines only to execute the tool calls of a
// step, at most WithParallelTools at a time, and waits for all of them
// before it moves on or returns; Tools.Call must return promptly once its
// context is cancelled. No goroutine outlives Run.
//
// The Sink is called from the run's goroutine and from tool goroutines,
// but never concurrently: a per-run mutex serialises Emit, and nothing is
// emitted after the terminal RunFinished, which is emitted exactly once per
// Run call, even if the loop panics. The report function given to
// Tools.Call may be called from any goroutine; updates after Call returns
// are dropped. Control is the only value shared with other goroutines
// while Run streams; it locks. A Clock must be safe for concurrent use.
//
// Writes that record what happened (the partial reply of a stopped turn,
// tool results, grants) use context.WithoutCancel, so they survive Stop.
// An Agent holds no per-run state and serves concurrent runs on different
// sessions; the app must not run two turns of one session at once.
package agent
