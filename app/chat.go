package app

import (
	"context"
	"errors"
	"slices"
	"sync"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/providers/catalog"
)

// Chat event names (see the chat contract in frontend/src/api).
const (
	EventRunStarted    = "run:started"
	EventRunStep       = "run:step"
	EventRunRetrying   = "run:retrying"
	EventRunFinished   = "run:finished"
	EventToolStarted   = "tool:started"
	EventToolArgs      = "tool:args"
	EventToolRunning   = "tool:running"
	EventToolProgress  = "tool:progress"
	EventToolLog       = "tool:log"
	EventToolFinished  = "tool:finished"
	EventApproval      = "approval:needed"
	EventMessageSaved  = "message:saved"
	EventModelsChanged = "models:changed"
)

// ChatDeps is what the chat needs from the rest of Maestro. main wires it
// with EnableChat before the app starts.
type ChatDeps struct {
	// Models builds the adapter for a provider from its stored credentials.
	Models agent.Models
	// Tools is the sessions' live MCP tools; nil means no tools (plain chat).
	Tools agent.Tools
	// Catalog lists the providers, whether they have credentials, and the
	// models their accounts can use.
	Catalog ModelCatalog
	Options []agent.Option
}

// ModelCatalog is what the app needs from backend/providers/catalog.
type ModelCatalog interface {
	Providers(ctx context.Context) []catalog.Provider
	// RefreshSoon fetches a provider's model list in the background (after
	// a sign-in, or when the user asks).
	RefreshSoon(provider string)
	// Attach keeps the lists in the store and reports each change.
	Attach(lists catalog.Lists, changed func(provider string))
}

// EnableChat gives a the chat. It is a function rather than a method so
// that Wails does not bind it.
func EnableChat(a *App, deps ChatDeps) {
	a.chat = &chatState{deps: deps, app: a, runs: map[string]*runState{}, approvals: map[string]pendingApproval{}}
}

// chatState holds the runs and pending approvals. mu guards the maps; a
// run's goroutine is tracked in App.work and removes itself when done.
type chatState struct {
	deps ChatDeps
	app  *App

	agentOnce sync.Once
	agent     *agent.Agent
	bridgeMu  sync.Mutex
	bridge    *bridge

	mu        sync.Mutex
	runs      map[string]*runState // by run id
	approvals map[string]pendingApproval
}

type runState struct {
	id, sessionID string
	// edit is set for EditAndResend's runs, whose user message has siblings.
	edit    bool
	cancel  context.CancelFunc
	control *agent.Control
}

type pendingApproval struct {
	runID  string
	answer chan agent.Decision
}

// noTools is the Tools of a Maestro without connectors.
type noTools struct{}

func (noTools) Overlay(context.Context, string, string, []string) (agent.Overlay, error) {
	return agent.Overlay{}, nil
}

func (noTools) Call(_ context.Context, req agent.CallRequest, _ func(agent.ToolUpdate)) chat.ToolResult {
	return chat.ToolResult{CallID: req.Call.ID, Name: req.Call.Name, Error: "unknown tool " + req.Call.Name}
}

func (c *chatState) getAgent() (*agent.Agent, error) {
	st, _, cancel, err := c.app.ready()
	if err != nil {
		return nil, err
	}
	cancel()
	c.agentOnce.Do(func() {
		tools := c.deps.Tools
		if tools == nil {
			tools = noTools{}
		}
		opts := append([]agent.Option{agent.WithLogger(c.app.log)}, c.deps.Options...)
		c.agent = agent.New(st, c.deps.Models, tools, c, opts...)
	})
	return c.agent, nil
}

func (c *chatState) getBridge() *bridge {
	c.bridgeMu.Lock()
	defer c.bridgeMu.Unlock()
	if c.bridge == nil {
		c.bridge = newBridge(func(name string, data any) { c.app.emit(name, data) }, DeltaInterval)
	}
	return c.bridge
}

func (a *App) chatOrErr() (*chatState, error) {
	if a.chat == nil {
		return nil, chat.E(chat.ErrUnavailable, "chat is not available in this build")
	}
	return a.chat, nil
}

// errRunning refuses a change to a chat whose reply is still running.
func errRunning() error {
	return chat.E(chat.ErrConflict, "a reply is still running in this chat; stop it first")
}

// startRun launches the run in (SessionID, Text, Retry, Edit; RunID and
// Control are set here) on its own goroutine. It returns once the user's
// message is stored (or the run failed before that), with the message as
// the UI shows it.
func (c *chatState) startRun(in agent.RunInput) (string, *MessageDTO, error) {
	ag, err := c.getAgent()
	if err != nil {
		return "", nil, err
	}
	c.app.mu.RLock()
	root := c.app.root
	c.app.mu.RUnlock()

	if !in.Retry {
		c.pickDefaultModel(in.SessionID)
	}
	c.mu.Lock()
	if c.runningLocked(in.SessionID) {
		c.mu.Unlock()
		return "", nil, errRunning()
	}
	ctx, cancel := context.WithCancel(root)
	rs := &runState{id: chat.NewID(), sessionID: in.SessionID, edit: in.Edit != 0, cancel: cancel, control: &agent.Control{}}
	c.runs[rs.id] = rs
	c.mu.Unlock()

	in.RunID, in.Control = rs.id, rs.control
	started := make(chan startResult, 1)
	sink := &runSink{c: c, run: rs, started: started}
	c.app.work.Add(1)
	go func() {
		defer c.app.work.Done()
		defer c.finish(rs)
		_, _ = ag.Run(ctx, in, sink)
	}()
	if in.Retry {
		return rs.id, nil, nil
	}
	res := <-started
	return rs.id, res.msg, res.err
}

