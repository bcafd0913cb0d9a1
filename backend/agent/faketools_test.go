package agent_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"maestro/backend/agent"
	"maestro/backend/chat"
)

const objectSchema = `{"type":"object","properties":{"x":{"type":"integer"}}}`

// fakeTool is one tool of the in-memory table. fn answers calls; nil
// echoes the arguments back as data.
type fakeTool struct {
	// readOnly is the server's readOnlyHint; trusted is the user's choice
	// to run its connector's read-only tools without asking; builtin marks
	// Maestro's own search_tools.
	readOnly, trusted, builtin bool
	// appOnly marks a tool only its MCP App may call: resolved, never
	// declared.
	appOnly bool
	// hints and policy, when set, are the definition's annotations and the
	// connector's approval policy: the tool gets a definition (connector
	// "conn-" + its server, the description "does "+its name unless desc).
	hints  *chat.ToolHints
	desc   string
	policy chat.ToolPolicy
	// schema is the declared input schema; "" means objectSchema.
	schema string
	fn     func(ctx context.Context, args json.RawMessage, report func(agent.ToolUpdate)) chat.ToolResult
}

// fakeTools is an in-memory tool table with a revision, standing in for the
// MCP registry and supervisor. Exposed names are server__tool.
type fakeTools struct {
	mu    sync.Mutex
	rev   int64
	tools map[string]fakeTool // by canonical name
	calls []chat.ToolCall
	reqs  []agent.CallRequest
	// cached is the overlay of revision rev, shared read-only.
	cached *agent.Overlay
}

func newFakeTools() *fakeTools {
	ft := &fakeTools{tools: map[string]fakeTool{}}
	ft.set("srv.echo", fakeTool{})
	ft.set("srv.read", fakeTool{readOnly: true})
	ft.set("srv.write", fakeTool{})
	ft.set("trusted.read", fakeTool{readOnly: true, trusted: true})
	ft.set("trusted.write", fakeTool{trusted: true})
	return ft
}

func exposed(canonical string) string { return strings.Replace(canonical, ".", "__", 1) }

// set adds or replaces a tool and bumps the revision.
func (f *fakeTools) set(canonical string, t fakeTool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tools[canonical] = t
	f.rev++
}

func (f *fakeTools) remove(canonical string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.tools, canonical)
	f.rev++
}

func (f *fakeTools) Overlay(_ context.Context, _, _ string, _ []string) (agent.Overlay, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	// Like the registry's cached snapshot, the overlay is rebuilt only when
	// the revision moves.
	if f.cached != nil && f.cached.Revision == f.rev {
		return *f.cached, nil
	}
	names := make([]string, 0, len(f.tools))
	for n := range f.tools {
		names = append(names, n)
	}
	slices.Sort(names)
	ov := agent.Overlay{Revision: f.rev, Names: map[string]string{}}
	info := map[string]agent.ToolInfo{}
	for _, n := range names {
		e := exposed(n)
		schema := f.tools[n].schema
		if schema == "" {
			schema = objectSchema
		}
		t := f.tools[n]
		if !t.appOnly {
			ov.Tools = append(ov.Tools, chat.Tool{Name: e, Canonical: n, Description: "test tool " + n + " (via srv)",
				InputSchema: json.RawMessage(schema)})
		}
		ov.Names[n] = e
		server, _, _ := strings.Cut(n, ".")
		ti := agent.ToolInfo{Canonical: n, Server: server, ReadOnlyHint: t.readOnly, TrustReadOnly: t.trusted, Builtin: t.builtin,
			AppOnly: t.appOnly}
		if t.hints != nil {
			_, tool, _ := strings.Cut(n, ".")
			ti.ConnectorName, ti.Policy = server, t.policy
			ti.Definition = chat.ToolDefinition{ConnectorID: "conn-" + server, Name: tool, Description: cmpOr(t.desc, "does "+tool),
				InputSchema: json.RawMessage(schema), Hints: *t.hints}
		}
		info[e] = ti
	}
	ov.Resolve = func(e string) (agent.ToolInfo, bool) {
		ti, ok := info[e]
		return ti, ok
	}
	f.cached = &ov
	return ov, nil
}

func (f *fakeTools) Call(ctx context.Context, req agent.CallRequest, report func(agent.ToolUpdate)) chat.ToolResult {
	call := req.Call
	f.mu.Lock()
	t, ok := f.tools[call.Name]
	f.calls = append(f.calls, call)
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	if !ok {
		return chat.ToolResult{Error: "no such tool " + call.Name}
	}
	if t.fn != nil {
		return t.fn(ctx, call.Arguments, report)
	}
	return chat.ToolResult{Successful: true, Data: call.Arguments}
}

func (f *fakeTools) called() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var names []string
	for _, c := range f.calls {
		names = append(names, c.Name)
	}
	return names
}

func (f *fakeTools) requests() []agent.CallRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.reqs)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
