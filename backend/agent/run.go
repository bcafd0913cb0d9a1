package agent

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"maestro/backend/chat"
)

// RunInput is one turn to run.
type RunInput struct {
	// RunID is the app's id for this run; every event carries it and the
	// messages the run writes record it.
	RunID     string
	SessionID string
	// Text, Files and Resources are the user's message (a prompt's parts
	// arrive as Text, Files and Resources too). All are empty with Retry.
	Text      string
	Files     []chat.FilePart
	Resources []chat.ResourcePart
	// Retry runs the session's last turn again without a new user message:
	// after a failed turn, or one that reached the step cap.
	Retry bool
	// Edit, if set, is the Seq of a user message of the active branch that
	// Text, Files and Resources replace: the new message is stored as its sibling (the
	// old one and its continuation stay, as another branch) and the turn
	// answers it with only the history before it.
	Edit uint64
	// Regenerate, if set, is the Seq of an assistant message of the active
	// branch whose answer is made again, as a new branch from its turn's
	// user message (regenerate.go); the old answer stays as another
	// branch. Text, Files and Resources are empty.
	Regenerate uint64
	// Control, if set, lets the app call ApplyNow while the run streams.
	Control *Control
}

// RunResult sums up a run that returned.
type RunResult struct {
	// Steps is how many model steps the turn took.
	Steps int
	Usage chat.Usage
}

// run is the state of one Run call, owned by its goroutine; only the tool
// results recorder (execute.go) is shared with tool goroutines.
type run struct {
	a    *Agent
	in   RunInput
	ctl  *Control
	sink *syncSink

	// entry is the session's decoded history (cache.go), held for the
	// whole run.
	entry *histEntry
	// history is the end of the session's active branch that requests
	// need (the entry's tail), including what this run wrote; requests
	// are rendered from it through the entry's view.
	history  []chat.Message
	promptID string
	// forkAt, while set, is the message the run's first write is stored
	// as a sibling of (a regenerated answer); the write clears it.
	forkAt uint64
	steps  int
	usage  chat.Usage
	// requestedBy is chat.RequestedByApp for an MCP App's call (AppCall).
	requestedBy string
}

// Run runs one turn: it persists the user's message (unless in.Retry), then
// loops model step → tool calls until a step has no tool calls, the step
// cap is reached, the turn fails or ctx is cancelled (the user's Stop). It
// returns when the turn is over, with everything received persisted. Every
// call, failed validation included, emits RunStarted first and exactly one
// RunFinished last; the returned error is RunFinished.Err.
func (a *Agent) Run(ctx context.Context, in RunInput, sink Sink) (RunResult, error) {
	return a.do(ctx, in, sink, (*run).turn)
}

// do runs body as a run: RunStarted first, exactly one RunFinished last
// (a panic included), the run's usage in the result.
func (a *Agent) do(ctx context.Context, in RunInput, sink Sink, body func(*run, context.Context) error) (res RunResult, err error) {
	r := &run{a: a, in: in, ctl: in.Control, sink: &syncSink{s: sink}}
	if r.ctl == nil {
		r.ctl = &Control{}
	}
	defer func() {
		if p := recover(); p != nil {
			a.log.ErrorContext(ctx, "agent: run panicked", "run", in.RunID, "panic", p, "stack", string(debug.Stack()))
			err = fmt.Errorf("agent: run %s: internal error: %v", in.RunID, p)
			r.failMarker(ctx, err)
		}
		fin := RunFinished{RunID: in.RunID, Err: err, Usage: r.usage}
		fin.Canceled = err != nil && ctx.Err() != nil
		fin.RetryAt = retryAt(err, a.clock.Now())
		r.sink.finish(fin)
		res = RunResult{Steps: r.steps, Usage: r.usage}
	}()
	r.emit(RunStarted{RunID: in.RunID, SessionID: in.SessionID})
	return res, body(r, ctx)
}

func (r *run) emit(ev Event) { r.sink.Emit(ev) }

// open takes the session's history entry for the run and brings it up to
// date; close (deferred by turn) hands back what the run leaves.
func (r *run) open(ctx context.Context) error {
	r.entry = r.a.hist.entry(r.in.SessionID)
	r.entry.mu.Lock()
	if _, err := r.a.load(ctx, r.entry, r.in.SessionID); err != nil {
		r.entry.mu.Unlock()
		return err
	}
	// A session runs one turn at a time, so checkpoints still marked
	// streaming were left by a process that died mid-turn.
	history, n, err := Recover(ctx, r.a.store, r.in.SessionID, r.entry.tail)
	if err != nil {
		r.entry.loaded = false
		r.entry.mu.Unlock()
		return err
	}
	if n > 0 {
		r.entry.view.reset()
	}
	r.history = history
	return nil
}