// runningLocked reports whether sessionID has a run; c.mu must be held.
// stopSession cancels the session's running reply, if any; it returns
// without waiting for the run to end.
func (c *chatState) stopSession(sessionID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.runs {
		if r.sessionID == sessionID {
			r.cancel()
		}
	}
}

func (c *chatState) runningLocked(sessionID string) bool {
	for _, r := range c.runs {
		if r.sessionID == sessionID {
			return true
		}
	}
	return false
}

type startResult struct {
	msg *MessageDTO
	err error
}

// finish forgets a run and its pending approvals; calling it again is a
// no-op.
func (c *chatState) finish(rs *runState) {
	rs.cancel()
	c.mu.Lock()
	delete(c.runs, rs.id)
	for id, p := range c.approvals {
		if p.runID == rs.id {
			delete(c.approvals, id)
		}
	}
	c.mu.Unlock()
}

// Approve implements agent.Approver: it asks the UI and waits for
// AnswerApproval, or for the run to stop.
func (c *chatState) Approve(ctx context.Context, req agent.ApprovalRequest) (agent.Decision, error) {
	id := chat.NewID()
	answer := make(chan agent.Decision, 1)
	c.mu.Lock()
	c.approvals[id] = pendingApproval{runID: req.RunID, answer: answer}
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.approvals, id)
		c.mu.Unlock()
	}()
	c.getBridge().Event(req.RunID, EventApproval, ApprovalDTO{
		RunID: req.RunID, RequestID: id, CallID: req.Call.ID, Name: req.Call.Name,
		Server: req.Server, Arguments: string(req.Call.Arguments), ReadOnlyHint: req.ReadOnlyHint,
	})
	select {
	case d := <-answer:
		return d, nil
	case <-ctx.Done():
		return agent.Deny, ctx.Err()
	}
}

// runSink turns agent events into UI events. The agent serialises Emit
// calls of one run.
type runSink struct {
	c       *chatState
	run     *runState
	started chan startResult
	once    sync.Once
}

func (s *runSink) signal(r startResult) { s.once.Do(func() { s.started <- r }) }

func (s *runSink) Emit(ev agent.Event) {
	b := s.c.getBridge()
	id := s.run.id
	switch e := ev.(type) {
	case agent.RunStarted:
		b.Event(id, EventRunStarted, RunDTO{RunID: id, SessionID: e.SessionID})
	case agent.StepStarted:
		b.Event(id, EventRunStep, StepDTO{RunID: id, SessionID: s.run.sessionID, Step: e.Step, Attempt: e.Attempt,
			Provider: e.Provider, Model: e.Model, ToolsRevision: e.ToolsRevision, ToolCount: e.ToolCount})
	case agent.TextDelta:
		b.Delta(id, "text", e.Text)
	case agent.ReasoningDelta:
		b.Delta(id, "reasoning", e.Text)
	case agent.Retrying:
		b.Event(id, EventRunRetrying, RetryDTO{RunID: id, Attempt: e.Attempt, DelayMS: e.Delay.Milliseconds(), Reason: e.Reason})
	case agent.ToolCallStarted:
		b.Event(id, EventToolStarted, ToolEventDTO{RunID: id, CallID: e.CallID, Name: e.Name, Server: e.Server})
	case agent.ToolCallArgs:
		b.Event(id, EventToolArgs, ToolEventDTO{RunID: id, CallID: e.CallID, Fragment: e.Fragment})
	case agent.ToolCallRunning:
		b.Event(id, EventToolRunning, ToolEventDTO{RunID: id, CallID: e.CallID, Name: e.Name, Arguments: string(e.Arguments)})
	case agent.ToolCallProgress:
		b.Event(id, EventToolProgress, ToolEventDTO{RunID: id, CallID: e.CallID, Progress: e.Progress, Total: e.Total, Message: e.Message})
	case agent.ToolCallLog:
		b.Event(id, EventToolLog, ToolEventDTO{RunID: id, CallID: e.CallID, Level: e.Level, Text: e.Message})
	case agent.ToolCallFinished:
		res := toolResultDTO(e.Result)
		b.Event(id, EventToolFinished, ToolEventDTO{RunID: id, CallID: e.CallID, Result: &res, DurationMS: e.Duration.Milliseconds()})
	case agent.MessageSaved:
		s.saved(e)
	case agent.RunFinished:
		s.signal(startResult{err: e.Err}) // a run that failed before storing the message
		// The run is over: forget it before telling the UI, so a message,
		// edit or branch switch sent on run:finished is not refused.
		s.c.finish(s.run)
		fin := FinishedDTO{RunID: id, SessionID: s.run.sessionID, Canceled: e.Canceled,
			Usage: UsageDTO{InputTokens: e.Usage.InputTokens, OutputTokens: e.Usage.OutputTokens}}
		if e.Err != nil && !e.Canceled {
			fin.Error = errorDTO(e.Err)
		}
		if !e.RetryAt.IsZero() {
			fin.RetryAt = e.RetryAt.UnixMilli()
			if fin.Error != nil {
				fin.Error.RetryAt = fin.RetryAt
			}
		}
		b.Event(id, EventRunFinished, fin)
		s.c.app.emit(EventSessionsChanged)
	}
}

