package app

import (
	"context"
	"sync"
)

// Event names an event the app sends to the frontend, noun:verb.
type Event string

// The events. Each is listed in Events with its payload; the frontend
// imports the names and payload types from the generated contract
// (frontend/src/api/contract.gen.ts), so Go is the one place they are
// written.
const (
	// EventSessionsChanged tells the sidebar to reload the session list.
	EventSessionsChanged Event = "sessions:changed"
	// EventAuthLogin reports the progress of a browser sign-in.
	EventAuthLogin Event = "auth:login"
	// EventModelsChanged names a provider whose credentials or model list
	// changed.
	EventModelsChanged Event = "models:changed"

	// EventRunStarted: a reply began (SendMessage, EditAndResend, RetryTurn).
	EventRunStarted Event = "run:started"
	// EventRunStep: a model request of the run starts, with the provider,
	// model and tools revision it uses.
	EventRunStep Event = "run:step"
	// EventRunRetrying: the request failed and is retried after a delay;
	// what streamed of it is dropped.
	EventRunRetrying Event = "run:retrying"
	// EventRunFinished is sent exactly once per run, last.
	EventRunFinished Event = "run:finished"
	// EventChatDelta carries coalesced streamed text (see DeltaInterval).
	EventChatDelta Event = "chat:delta"
	// EventToolStarted: the model began a tool call (its name may follow
	// in a second tool:started).
	EventToolStarted Event = "tool:started"
	// EventToolArgs is a fragment of a tool call's arguments as they stream.
	EventToolArgs Event = "tool:args"
	// EventToolRunning: the call was approved and runs on its server.
	EventToolRunning Event = "tool:running"
	// EventToolProgress is a server's progress notification for a call.
	EventToolProgress Event = "tool:progress"
	// EventToolLog is a server's log message during a call.
	EventToolLog Event = "tool:log"
	// EventToolFinished carries a call's result envelope.
	EventToolFinished Event = "tool:finished"
	// EventApproval asks the user to allow a tool call.
	EventApproval Event = "approval:needed"
	// EventMessageSaved carries a message the run stored (the user's, each
	// reply and tool results, checkpoints of a streaming reply).
	EventMessageSaved Event = "message:saved"
	// EventContextMeasured carries how full the session's next request is
	// (the header's context meter), before each request and after a
	// compaction.
	EventContextMeasured Event = "context:measured"
	// EventCompaction reports a compaction: started, each summarising
	// request done, finished (context.go).
	EventCompaction Event = "compaction:progress"

	// EventConnectorState is sent each time a connector's state changes
	// (starting, ready, error, restarting, stopped).
	EventConnectorState Event = "connector:state"
	// EventConnectorLog is one stderr line, server log message or
	// supervisor note.
	EventConnectorLog Event = "connector:log"
	// EventToolsChanged is sent whenever a session's tools revision
	// changes (a toggle, a server's tool list changing).
	EventToolsChanged Event = "tools:changed"

	// EventElicitation: a connector asks the user for input (a form) or
	// for consent to open a URL.
	EventElicitation Event = "elicitation:needed"
	// EventElicitationClosed: the request stopped waiting without the
	// user's answer (the tool call was stopped or timed out, or the app
	// is closing), so its dialog goes away.
	EventElicitationClosed Event = "elicitation:closed"
	// EventSampling: a connector asks to use the session's model.
	EventSampling Event = "sampling:needed"
	// EventSamplingResult is the model's answer to an approved request
	// (or why there is none).
	EventSamplingResult Event = "sampling:result"

	// EventPromptsChanged: a connector's prompt list changed; the "/" menu
	// reads it again.
	EventPromptsChanged Event = "prompts:changed"
	// EventResourcesChanged: a connector's resource or template list
	// changed; the resource picker reads it again.
	EventResourcesChanged Event = "resources:changed"
	// EventResourceUpdated: a resource chats follow (attached) changed on
	// its server; the composer marks it "updated".
	EventResourceUpdated Event = "resource:updated"

	// EventMenuCommand carries a menu command the UI carries out; the
	// window commands (quit, full screen) run in Go instead.
	EventMenuCommand Event = "menu:command"
)