func (r *run) close(ctx context.Context) {
	if r.settleRegenerate() {
		r.entry.mu.Unlock()
		return
	}
	r.a.settle(ctx, r.entry, r.in.SessionID, r.history)
	r.entry.mu.Unlock()
}

func (r *run) turn(ctx context.Context) error {
	if err := r.open(ctx); err != nil {
		return err
	}
	defer r.close(ctx)
	switch {
	case r.in.Retry && r.in.Edit != 0, r.in.Regenerate != 0 && (r.in.Retry || r.in.Edit != 0):
		return chat.E(chat.ErrInvalid, "a turn cannot be retried, edited or regenerated at once")
	case r.in.Regenerate != 0:
		if err := r.checkRegenerate(ctx); err != nil {
			return err
		}
	case r.in.Retry:
		if err := checkRetry(r.history); err != nil {
			return err
		}
	default:
		if r.in.Edit != 0 {
			if err := r.checkEdit(ctx); err != nil {
				return err
			}
		}
		if err := r.saveUserMessage(ctx); err != nil {
			return err
		}
	}
	r.promptID = r.history[lastUserMessage(r.history)].ID
	for step := 1; ; step++ {
		if step > r.a.maxSteps {
			err := chat.E(ErrStepLimit, "the agent stopped after %d steps without a final answer; retry the turn to let it continue", r.a.maxSteps)
			r.failMarker(ctx, err)
			return err
		}
		r.steps = step
		at, err := r.step(ctx, step)
		if err != nil {
			return err
		}
		if len(at.asm.calls) == 0 {
			return nil
		}
		if err := r.runTools(ctx, at); err != nil {
			return err
		}
	}
}

func (r *run) saveUserMessage(ctx context.Context) error {
	if r.in.Text == "" && len(r.in.Files) == 0 && len(r.in.Resources) == 0 {
		return chat.E(chat.ErrInvalid, "the message is empty")
	}
	var parts chat.Parts
	if r.in.Text != "" {
		parts = append(parts, chat.TextPart{Text: r.in.Text})
	}
	for _, f := range r.in.Files {
		parts = append(parts, f)
	}
	for _, res := range r.in.Resources {
		parts = append(parts, res)
	}
	msg := chat.Message{Role: chat.RoleUser, Parts: parts, RunID: r.in.RunID, Status: chat.StatusComplete}
	msg.Tokens = chat.EstimateTokens(msg)
	wctx := context.WithoutCancel(ctx)
	if r.in.Edit != 0 {
		m, err := r.a.store.ForkMessage(wctx, r.in.SessionID, r.in.Edit, msg)
		if err != nil {
			return fmt.Errorf("agent: save the user message: %w", err)
		}
		// The branch changed under the tail: read the new one, which ends
		// with the message just stored.
		if _, err := r.a.reload(ctx, r.entry, r.in.SessionID); err != nil {
			return err
		}
		r.history = r.entry.tail
		r.emit(MessageSaved{RunID: r.in.RunID, MessageID: m.ID, Seq: m.Seq, Role: m.Role, Status: m.Status})
		return nil
	}
	m, err := r.a.store.AppendMessage(wctx, r.in.SessionID, msg)
	if err != nil {
		return fmt.Errorf("agent: save the user message: %w", err)
	}
	r.history = append(r.history, m)
	r.emit(MessageSaved{RunID: r.in.RunID, MessageID: m.ID, Seq: m.Seq, Role: m.Role, Status: m.Status})
	return nil
}

// checkEdit checks that the message being edited is a user message of the
// active branch: in the tail the run holds, or older than it (before the
// latest summary), which the store answers.
func (r *run) checkEdit(ctx context.Context) error {
	seq := r.in.Edit
	var m chat.Message
	if i := slices.IndexFunc(r.history, func(m chat.Message) bool { return m.Seq == seq }); i >= 0 {
		m = r.history[i]
	} else {
		on, err := r.a.store.OnActivePath(ctx, r.in.SessionID, seq)
		if err != nil {
			return fmt.Errorf("agent: find the edited message: %w", err)
		}
		if !on {
			return chat.E(chat.ErrNotFound, "message %d is not in the conversation shown; switch to its branch first", seq)
		}
		if m, err = r.a.store.Message(ctx, r.in.SessionID, seq); err != nil {
			return fmt.Errorf("agent: read the edited message: %w", err)
		}
	}
	if m.Role != chat.RoleUser {
		return chat.E(chat.ErrInvalid, "message %d is not yours; only your own messages can be edited", seq)
	}
	return nil
}

