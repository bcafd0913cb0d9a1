package agent

import (
	"context"
	"fmt"
	"sync"
	"time"

	"maestro/backend/chat"
)

// Error texts of results the agent writes itself; the model reads them.
const (
	msgDenied     = "the user denied this tool call"
	msgDenyAll    = "tools are turned off in this session (approval: deny all)"
	msgNoApprover = "this tool call needs the user's approval and no one can be asked"
	msgStopped    = "the user stopped the turn before this tool call finished"
)

func errorResult(call chat.ToolCall, msg string) chat.ToolResult {
	return chat.ToolResult{CallID: call.ID, Name: call.Name, Error: msg}
}

func stoppedResult(call chat.ToolCall) chat.ToolResult { return errorResult(call, msgStopped) }

// runTools answers the tool calls of a completed step: calls with invalid
// arguments get an error result at once, then approvals, in call order,
// then the approved calls in parallel (at most a.parallel at a
// time). Every call gets exactly one result, persisted as it arrives in the
// step's one tool message (results in call order). It returns after every
// call goroutine has exited.
func (r *run) runTools(ctx context.Context, at *attempt) error {
	calls := at.msg.ToolCalls()
	rec := r.newRecorder(ctx, calls)
	// The tool message joins the run's history before anything written
	// after it (a failure marker), as in the store.
	defer r.keep(rec)
	// The policy and grants as they are now, not as they were when the
	// request was sent.
	sess := at.sess
	if s, err := r.a.store.Session(ctx, sess.ID); err == nil {
		sess = s
	}
	grants := make(map[string]bool, len(sess.Grants))
	for _, g := range sess.Grants {
		grants[g] = true
	}
	var runnable []int
	verdicts := make([]*verdict, len(calls))
	defer func() { r.auditCalls(ctx, sess.ID, calls, at.asm.calls, verdicts, rec) }()
	for i, call := range calls {
		if msg := r.checkArguments(ctx, call, at.asm.calls[i]); msg != "" {
			rec.record(i, errorResult(call, msg), 0)
			continue
		}
		v, err := r.approve(ctx, sess, grants, call, at.asm.calls[i])
		verdicts[i] = &v
		run, msg := v.run, v.msg
		if err != nil {
			if ctx.Err() != nil {
				rec.fill(stoppedResult)
				return stopped(ctx)
			}
			err = fmt.Errorf("agent: ask for approval of %s: %w", call.Name, err)
			rec.fill(func(c chat.ToolCall) chat.ToolResult { return errorResult(c, "not run: "+err.Error()) })
			r.keep(rec)
			r.failMarker(ctx, err)
			return err
		}
		if run {
			runnable = append(runnable, i)
		} else {
			rec.record(i, errorResult(call, msg), 0)
		}
	}
	r.execute(ctx, at, calls, runnable, rec)
	if ctx.Err() != nil {
		return stopped(ctx)
	}
	if rec.err != nil {
		r.keep(rec)
		r.failMarker(ctx, rec.err)
	}
	return rec.err
}

// keep adds the step's tool message to the run's history, once.
func (r *run) keep(rec *recorder) {
	if rec.msg.Seq != 0 && !rec.kept {
		rec.kept = true
		r.history = append(r.history, rec.msg)
	}
}

// checkArguments returns the error result text for a known tool's call
// whose arguments cannot run (arguments.go), or "". Such a call is
// answered without asking for approval: there is nothing to approve.
func (r *run) checkArguments(ctx context.Context, call chat.ToolCall, info callInfo) string {
	if !info.known {
		return "" // answered as an unknown tool
	}
	msg := checkArguments(call, info.schema)
	if msg != "" {
		r.a.log.InfoContext(ctx, "agent: tool call with invalid arguments answered without running",
			"session", r.in.SessionID, "tool", call.Name, "unparseable", call.InvalidArguments != "")
	}
	return msg
}

// execute runs the calls at the indexes in runnable, bounded by a.parallel.
// A call not started before Stop gets a "stopped" result without running.
func (r *run) execute(ctx context.Context, at *attempt, calls []chat.ToolCall, runnable []int, rec *recorder) {
	sem := make(chan struct{}, r.a.parallel)
	var wg sync.WaitGroup
	for _, i := range runnable {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			rec.record(i, stoppedResult(calls[i]), 0)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			res, d := r.callTool(ctx, CallRequest{RunID: r.in.RunID, SessionID: at.sess.ID, Provider: at.sess.Provider,
				Call: calls[i], Server: at.asm.calls[i].Server})
			rec.record(i, res, d)
		}()
	}
	wg.Wait()
}

