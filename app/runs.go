package app

import (
	"context"
	"slices"
	"sync"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/store"
)

// startRun launches the run in (SessionID, Text, Retry, Edit, Regenerate;
// RunID and Control are set here) on its own goroutine. It returns once the
// user's message is stored (or the run failed before that), with the
// message as the UI shows it; a run that stores none (Retry, Regenerate)
// returns at once.
func (c *Chat) startRun(in agent.RunInput) (string, *MessageDTO, error) {
	return c.launch(in, (*agent.Agent).Run)
}

// launch starts body (Agent.Run, or Agent.Compact through compactRun) as a
// run of the session: registered, stoppable with StopRun, its events sent.
func (c *Chat) launch(in agent.RunInput, body func(*agent.Agent, context.Context, agent.RunInput, agent.Sink) (agent.RunResult, error)) (string, *MessageDTO, error) {
	run, _, cancelCall, err := c.core.call()
	if err != nil {
		return "", nil, err
	}
	cancelCall()
	noMessage := in.Retry || in.Regenerate != 0 || in.Text == "" && len(in.Files) == 0 && len(in.Resources) == 0
	if !noMessage {
		c.pickDefaultModel(in.SessionID)
	}
	root, err := c.core.beginWork()
	if err != nil {
		return "", nil, err
	}
	c.mu.Lock()
	if c.runningLocked(in.SessionID) {
		c.mu.Unlock()
		c.core.work.Done()
		return "", nil, errRunning()
	}
	ctx, cancel := context.WithCancel(root)
	rs := &runState{id: chat.NewID(), sessionID: in.SessionID, edit: in.Edit != 0, regen: in.Regenerate != 0, cancel: cancel, control: &agent.Control{}}
	c.runs[rs.id] = rs
	c.mu.Unlock()

	in.RunID, in.Control = rs.id, rs.control
	started := make(chan startResult, 1)
	sink := &runSink{c: c, store: run.store, run: rs, started: started}
	go func() {
		defer c.core.work.Done()
		defer c.finish(rs)
		_, _ = body(run.agent, ctx, in, sink)
	}()
	if noMessage {
		return rs.id, nil, nil
	}
	res := <-started
	return rs.id, res.msg, res.err
}

type startResult struct {
	msg *MessageDTO
	err error
}

// finish forgets a run; calling it again is a no-op.
func (c *Chat) finish(rs *runState) {
	rs.cancel()
	c.mu.Lock()
	delete(c.runs, rs.id)
	c.mu.Unlock()
}

// runByID returns a live run.
func (c *Chat) runByID(id string) (*runState, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.runs[id]
	if !ok {
		return nil, chat.E(chat.ErrNotFound, "that reply has already finished")
	}
	return r, nil
}

// stopSession cancels the session's running reply, if any; it returns
// without waiting for the run to end.
func (c *Chat) stopSession(sessionID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.runs {
		if r.sessionID == sessionID {
			r.cancel()
		}
	}
}

// runningLocked reports whether sessionID has a run; c.mu must be held.
func (c *Chat) runningLocked(sessionID string) bool {
	for _, r := range c.runs {
		if r.sessionID == sessionID {
			return true
		}
	}
	return false
}

// whileIdle runs fn unless sessionID has a running reply, and keeps a new
// reply from starting until fn returns.
func (c *Chat) whileIdle(sessionID string, fn func() error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.runningLocked(sessionID) {
		return errRunning()
	}
	return fn()
}