// checkRetry refuses to retry a turn that ended with a final reply.
func checkRetry(history []chat.Message) error {
	if lastUserMessage(history) < 0 {
		return chat.E(chat.ErrInvalid, "the session has no message to answer")
	}
	last := lastSendable(history)
	if last >= 0 && history[last].Role == chat.RoleAssistant && len(history[last].ToolCalls()) == 0 {
		return chat.E(chat.ErrInvalid, "the last turn already has its reply; there is nothing to retry")
	}
	return nil
}

// stepState is what a step remembers across its attempts.
type stepState struct {
	retries int
	// compacted is set once the provider refused the step's request as too
	// long and the agent compacted: a second refusal ends the turn.
	compacted bool
}

// step runs one model request to completion, retrying or restarting it as
// the failure calls for. On success the assistant message is persisted
// complete. On failure or Stop, what was received is persisted (failed or
// canceled) and the returned error ends the turn.
func (r *run) step(ctx context.Context, step int) (*attempt, error) {
	var st stepState
	for n := 1; ; n++ {
		at, err := r.attempt(ctx, step, n)
		if err == nil {
			return at, nil
		}
		if ctx.Err() != nil {
			r.settleStopped(ctx, at)
			return nil, stopped(ctx)
		}
		reason, delay := r.retryable(err, &st)
		if reason == "" {
			reason, err = r.compactTooLong(ctx, at, err, &st)
		}
		if reason == "" {
			r.settleFailed(ctx, at, err)
			return nil, err
		}
		r.supersede(ctx, at)
		r.emit(Retrying{RunID: r.in.RunID, Step: step, Attempt: n + 1, Delay: delay, Reason: reason, Err: err})
		if delay > 0 {
			if err := r.a.clock.Sleep(ctx, delay); err != nil {
				return nil, stopped(ctx)
			}
		}
	}
}

// retryable decides what a failed attempt calls for: a reason to try
// again (with a delay), or "" when err ends the turn. A 401 ends it: the
// credential's transport (backend/auth) has already refreshed the token
// once and replayed the request, so the sign-in itself is refused.
func (r *run) retryable(err error, st *stepState) (string, time.Duration) {
	if errors.Is(err, ErrApplyNow) {
		return "apply_now", 0
	}
	pe, ok := chat.AsProviderError(err)
	if !ok {
		return "", 0
	}
	delay, ok := r.a.retry.Delay(err, st.retries)
	if !ok {
		return "", 0
	}
	st.retries++
	return string(pe.Kind), delay
}

// stopped is the error of a turn the user stopped.
func stopped(ctx context.Context) error {
	return fmt.Errorf("agent: turn stopped: %w", ctx.Err())
}

// retryAt is when a limit that ended the turn resets, if the error says.
func retryAt(err error, now time.Time) time.Time {
	he, ok := chat.AsProviderError(err)
	switch {
	case !ok:
		return time.Time{}
	case !he.ResetAt.IsZero():
		return he.ResetAt
	case he.RetryAfter > 0:
		return now.Add(he.RetryAfter)
	}
	return time.Time{}
}

// failureOf classifies the error that ended a turn, for the failed reply
// that records it.
func failureOf(err error, now time.Time) *chat.Failure {
	f := &chat.Failure{Kind: chat.Kind(err), RetryAt: retryAt(err, now)}
	if he, ok := chat.AsProviderError(err); ok {
		f.Provider, f.Reason, f.Code, f.Detail = he.Provider, string(he.Kind), he.Code, he.Message
	}
	return f
}

// syncSink serialises a run's events and drops any after the terminal one.
type syncSink struct {
	mu   sync.Mutex
	s    Sink
	done bool
}

func (s *syncSink) Emit(ev Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done || s.s == nil {
		return
	}
	s.s.Emit(ev)
}

func (s *syncSink) finish(ev RunFinished) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return
	}
	s.done = true
	if s.s != nil {
		s.s.Emit(ev)
	}
}
