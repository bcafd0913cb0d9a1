package mcp

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
	"maestro/backend/tools"
)

// Tasks (docs/MCP.md): a tool whose server declares task support for
// tools/call and that lists it with execution.taskSupport "optional" or
// "required" is called as a task: the server answers at once with a task
// handle, and Maestro polls tasks/get (the status and its message are the
// call's progress) until the task ends, then reads the result with
// tasks/result. The turn waits for it like for any call, without the call
// timeout (a task is long work by design) and across reconnections. The
// task is kept in the store, so one still running when Maestro quits is
// followed again at the next start, or reported lost; never dropped. An
// input_required task asks through the same Elicitor, Sampler and roots:
// the server sends its requests while tasks/result waits.

// TaskStatus is a task's state.
type TaskStatus string

// Task states: the protocol's, and TaskLost for a task the server no
// longer knows (it restarted, or the task expired) before Maestro saw it
// end.
const (
	TaskWorking       TaskStatus = "working"
	TaskInputRequired TaskStatus = "input_required"
	TaskCompleted     TaskStatus = "completed"
	TaskFailed        TaskStatus = "failed"
	TaskCancelled     TaskStatus = "cancelled"
	TaskLost          TaskStatus = "lost"
)

// Ended reports whether a task is over.
func (s TaskStatus) Ended() bool {
	return s == TaskCompleted || s == TaskFailed || s == TaskCancelled || s == TaskLost
}

