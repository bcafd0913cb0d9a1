package agent

import (
	"encoding/json"
	"time"

	"maestro/backend/chat"
)

// Sink receives a run's events. The agent serialises its calls: Emit is
// never called concurrently for one run, and never after Run returns. Emit
// runs on the streaming path, so it must not block for long (the app
// batches and forwards). Exactly one RunFinished reaches the sink per Run
// call, as the last event.
type Sink interface{ Emit(Event) }

// SinkFunc adapts a function to Sink.
type SinkFunc func(Event)

// Emit calls f(ev).
func (f SinkFunc) Emit(ev Event) { f(ev) }

// Event is one thing that happened in a run. The set is sealed; every
// event carries the RunID the app gave the run (see RunIDOf).
type Event interface{ isEvent() }

// RunStarted is the first event of every run.
type RunStarted struct {
	RunID     string
	SessionID string
}

// StepStarted is sent right before each model request: once per step, and
// again for every retried or restarted attempt of that step.
type StepStarted struct {
	RunID string
	// Step counts model requests of the turn from 1; Attempt counts tries
	// of this step from 1.
	Step, Attempt int
	// MessageID is the id the assistant message of this attempt gets.
	MessageID     string
	Provider      string
	Model         string
	ToolsRevision int64
	ToolCount     int
}

// TextDelta is a piece of the reply's visible text.
type TextDelta struct {
	RunID string
	Text  string
}

// ReasoningDelta is a piece of the model's thinking.
type ReasoningDelta struct {
	RunID string
	Text  string
}

// ToolCallStarted announces a tool call while its arguments still stream.
// CallID is the canonical id the call keeps forever. Name is canonical
// (server.tool) when the overlay knows the exposed name, else the name the
// model used (the call then fails as an unknown tool).
type ToolCallStarted struct {
	RunID  string
	CallID string
	Name   string
	Server string
}

// ToolCallArgs is a fragment of a call's JSON arguments, for display.
type ToolCallArgs struct {
	RunID    string
	CallID   string
	Fragment string
}

// ApprovalNeeded is sent right before the Approver is asked about a call,
// so the UI can show the card with its arguments.
type ApprovalNeeded struct {
	RunID     string
	CallID    string
	Name      string
	Server    string
	Arguments json.RawMessage
	// ReadOnlyHint: the server claims the tool only reads (its claim).
	ReadOnlyHint bool
	// Hints, Destructive and Change as in ApprovalRequest.
	Hints       chat.ToolHints
	Destructive bool
	Change      *chat.DefinitionChange
	// RequestedBy as in ApprovalRequest.
	RequestedBy string
}

// ToolCallRunning is sent when a call is handed to Tools.Call, with its
// complete arguments.
type ToolCallRunning struct {
	RunID     string
	CallID    string
	Name      string
	Arguments json.RawMessage
}

// ToolCallProgress relays a server's progress notification. Total is 0
// when unknown.
type ToolCallProgress struct {
	RunID           string
	CallID          string
	Progress, Total float64
	Message         string
}

// ToolCallLog relays a server's log line during a call.
type ToolCallLog struct {
	RunID   string
	CallID  string
	Level   string
	Message string
}

// ToolCallFinished carries a call's result envelope: success, a tool
// error, a denial, an unknown tool or a recovered panic alike.
type ToolCallFinished struct {
	RunID    string
	CallID   string
	Result   chat.ToolResult
	Duration time.Duration
}

// MessageSaved is sent when a message reaches the store in its final state
// for this run (streaming checkpoints are not announced).
type MessageSaved struct {
	RunID     string
	MessageID string
	Seq       uint64
	Role      chat.Role
	Status    chat.Status
}

// Retrying is sent when an attempt is abandoned and the step is tried
// again: the UI discards the partial reply it showed for that attempt.
// Reason is a short word (rate_limit, overloaded, server, stream, auth,
// context_too_large, apply_now) and Err the failure, if any.
type Retrying struct {
	RunID   string
	Step    int
	Attempt int // the attempt about to start
	Delay   time.Duration
	Reason  string
	Err     error
}

// ContextMeasured is sent before each request with what it will carry
// against the budget of the session's model (after any compaction), so
// the UI can show how full the context is.
type ContextMeasured struct {
	RunID string
	Use   ContextUse
}

// CompactionStarted is sent when the agent starts summarising the oldest
// part of the conversation: because the context passed the threshold
// (Reason chat.SummaryThreshold), because the provider refused a request
// as too long (chat.SummaryTooLong), or because the user asked
// (chat.SummaryManual). Messages and Tokens are the part being replaced;
// Requests is how many summarising requests it takes.
type CompactionStarted struct {
	RunID     string
	SessionID string
	Reason    string
	Messages  int
	Tokens    int64
	Requests  int
}

// CompactionProgress is sent after each summarising request.
type CompactionProgress struct {
	RunID          string
	Done, Requests int
}

// CompactionFinished is sent when the summary node is stored (its
// MessageSaved comes first). It stands for the branch's messages up to
// Through (Messages of them); TokensBefore estimates what they took in
// requests, TokensAfter what the summary takes. Usage is what the
// summarising requests cost.
type CompactionFinished struct {
	RunID        string
	MessageID    string
	Seq          uint64
	Through      uint64
	Messages     int
	TokensBefore int64
	TokensAfter  int64
	Usage        chat.Usage
}

// RunFinished is the one terminal event of a run. Err is nil for a
// finished turn; Canceled is set when the user stopped it (Err then wraps
// context.Canceled). RetryAt, when set, is when a rate or usage limit that
// ended the turn resets. Usage adds up every completed model response.
type RunFinished struct {
	RunID    string
	Err      error
	Canceled bool
	Usage    chat.Usage
	RetryAt  time.Time
}

func (RunStarted) isEvent()         {}
func (StepStarted) isEvent()        {}
func (TextDelta) isEvent()          {}
func (ReasoningDelta) isEvent()     {}
func (ToolCallStarted) isEvent()    {}
func (ToolCallArgs) isEvent()       {}
func (ApprovalNeeded) isEvent()     {}
func (ToolCallRunning) isEvent()    {}
func (ToolCallProgress) isEvent()   {}
func (ToolCallLog) isEvent()        {}
func (ToolCallFinished) isEvent()   {}
func (MessageSaved) isEvent()       {}
func (Retrying) isEvent()           {}
func (ContextMeasured) isEvent()    {}
func (CompactionStarted) isEvent()  {}
func (CompactionProgress) isEvent() {}
func (CompactionFinished) isEvent() {}
func (RunFinished) isEvent()        {}

// RunIDOf returns the run id of any event.
func RunIDOf(ev Event) string {
	switch e := ev.(type) {
	case RunStarted:
		return e.RunID
	case StepStarted:
		return e.RunID
	case TextDelta:
		return e.RunID
	case ReasoningDelta:
		return e.RunID
	case ToolCallStarted:
		return e.RunID
	case ToolCallArgs:
		return e.RunID
	case ApprovalNeeded:
		return e.RunID
	case ToolCallRunning:
		return e.RunID
	case ToolCallProgress:
		return e.RunID
	case ToolCallLog:
		return e.RunID
	case ToolCallFinished:
		return e.RunID
	case MessageSaved:
		return e.RunID
	case Retrying:
		return e.RunID
	case ContextMeasured:
		return e.RunID
	case CompactionStarted:
		return e.RunID
	case CompactionProgress:
		return e.RunID
	case CompactionFinished:
		return e.RunID
	case RunFinished:
		return e.RunID
	}
	return ""
}