// saved loads the stored message and sends it to the UI.
func (s *runSink) saved(e agent.MessageSaved) {
	st, ctx, cancel, err := s.c.app.ready()
	if err != nil {
		return
	}
	defer cancel()
	m, err := st.Message(ctx, s.run.sessionID, e.Seq)
	if err != nil {
		s.c.app.log.Warn("load saved message", "session", s.run.sessionID, "seq", e.Seq, "err", err)
		return
	}
	dto := messageDTO(m)
	if m.Role == chat.RoleUser {
		s.c.app.titleFromFirstMessage(ctx, st, s.run.sessionID, m.Text())
		if s.run.edit {
			dto.Branch = s.c.app.branchOf(ctx, st, s.run.sessionID, m.Seq)
		}
		s.signal(startResult{msg: &dto})
	}
	s.c.getBridge().Event(s.run.id, EventMessageSaved, SavedDTO{RunID: s.run.id, SessionID: s.run.sessionID, Message: dto})
	if m.Role == chat.RoleUser {
		s.c.app.emit(EventSessionsChanged)
	}
}

// runByID returns a live run.
func (c *chatState) runByID(id string) (*runState, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.runs[id]
	if !ok {
		return nil, chat.E(chat.ErrNotFound, "that reply has already finished")
	}
	return r, nil
}

// StopRun stops a running reply: the stream and any running tool calls are
// cancelled, and what was received is kept.
func (a *App) StopRun(runID string) error {
	c, err := a.chatOrErr()
	if err != nil {
		return err
	}
	r, err := c.runByID(runID)
	if err != nil {
		return err
	}
	r.cancel()
	return nil
}

// ApplyNow restarts the running reply's current step with the session's
// current tools. It reports whether a request was in flight.
func (a *App) ApplyNow(runID string) (bool, error) {
	c, err := a.chatOrErr()
	if err != nil {
		return false, err
	}
	r, err := c.runByID(runID)
	if err != nil {
		return false, err
	}
	return r.control.ApplyNow(), nil
}

// RetryTurn runs the session's last failed turn again.
func (a *App) RetryTurn(sessionID string) (string, error) {
	c, err := a.chatOrErr()
	if err != nil {
		return "", err
	}
	id, _, err := c.startRun(agent.RunInput{SessionID: sessionID, Retry: true})
	return id, err
}

// ActiveRun returns the id of the session's running reply, or "".
func (a *App) ActiveRun(sessionID string) string {
	if a.chat == nil {
		return ""
	}
	a.chat.mu.Lock()
	defer a.chat.mu.Unlock()
	for _, r := range a.chat.runs {
		if r.sessionID == sessionID {
			return r.id
		}
	}
	return ""
}

// AnswerApproval answers a pending approval request.
func (a *App) AnswerApproval(requestID, decision string) error {
	c, err := a.chatOrErr()
	if err != nil {
		return err
	}
	var d agent.Decision
	switch decision {
	case "allow_once":
		d = agent.AllowOnce
	case "always_allow":
		d = agent.AlwaysAllow
	case "deny":
		d = agent.Deny
	default:
		return chat.E(chat.ErrInvalid, "unknown decision %q: use allow_once, always_allow or deny", decision)
	}
	c.mu.Lock()
	p, ok := c.approvals[requestID]
	c.mu.Unlock()
	if !ok {
		return chat.E(chat.ErrNotFound, "that approval request is no longer waiting")
	}
	select {
	case p.answer <- d:
	default:
	}
	return nil
}

func knownProvider(p string) bool { return slices.Contains(chat.Providers(), p) }

// titleFromFirstMessage names a session still called DefaultTitle after its
// first message.
func (a *App) titleFromFirstMessage(ctx context.Context, st sessionUpdater, sessionID, text string) {
	_, err := st.UpdateSession(ctx, sessionID, func(s *chat.Session) error {
		if s.Title != DefaultTitle {
			return errUnchanged
		}
		s.Title = titleFrom(text)
		return nil
	})
	if err != nil && !errors.Is(err, errUnchanged) {
		a.log.Warn("title session from first message", "session", sessionID, "err", err)
	}
}

type sessionUpdater interface {
	UpdateSession(ctx context.Context, id string, fn func(*chat.Session) error) (chat.Session, error)
}