// callTool runs one call, relaying its notifications until it returns and
// turning a panic into an error result.
func (r *run) callTool(ctx context.Context, req CallRequest) (res chat.ToolResult, d time.Duration) {
	call := req.Call
	start := r.a.clock.Now()
	var mu sync.Mutex // orders notifications before ToolCallFinished
	over := false
	report := func(u ToolUpdate) {
		mu.Lock()
		defer mu.Unlock()
		if over {
			return
		}
		switch u.Kind {
		case UpdateProgress:
			r.emit(ToolCallProgress{RunID: r.in.RunID, CallID: call.ID, Progress: u.Progress, Total: u.Total, Message: u.Message})
		case UpdateLog:
			r.emit(ToolCallLog{RunID: r.in.RunID, CallID: call.ID, Level: u.Level, Message: u.Message})
		}
	}
	defer func() {
		if p := recover(); p != nil {
			r.a.log.ErrorContext(ctx, "agent: tool call panicked", "tool", call.Name, "panic", p)
			res = errorResult(call, fmt.Sprintf("tool panicked: %v", p))
		}
		mu.Lock()
		over = true
		mu.Unlock()
		d = r.a.clock.Now().Sub(start)
		r.a.log.InfoContext(ctx, "agent: tool call", "session", req.SessionID, "tool", call.Name,
			"duration", d, "successful", res.Successful)
	}()
	r.emit(ToolCallRunning{RunID: r.in.RunID, CallID: call.ID, Name: call.Name, Arguments: call.Arguments})
	return r.a.tools.Call(ctx, req, report), 0
}

// recorder persists a step's results as they arrive: one tool message,
// appended with the first result and rewritten with each later one (parts
// in call order), complete once every call has its result. A crash loses
// no finished result. mu guards everything below it; record is called from
// the tool goroutines.
type recorder struct {
	r     *run
	ctx   context.Context
	calls []chat.ToolCall

	mu      sync.Mutex
	results []*chat.ToolResult
	n       int
	msg     chat.Message
	err     error

	kept bool // owned by the run goroutine, after the calls returned
}

func (r *run) newRecorder(ctx context.Context, calls []chat.ToolCall) *recorder {
	return &recorder{r: r, ctx: ctx, calls: calls, results: make([]*chat.ToolResult, len(calls)),
		msg: chat.Message{ID: chat.NewID(), Role: chat.RoleTool, RunID: r.in.RunID}}
}

// record stores call i's result; a second result for a call is ignored.
func (rc *recorder) record(i int, res chat.ToolResult, d time.Duration) {
	res.CallID, res.Name = rc.calls[i].ID, rc.calls[i].Name
	if res.DurationMS == 0 {
		res.DurationMS = d.Milliseconds()
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.results[i] != nil {
		return
	}
	rc.results[i] = &res
	rc.n++
	rc.r.emit(ToolCallFinished{RunID: rc.r.in.RunID, CallID: res.CallID, Result: res, Duration: d})
	m := rc.msg
	m.Parts, m.Status = make(chat.Parts, 0, rc.n), chat.StatusStreaming
	for _, p := range rc.results {
		if p != nil {
			m.Parts = append(m.Parts, chat.ToolResultPart{Result: *p})
		}
	}
	if rc.n == len(rc.calls) {
		m.Status = chat.StatusComplete
	}
	m.Tokens = chat.EstimateTokens(m)
	if err := rc.r.write(rc.ctx, &m); err != nil {
		if rc.err == nil {
			rc.err = fmt.Errorf("agent: save tool results: %w", err)
		}
		return
	}
	rc.msg = m
	if m.Status == chat.StatusComplete {
		rc.r.emit(MessageSaved{RunID: rc.r.in.RunID, MessageID: m.ID, Seq: m.Seq, Role: m.Role, Status: m.Status})
	}
}

// fill gives every call without a result the result fn makes.
func (rc *recorder) fill(fn func(chat.ToolCall) chat.ToolResult) {
	for i, c := range rc.calls {
		rc.record(i, fn(c), 0)
	}
}