// Task is one tool call running as an MCP task, as the UI shows it (the
// job card, the connector's task list) and the store keeps it.
type Task struct {
	ID          string `json:"id"` // the server's taskId
	ConnectorID string `json:"connectorId"`
	// Tool is the MCP tool name; Canonical the session's name for it.
	Tool      string `json:"tool"`
	Canonical string `json:"canonical,omitempty"`
	// SessionID and CallID name the chat's tool call that started it.
	SessionID string     `json:"sessionId,omitempty"`
	CallID    string     `json:"callId,omitempty"`
	Status    TaskStatus `json:"status"`
	// Message is the server's status message (or why the task is lost).
	Message string `json:"message,omitempty"`
	// Result is the envelope of a task that ended while no call waited
	// for it (it was followed again after a restart).
	Result *chat.ToolResult `json:"result,omitempty"`
	// Protocol and Session: the era the task was created in, and for the
	// old era over HTTP the session it lives in (the server knows the task
	// only there), so that it can be followed again after a restart.
	Protocol  string    `json:"protocol,omitempty"`
	Session   string    `json:"session,omitempty"`
	PollMS    int64     `json:"pollMs,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// TaskStore keeps task records; *store.Store satisfies it.
type TaskStore interface {
	PutTask(ctx context.Context, connectorID, taskID string, v any) error
	DeleteTask(ctx context.Context, connectorID, taskID string) error
	Tasks(ctx context.Context) ([]json.RawMessage, error)
}

// TaskEvents receives every change of a task (the job card and the
// connector's task list follow it). It is called from the goroutine
// following the task and must not block or call back into the Supervisor.
type TaskEvents interface {
	TaskChanged(Task)
}

// WithTaskStore keeps task records so that a restart does not lose them.
func WithTaskStore(st TaskStore) SupervisorOption {
	return func(s *Supervisor) { s.tasks.store = st }
}

// WithTaskEvents receives task changes.
func WithTaskEvents(e TaskEvents) SupervisorOption {
	return func(s *Supervisor) { s.tasks.events = e }
}

// ErrDetach, as the cause of a call's cancellation, leaves a task the call
// follows running on the server (to be followed again at the next start)
// instead of cancelling it: the app cancels its runs with it when it quits.
var ErrDetach = errors.New("mcp: Maestro is quitting; the task keeps running")

const (
	// taskTTL is the retention Maestro asks for: a day, so a task
	// survives a night's shutdown.
	taskTTL = 24 * time.Hour
	// defaultTaskPoll and the bounds on a server's pollInterval.
	defaultTaskPoll = time.Second
	minTaskPoll     = 200 * time.Millisecond
	maxTaskPoll     = 30 * time.Second
	// taskRequestTimeout bounds each tasks/get and tasks/cancel.
	taskRequestTimeout = 30 * time.Second
	// tasksKept is how many ended tasks a connector's list keeps.
	tasksKept = 50
)

// Tasks returns a connector's tasks (running and the latest ended ones),
// newest first: the connector's task list.
func (s *Supervisor) Tasks(connectorID string) ([]Task, error) {
	if _, err := s.runner(connectorID); err != nil {
		return nil, err
	}
	return s.tasks.list(connectorID), nil
}

// Task returns one task.
func (s *Supervisor) Task(connectorID, taskID string) (Task, error) {
	t, ok := s.tasks.get(connectorID, taskID)
	if !ok {
		return Task{}, chat.E(chat.ErrNotFound, "mcp: no task %q on connector %q", taskID, connectorID)
	}
	return t, nil
}

// CancelTask asks the server to cancel a task (tasks/cancel) and records it
// cancelled; the call waiting for it, if any, ends with that. Cancelling is
// cooperative: the server may finish the work anyway.
func (s *Supervisor) CancelTask(ctx context.Context, connectorID, taskID string) error {
	t, err := s.Task(connectorID, taskID)
	if err != nil {
		return err
	}
	if t.Status.Ended() {
		return chat.E(chat.ErrConflict, "mcp: task %q has already ended (%s)", taskID, t.Status)
	}
	r, err := s.runner(connectorID)
	if err != nil {
		return err
	}
	l, err := r.ready(ctx)
	if err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, taskRequestTimeout)
	defer cancel()
	if _, err := l.client.CancelTask(cctx, mcpgo.CancelTaskRequest{Params: mcpgo.CancelTaskParams{TaskId: taskID}}); err != nil {
		return fmt.Errorf("mcp: cancel task %q on %s: %w", taskID, r.config().DisplayName(), err)
	}
	t.Status, t.Message = TaskCancelled, "cancelled by the user"
	s.tasks.put(ctx, t)
	return nil
}

// taskSupport is how the connector's server lets tool be called as a task:
// "" when it does not (the server declares no task support for tools/call,
// or the tool forbids it).
//
// Tasks are called the 2025-11-25 way, which the old era has in its core
// (task-augmented tools/call, tasks/get, tasks/result). 2026-07-28 moved
// tasks to an extension (io.modelcontextprotocol/tasks: unsolicited task
// results, the result in tasks/get, tasks/update) that no server Maestro is
// tested against implements yet (docs/MCP.md); on that era a tool is
// called plainly.
func (r *runner) taskSupport(l *link, tool string) mcpgo.TaskSupport {
	if IsModern(l.protocol) {
		return ""
	}
	if tc := l.caps.Tasks; tc == nil || tc.Requests == nil || tc.Requests.Tools == nil || tc.Requests.Tools.Call == nil {
		return ""
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range r.tools {
		if t.Name == tool && t.Execution != nil {
			switch t.Execution.TaskSupport {
			case mcpgo.TaskSupportOptional, mcpgo.TaskSupportRequired:
				return t.Execution.TaskSupport
			}
		}
	}
	return ""
}

// taskCall is one call running as a task.
type taskCall struct {
	s          *Supervisor
	r          *runner
	task       Task
	onProgress func(Progress)
	// live is set while a chat's call waits for the task (not when it is
	// followed again after a restart).
	live bool
	// side is the link to the task's own old-era HTTP session, when it is
	// followed again after a restart (the server knows it only there).
	side *link
	// serverEnd is the ended state tasks/get reported, if any.
	serverEnd TaskStatus
}

// link is the link to follow the task on: the connector's current one, or
// for a task of an old-era HTTP session, a link to that session.
func (tc *taskCall) link(ctx context.Context) (*link, error) {
	l, err := tc.r.ready(ctx)
	if err != nil || tc.live || tc.task.Session == "" || l.client.GetSessionId() == tc.task.Session {
		return l, err
	}
	if tc.side == nil {
		side, err := tc.r.sessionLink(ctx, l.cfg, tc.task.Session, tc.task.Protocol)
		if err != nil {
			return nil, err
		}
		tc.side = side
	}
	return tc.side, nil
}

func (tc *taskCall) closeSide() {
	if tc.side != nil {
		tc.side.close()
	}
}

// callTask starts tool as a task and follows it to its end. The returned
// result is the tool's; an error is the call's failure (worded by
// callError).
func (s *Supervisor) callTask(ctx context.Context, r *runner, l *link, e tools.Entry, args json.RawMessage, origin Origin, onProgress func(Progress)) (*mcpgo.CallToolResult, error) {
	// The call's state lives as long as the task: its progress token stays
	// valid for the task's life, and the server's requests during the task
	// find their call.
	cs := &callState{token: "maestro-" + strconv.FormatInt(tokens.Add(1), 10), origin: origin, onProgress: onProgress}
	ctx = context.WithValue(ctx, callKey{}, cs)
	cs.ctx = ctx
	l.addCall(cs)
	defer l.removeCall(cs)

	ttl := taskTTL.Milliseconds()
	req := mcpgo.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = e.Tool, args
	req.Params.Task = &mcpgo.TaskParams{TTL: &ttl}
	req.Params.Meta = &mcpgo.Meta{ProgressToken: cs.token}
	catch := &rawCatch{}
	cctx, cancel := context.WithTimeout(context.WithValue(ctx, rawCatchKey{}, catch), l.cfg.CallTimeout())
	res, err := l.client.CallTool(cctx, req)
	cancel()
	created, isTask := catch.task()
	if !isTask {
		return res, err // the server ran it as a plain call
	}
	tc := &taskCall{s: s, r: r, onProgress: onProgress, live: true, task: Task{
		ID: created.TaskId, ConnectorID: r.id, Tool: e.Tool, Canonical: e.Canonical,
		SessionID: origin.SessionID, CallID: origin.CallID, CreatedAt: time.Now().UTC(),
		Protocol: l.protocol, Session: l.client.GetSessionId(),
	}}
	tc.apply(created)
	s.tasks.claim(r.id, created.TaskId)
	defer s.tasks.release(r.id, created.TaskId)
	s.tasks.put(ctx, tc.task)
	r.note("%s runs as task %s", e.Tool, created.TaskId)
	return tc.follow(ctx)
}

// apply takes a task's state as the server reports it. An ended state is
// kept aside (serverEnd) until the result is read, so that a task recorded
// as ended always has its result (finish).
func (tc *taskCall) apply(t mcpgo.Task) bool {
	old := tc.task
	st := TaskStatus(cmp.Or(string(t.Status), string(TaskWorking)))
	if st.Ended() {
		tc.serverEnd = st
	} else {
		tc.task.Status = st
	}
	tc.task.Message = t.StatusMessage
	if t.PollInterval != nil {
		tc.task.PollMS = *t.PollInterval
	}
	return old.Status != tc.task.Status || old.Message != tc.task.Message
}

// interval is how long to wait before the next tasks/get.
func (tc *taskCall) interval() time.Duration {
	if tc.task.PollMS <= 0 {
		return defaultTaskPoll
	}
	return min(max(time.Duration(tc.task.PollMS)*time.Millisecond, minTaskPoll), maxTaskPoll)
}

// follow polls the task until it ends, reading the result with
// tasks/result once the task needs input (the server asks on that
// request's stream) or has ended. When ctx ends first the task is
// cancelled on the server, unless the cause is ErrDetach.
func (tc *taskCall) follow(ctx context.Context) (*mcpgo.CallToolResult, error) {
	type outcome struct {
		res *mcpgo.CallToolResult
		err error
	}
	var results chan outcome
	fetch := func(l *link) {
		results = make(chan outcome, 1)
		go func() {
			res, err := tc.result(ctx, l)
			results <- outcome{res, err}
		}()
	}
	for {
		l, err := tc.link(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil, tc.stopped(ctx)
			}
			return nil, err
		}
		if err := tc.poll(ctx, l); err != nil {
			if ctx.Err() != nil {
				return nil, tc.stopped(ctx)
			}
			if !connectionGone(err) {
				return nil, err // lost, or a server that cannot say
			}
		}
		if results == nil && (tc.task.Status == TaskInputRequired || tc.serverEnd != "") {
			fetch(l)
		}
		t := time.NewTimer(tc.interval())
		select {
		case o := <-results:
			t.Stop()
			return tc.finish(ctx, o.res, o.err)
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, tc.stopped(ctx)
		}
	}
}

// poll asks tasks/get once and records a change. A server that no longer
// knows the task makes it lost.
func (tc *taskCall) poll(ctx context.Context, l *link) error {
	pctx, cancel := context.WithTimeout(ctx, taskRequestTimeout)
	defer cancel()
	got, err := l.client.GetTask(pctx, mcpgo.GetTaskRequest{Params: mcpgo.GetTaskParams{TaskId: tc.task.ID}})
	if err != nil {
		if errors.Is(err, mcpgo.ErrInvalidParams) || errors.Is(err, mcpgo.ErrResourceNotFound) {
			return tc.lose(ctx, "the server no longer knows this task (it may have restarted, or the task expired)")
		}
		return err
	}
	if tc.apply(got.Task) {
		tc.s.tasks.put(ctx, tc.task)
		if tc.onProgress != nil {
			tc.onProgress(Progress{Message: taskProgress(tc.task)})
		}
	}
	return nil
}

// taskProgress words a task's state as a progress message.
func taskProgress(t Task) string {
	if t.Message == "" {
		return "task " + string(t.Status)
	}
	return "task " + string(t.Status) + ": " + t.Message
}

// result waits for tasks/result and returns the tool's result; a JSON-RPC
// error is the tool's failure.
func (tc *taskCall) result(ctx context.Context, l *link) (*mcpgo.CallToolResult, error) {
	got, err := l.client.TaskResult(ctx, mcpgo.TaskResultRequest{Params: mcpgo.TaskResultParams{TaskId: tc.task.ID}})
	if err != nil {
		return nil, err
	}
	return &mcpgo.CallToolResult{Result: got.Result, Content: got.Content, StructuredContent: got.StructuredContent, IsError: got.IsError}, nil
}

// finish records how the task ended.
func (tc *taskCall) finish(ctx context.Context, res *mcpgo.CallToolResult, err error) (*mcpgo.CallToolResult, error) {
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, tc.stopped(ctx)
	case err != nil:
		tc.task.Status = TaskFailed
		tc.task.Message = cmp.Or(tc.task.Message, err.Error())
	case res.IsError:
		tc.task.Status = TaskFailed
	case tc.serverEnd == TaskCancelled || tc.serverEnd == TaskFailed:
		tc.task.Status = tc.serverEnd
	default:
		tc.task.Status = TaskCompleted
	}
	if !tc.live && res != nil {
		env := Normalize(res, tc.s.results)
		env.Name, env.CallID = tc.task.Canonical, tc.task.CallID
		tc.task.Result = &env
	}
	tc.s.tasks.put(ctx, tc.task)
	return res, err
}

// lose records the task lost and returns why, as the call's error.
func (tc *taskCall) lose(ctx context.Context, why string) error {
	tc.task.Status, tc.task.Message = TaskLost, why
	tc.s.tasks.put(ctx, tc.task)
	tc.r.note("task %s lost: %s", tc.task.ID, why)
	return chat.E(chat.ErrUnavailable, "task %s: %s", tc.task.ID, why)
}

// stopped handles a call stopped while it followed the task: the task is
// cancelled on the server, unless Maestro is quitting (ErrDetach, or the
// supervisor is closing), when it is left running to be followed again.
func (tc *taskCall) stopped(ctx context.Context) error {
	cause := context.Cause(ctx)
	if !tc.live || errors.Is(cause, ErrDetach) || tc.s.base.Err() != nil {
		tc.r.note("task %s left running: Maestro is quitting", tc.task.ID)
		return cause
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), taskRequestTimeout)
	defer cancel()
	tc.r.mu.Lock()
	l := tc.r.link
	tc.r.mu.Unlock()
	if l != nil {
		if _, err := l.client.CancelTask(cctx, mcpgo.CancelTaskRequest{Params: mcpgo.CancelTaskParams{TaskId: tc.task.ID}}); err != nil {
			tc.r.note("tasks/cancel %s: %v", tc.task.ID, err)
		}
	}
	tc.task.Status, tc.task.Message = TaskCancelled, "the call was stopped"
	tc.s.tasks.put(ctx, tc.task)
	if cause == nil {
		cause = ctx.Err()
	}
	return cause
}

// resumeTasks follows again, in goroutines of the runner, the tasks of
// this connector that were running when Maestro last stopped (or whose
// call went away). Each ends when its task does or ctx ends; wg tracks
// them.
func (r *runner) resumeTasks(ctx context.Context, wg *sync.WaitGroup) {
	for _, t := range r.sup.tasks.pending(r.id) {
		if !r.sup.tasks.claim(r.id, t.ID) {
			continue // a live call follows it
		}
		r.note("following task %s (%s) again", t.ID, t.Tool)
		tc := &taskCall{s: r.sup, r: r, task: t}
		wg.Go(func() {
			defer r.sup.tasks.release(r.id, t.ID)
			defer tc.closeSide()
			_, _ = tc.follow(ctx) // ctx ends with the runner: the task is left running (stopped)
		})
	}
}

// taskOrigin is the origin of a server request that names its task
// (io.modelcontextprotocol/related-task): the call that started the task.
func (l *link) taskOrigin(meta *mcpgo.Meta) (Origin, bool) {
	if meta == nil {
		return Origin{}, false
	}
	rel, ok := meta.AdditionalFields[mcpgo.RelatedTaskMetaKey].(map[string]any)
	if !ok {
		return Origin{}, false
	}
	id, _ := rel["taskId"].(string)
	t, ok := l.r.sup.tasks.get(l.cfg.ID, id)
	if !ok {
		return Origin{}, false
	}
	return Origin{ConnectorID: l.cfg.ID, ConnectorName: l.cfg.DisplayName(), SessionID: t.SessionID, CallID: t.CallID}, true
}
