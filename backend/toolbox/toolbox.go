package toolbox

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/tools"
)

// Registry is what the toolbox needs of the tools.Registry.
type Registry interface {
	Snapshot(ctx context.Context, sessionID string) (tools.Snapshot, error)
	SearchTools(ctx context.Context, sessionID, provider string, args json.RawMessage) (chat.ToolResult, error)
}

// Servers is what the toolbox needs of the mcp.Supervisor.
type Servers interface {
	Connector(id string) (mcp.Connector, error)
	Call(ctx context.Context, snap tools.Snapshot, req mcp.CallRequest) chat.ToolResult
}

// Toolbox implements agent.Tools. Create it with New.
type Toolbox struct {
	reg     Registry
	servers Servers

	mu sync.Mutex
	// calls are the tool calls in flight by connector id, oldest first.
	calls map[string][]*liveCall
}

// liveCall is a tool call in flight; report relays its server's log lines.
type liveCall struct {
	report func(agent.ToolUpdate)
}

var _ agent.Tools = (*Toolbox)(nil)

// New returns the toolbox over reg and servers.
func New(reg Registry, servers Servers) *Toolbox {
	return &Toolbox{reg: reg, servers: servers, calls: map[string][]*liveCall{}}
}

// Overlay implements agent.Tools: the session's snapshot as provider
// declares it, with a resolver from the names provider sees back to the
// tools, their servers and whether the user trusts the server's read-only
// hints.
func (t *Toolbox) Overlay(ctx context.Context, sessionID, provider string, used []string) (agent.Overlay, error) {
	snap, err := t.reg.Snapshot(ctx, sessionID)
	if err != nil {
		return agent.Overlay{}, err
	}
	declared, names := snap.Overlay(provider, used)
	return agent.Overlay{
		Revision: snap.Revision,
		Tools:    declared,
		Names:    names,
		Resolve: func(exposed string) (agent.ToolInfo, bool) {
			e, ok := snap.Resolve(provider, exposed)
			if !ok {
				return agent.ToolInfo{}, false
			}
			info := agent.ToolInfo{Canonical: e.Canonical, Server: e.Server, Builtin: e.Builtin, ReadOnlyHint: e.ReadOnlyHint(),
				AppOnly: e.AppOnly}
			if !e.Builtin {
				// The definition the user's pins are compared with, and the
				// connector's approval policy (docs/SECURITY.md).
				info.Definition = tools.DefinitionOf(e)
				if cfg, err := t.servers.Connector(e.ConnectorID); err == nil {
					info.TrustReadOnly = cfg.TrustReadOnlyHints
					info.Policy = cfg.Approval
					info.ConnectorName = cfg.DisplayName()
				}
			}
			return info, true
		},
	}, nil
}

// Call implements agent.Tools.
func (t *Toolbox) Call(ctx context.Context, req agent.CallRequest, report func(agent.ToolUpdate)) chat.ToolResult {
	name := req.Call.Name
	if name == tools.SearchToolName {
		res, err := t.reg.SearchTools(ctx, req.SessionID, req.Provider, req.Call.Arguments)
		if err != nil {
			return tools.ErrorResult(req.Call.ID, name, err.Error())
		}
		res.CallID, res.Name = req.Call.ID, name
		return res
	}
	snap, err := t.reg.Snapshot(ctx, req.SessionID)
	if err != nil {
		return tools.ErrorResult(req.Call.ID, name, err.Error())
	}
	exposed := name
	e, ok := snap.Lookup(name)
	if ok {
		exposed = e.Name(req.Provider)
		defer t.track(e.ConnectorID, &liveCall{report: report})()
	}
	res := t.servers.Call(ctx, snap, mcp.CallRequest{
		SessionID: req.SessionID, CallID: req.Call.ID, Provider: req.Provider, Name: exposed,
		Arguments: req.Call.Arguments,
		OnProgress: func(p mcp.Progress) {
			report(agent.ToolUpdate{Kind: agent.UpdateProgress, Progress: p.Progress, Total: p.Total, Message: p.Message})
		},
	})
	if !ok {
		res.Name = name // the server's lookup failed by the exposed name; name the tool as the model did
	}
	return res
}

// ServerLog hands a log message of connector's server to the newest tool
// call running on that connector, if any; it reports whether one took it.
func (t *Toolbox) ServerLog(connectorID, level, text string) bool {
	t.mu.Lock()
	var call *liveCall
	if list := t.calls[connectorID]; len(list) > 0 {
		call = list[len(list)-1]
	}
	t.mu.Unlock()
	if call == nil {
		return false
	}
	call.report(agent.ToolUpdate{Kind: agent.UpdateLog, Level: level, Message: text})
	return true
}

// track records a call in flight on a connector until the returned
// function is called.
func (t *Toolbox) track(connectorID string, lc *liveCall) func() {
	t.mu.Lock()
	t.calls[connectorID] = append(t.calls[connectorID], lc)
	t.mu.Unlock()
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		list := slices.DeleteFunc(t.calls[connectorID], func(x *liveCall) bool { return x == lc })
		if len(list) == 0 {
			delete(t.calls, connectorID)
		} else {
			t.calls[connectorID] = list
		}
	}
}