// EventInfo describes one event for the contract: its payload (a value of
// the payload's type; nil when the event carries none) and the group of
// the UI that subscribes to it.
type EventInfo struct {
	Name    Event
	Payload any
	Group   string
}

// Events lists every event the app sends. The tests check that nothing
// else is emitted and that every payload has the type listed here.
var Events = []EventInfo{
	{EventSessionsChanged, nil, "sessions"},
	{EventAuthLogin, LoginEventDTO{}, "accounts"},
	{EventRunStarted, RunDTO{}, "chat"},
	{EventRunStep, StepDTO{}, "chat"},
	{EventChatDelta, DeltaDTO{}, "chat"},
	{EventRunRetrying, RetryDTO{}, "chat"},
	{EventToolStarted, ToolEventDTO{}, "chat"},
	{EventToolArgs, ToolEventDTO{}, "chat"},
	{EventApproval, ApprovalDTO{}, "chat"},
	{EventToolRunning, ToolEventDTO{}, "chat"},
	{EventToolProgress, ToolEventDTO{}, "chat"},
	{EventToolLog, ToolEventDTO{}, "chat"},
	{EventToolFinished, ToolEventDTO{}, "chat"},
	{EventMessageSaved, SavedDTO{}, "chat"},
	{EventContextMeasured, ContextUseDTO{}, "chat"},
	{EventCompaction, CompactionDTO{}, "chat"},
	{EventRunFinished, FinishedDTO{}, "chat"},
	{EventModelsChanged, "", "chat"},
	{EventConnectorState, ConnectorDTO{}, "connectors"},
	{EventConnectorLog, ConnectorLogDTO{}, "connectors"},
	{EventToolsChanged, ToolsChangedDTO{}, "connectors"},
	{EventTaskChanged, TaskDTO{}, "connectors"},
	{EventElicitation, ElicitationDTO{}, "mcpRequests"},
	{EventElicitationClosed, ElicitationClosedDTO{}, "mcpRequests"},
	{EventSampling, SamplingDTO{}, "mcpRequests"},
	{EventSamplingResult, SamplingResultDTO{}, "mcpRequests"},
	{EventPromptsChanged, ResourceChangedDTO{}, "compose"},
	{EventResourcesChanged, ResourceChangedDTO{}, "compose"},
	{EventResourceUpdated, ResourceUpdatedDTO{}, "compose"},
	{EventMenuCommand, CommandNewChat, "menu"},
}

// sink is the one way the services send events: every event goes through
// emit, and a run's events through delta and runEvent, which coalesce its
// streamed text (bridge) and keep its order. Events go out once startup
// has given the sink Wails's context, and stop at close (shutdown, once
// the work has finished). Safe for concurrent use; mu guards ctx and
// closed, and is not held while the runtime is called.
type sink struct {
	emitFn func(ctx context.Context, name string, data ...any)
	deltas *bridge

	mu     sync.RWMutex
	ctx    context.Context
	closed bool
}

func newSink(emit func(ctx context.Context, name string, data ...any)) *sink {
	s := &sink{emitFn: emit}
	s.deltas = newBridge(s.emit, DeltaInterval)
	return s
}

func (s *sink) start(ctx context.Context) {
	s.mu.Lock()
	s.ctx = ctx
	s.mu.Unlock()
}

// emit sends an event now; a nil payload sends none.
func (s *sink) emit(name Event, payload any) {
	s.mu.RLock()
	ctx, closed := s.ctx, s.closed
	s.mu.RUnlock()
	if ctx == nil || closed {
		return
	}
	if payload == nil {
		s.emitFn(ctx, string(name))
		return
	}
	s.emitFn(ctx, string(name), payload)
}

// delta queues streamed text of a run; kind is "text" or "reasoning".
func (s *sink) delta(runID, kind, text string) { s.deltas.Delta(runID, kind, text) }

// runEvent sends a run's event after the run's pending text.
func (s *sink) runEvent(runID string, name Event, payload any) { s.deltas.Event(runID, name, payload) }

// close sends the pending text and silences the sink.
func (s *sink) close() {
	s.deltas.Close()
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}