// settled returns the page read reads, with the checkpoints of a turn
// whose process died (still marked streaming with no run of ours writing
// them) settled by agent.Recover, so they show as failed and retryable.
// Only then does it take the run table's lock, so no run can start in
// between, and read the page again under it, since a run may have finished
// after the first read.
func (c *Chat) settled(ctx context.Context, st *store.Store, id string, read func() (store.Page, error)) (store.Page, error) {
	page, err := read()
	streaming := func(m chat.Message) bool { return m.Status == chat.StatusStreaming }
	if err != nil || !slices.ContainsFunc(page.Messages, streaming) {
		return page, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.runningLocked(id) {
		return page, nil
	}
	if page, err = read(); err != nil {
		return page, err
	}
	if page.Messages, _, err = agent.Recover(ctx, st, id, page.Messages); err != nil {
		c.core.log.Warn("settle an interrupted turn", "session", id, "err", err)
	}
	return page, nil
}

// latestPage reads the active branch's last page, settled.
func (c *Chat) latestPage(ctx context.Context, st *store.Store, id string) (store.Page, error) {
	return c.settled(ctx, st, id, func() (store.Page, error) { return st.ActivePathPage(ctx, id, 0, pageSize) })
}

// hitContext is how many messages older than a search hit are loaded with
// it, so the hit does not sit at the very top of what can be scrolled.
const hitContext = 10

// pagesDownTo reads the active branch from its latest message back to seq
// and a few older ones, in one walk, settled.
func (c *Chat) pagesDownTo(ctx context.Context, st *store.Store, id string, seq uint64) (store.Page, error) {
	return c.settled(ctx, st, id, func() (store.Page, error) {
		p, err := st.ActivePathTo(ctx, id, seq, hitContext)
		if err != nil || len(p.Messages) >= pageSize {
			return p, err
		}
		// A hit among the latest messages: open on a full page, as Open does.
		return st.ActivePathPage(ctx, id, 0, pageSize)
	})
}

// runSink turns agent events into UI events. The agent serialises Emit
// calls of one run.
type runSink struct {
	c       *Chat
	store   *store.Store
	run     *runState
	started chan startResult
	once    sync.Once
}

func (s *runSink) signal(r startResult) { s.once.Do(func() { s.started <- r }) }

func (s *runSink) Emit(ev agent.Event) {
	ev2 := s.c.core.events
	id := s.run.id
	switch e := ev.(type) {
	case agent.RunStarted:
		ev2.runEvent(id, EventRunStarted, RunDTO{RunID: id, SessionID: e.SessionID})
	case agent.StepStarted:
		ev2.runEvent(id, EventRunStep, StepDTO{RunID: id, SessionID: s.run.sessionID, Step: e.Step, Attempt: e.Attempt,
			Provider: e.Provider, Model: e.Model, ToolsRevision: e.ToolsRevision, ToolCount: e.ToolCount})
	case agent.TextDelta:
		ev2.delta(id, DeltaText, e.Text)
	case agent.ReasoningDelta:
		ev2.delta(id, DeltaReasoning, e.Text)
	case agent.Retrying:
		ev2.runEvent(id, EventRunRetrying, RetryDTO{RunID: id, Attempt: e.Attempt, DelayMS: e.Delay.Milliseconds(), Reason: e.Reason})
	case agent.MessageSaved:
		s.saved(e)
	case agent.RunFinished:
		s.finished(e)
	default:
		if name, dto, ok := toolEvent(id, ev); ok {
			if r, running := ev.(agent.ToolCallRunning); running {
				dto.App = s.appOf(r.Name)
			}
			ev2.runEvent(id, name, dto)
		} else if name, dto, ok := contextEvent(id, s.run.sessionID, ev); ok {
			ev2.runEvent(id, name, dto)
		}
	}
}

// appOf is the MCP App of the session's tool canonical, if it has one (a
// UI its card draws while the call runs).
func (s *runSink) appOf(canonical string) *ToolAppDTO {
	run, ctx, cancel, err := s.c.core.call()
	if err != nil {
		return nil
	}
	defer cancel()
	snap, err := run.reg.Snapshot(ctx, s.run.sessionID)
	if err != nil {
		return nil
	}
	e, ok := snap.Lookup(canonical)
	if !ok || e.Builtin {
		return nil
	}
	return toolAppDTO(run.sup.AppOfTool(e.ConnectorID, e.Tool))
}

// toolEvent converts the agent's tool call events.
func toolEvent(runID string, ev agent.Event) (Event, ToolEventDTO, bool) {
	switch e := ev.(type) {
	case agent.ToolCallStarted:
		return EventToolStarted, ToolEventDTO{RunID: runID, CallID: e.CallID, Name: e.Name, Server: e.Server}, true
	case agent.ToolCallArgs:
		return EventToolArgs, ToolEventDTO{RunID: runID, CallID: e.CallID, Fragment: e.Fragment}, true
	case agent.ToolCallRunning:
		return EventToolRunning, ToolEventDTO{RunID: runID, CallID: e.CallID, Name: e.Name, Arguments: string(e.Arguments)}, true
	case agent.ToolCallProgress:
		return EventToolProgress, ToolEventDTO{RunID: runID, CallID: e.CallID, Progress: e.Progress, Total: e.Total, Message: e.Message}, true
	case agent.ToolCallLog:
		return EventToolLog, ToolEventDTO{RunID: runID, CallID: e.CallID, Level: e.Level, Text: e.Message}, true
	case agent.ToolCallFinished:
		res := toolResultDTO(e.Result)
		return EventToolFinished, ToolEventDTO{RunID: runID, CallID: e.CallID, Result: &res, DurationMS: e.Duration.Milliseconds()}, true
	}
	return "", ToolEventDTO{}, false
}

// finished ends the run: exactly one run:finished.
func (s *runSink) finished(e agent.RunFinished) {
	s.signal(startResult{err: e.Err}) // a run that failed before storing the message
	// The run is over: forget it before telling the UI, so a message,
	// edit or branch switch sent on run:finished is not refused.
	s.c.finish(s.run)
	id := s.run.id
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
	s.c.core.events.runEvent(id, EventRunFinished, fin)
	s.c.core.events.emit(EventSessionsChanged, nil)
}

// saved loads the stored message and sends it to the UI.
func (s *runSink) saved(e agent.MessageSaved) {
	ctx, cancel, err := s.c.core.rootCall()
	if err != nil {
		return
	}
	defer cancel()
	st := s.store
	m, err := st.Message(ctx, s.run.sessionID, e.Seq)
	if err != nil {
		s.c.core.log.Warn("load saved message", "session", s.run.sessionID, "seq", e.Seq, "err", err)
		return
	}
	dto := messageDTO(m)
	if m.Role == chat.RoleUser {
		titleFromFirstMessage(ctx, s.c.core, st, s.run.sessionID, m.Text())
		if s.run.edit {
			dto.Branch = s.c.branchOf(ctx, st, s.run.sessionID, m.Seq)
		}
		s.signal(startResult{msg: &dto})
	}
	if s.run.regen && m.Role == chat.RoleAssistant {
		dto.Branch = s.c.branchOf(ctx, st, s.run.sessionID, m.Seq)
	}
	s.c.core.events.runEvent(s.run.id, EventMessageSaved, SavedDTO{RunID: s.run.id, SessionID: s.run.sessionID, Message: dto})
	if m.Role == chat.RoleUser {
		s.c.core.events.emit(EventSessionsChanged, nil)
	}
}
