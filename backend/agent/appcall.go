package agent

import (
	"context"
	"encoding/json"
	"fmt"

	"maestro/backend/chat"
)

// AppCallInput is one tools/call an MCP App's UI asked for (docs/APPS.md):
// a tool of the app's own server, which the app resolved to its canonical
// name in the session (mcp.Supervisor.AppCallTarget).
type AppCallInput struct {
	// RunID names the call's events (the approval question among them);
	// the app gives each app call its own.
	RunID     string
	SessionID string
	// Provider is the session's provider: the overlay is asked in its
	// names.
	Provider  string
	CallID    string
	Canonical string
	Arguments json.RawMessage
}

// AppCall runs a tool call an MCP App's UI asked for through the same
// approvals as a model's call: the session's policy, the chat's and every
// chat's grants, the connector's policy and the definition pins decide,
// else the user is asked, the question saying the app asked
// (ApprovalRequest.RequestedBy). It is audited with RequestedBy set. It
// stores nothing in the conversation: the result goes back to the UI. The
// returned error is the Approver's or the store's (ctx's on Stop); a
// refused or failed call is a result with Successful false.
//
// sink receives ApprovalNeeded and ToolCallRunning under in.RunID, and no
// RunStarted or RunFinished: this is not a turn.
func (a *Agent) AppCall(ctx context.Context, in AppCallInput, sink Sink) (chat.ToolResult, error) {
	r := &run{a: a, in: RunInput{RunID: in.RunID, SessionID: in.SessionID}, ctl: &Control{},
		sink: &syncSink{s: sink}, requestedBy: chat.RequestedByApp}
	call := chat.ToolCall{ID: in.CallID, Name: in.Canonical, Arguments: in.Arguments}
	sess, err := a.store.Session(ctx, in.SessionID)
	if err != nil {
		return chat.ToolResult{}, fmt.Errorf("agent: app call: %w", err)
	}
	ov, err := a.tools.Overlay(ctx, in.SessionID, in.Provider, nil)
	if err != nil {
		return chat.ToolResult{}, fmt.Errorf("agent: app call: %w", err)
	}
	info := callInfo{exposed: in.Canonical}
	if exposed, ok := ov.Names[in.Canonical]; ok {
		info.exposed = exposed
		info.ToolInfo, info.known = ov.resolve(exposed)
	}
	if info.Builtin {
		info.known = false // Maestro's own tools are the model's, never an app's
	}
	grants := map[string]bool{}
	for _, g := range sess.Grants {
		grants[g] = true
	}
	v, err := r.approve(ctx, sess, grants, call, info)
	if err != nil {
		return chat.ToolResult{}, err
	}
	var res chat.ToolResult
	if v.run {
		r.emit(ToolCallRunning{RunID: in.RunID, CallID: call.ID, Name: call.Name, Arguments: call.Arguments})
		res = a.tools.Call(ctx, CallRequest{RunID: in.RunID, SessionID: in.SessionID, Provider: in.Provider,
			Call: call, Server: info.Server}, func(ToolUpdate) {}) // the UI shows its own progress
		res.CallID, res.Name = call.ID, call.Name
	} else {
		res = chat.ToolResult{CallID: call.ID, Name: call.Name, Error: v.msg}
	}
	if a.audit != nil {
		r.audit1(context.WithoutCancel(ctx), a.clock.Now().UTC(), in.SessionID, call, info, &v, &res)
	}
	return res, nil
}
