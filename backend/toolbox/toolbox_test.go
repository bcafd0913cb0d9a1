package toolbox

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/providers/catalog"
	"maestro/backend/store"
	"maestro/backend/tools"
)

// filesServer is an in-process mcp-go server: read (read-only), write,
// slow (reports progress) and chatty (sends a log message).
func filesServer() *server.MCPServer {
	srv := server.NewMCPServer("files", "1.0.0", server.WithToolCapabilities(true), server.WithLogging())
	srv.AddTool(mcpgo.NewTool("read", mcpgo.WithDescription("Read a file"), mcpgo.WithReadOnlyHintAnnotation(true),
		mcpgo.WithString("path", mcpgo.Required())),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("contents of " + req.GetString("path", "")), nil
		})
	srv.AddTool(mcpgo.NewTool("write", mcpgo.WithDescription("Write a file")),
		func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("written"), nil
		})
	srv.AddTool(mcpgo.NewTool("slow", mcpgo.WithReadOnlyHintAnnotation(true)),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			var token any
			if req.Params.Meta != nil {
				token = req.Params.Meta.ProgressToken
			}
			for i := 1; i <= 3; i++ {
				_ = srv.SendNotificationToClient(ctx, "notifications/progress",
					map[string]any{"progressToken": token, "progress": i, "total": 3, "message": "step"})
			}
			time.Sleep(50 * time.Millisecond) // the notifications overtake the result
			return mcpgo.NewToolResultText("slow done"), nil
		})
	srv.AddTool(mcpgo.NewTool("chatty", mcpgo.WithReadOnlyHintAnnotation(true)),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			_ = srv.SendLogMessageToClient(ctx, mcpgo.NewLoggingMessageNotification(mcpgo.LoggingLevelWarning, "files", "disk almost full"))
			time.Sleep(50 * time.Millisecond) // the notification overtakes the result
			return mcpgo.NewToolResultText("said it"), nil
		})
	return srv
}

// serverLogs routes the server's log messages to the toolbox, as the app
// does with the supervisor's events.
type serverLogs struct{ tb *Toolbox }

func (serverLogs) ConnectorState(mcp.ConnectorStatus) {}

func (l serverLogs) ConnectorLog(id string, line mcp.LogLine) {
	if line.Source == mcp.SourceServer {
		l.tb.ServerLog(id, line.Level, line.Text)
	}
}

// rig is a toolbox over a real store, registry and supervisor running the
// files server.
type rig struct {
	tb   *Toolbox
	st   *store.Store
	reg  *tools.Registry
	sup  *mcp.Supervisor
	conn mcp.Connector
}

func newRig(t *testing.T) *rig {
	t.Helper()
	ctx := t.Context()
	st, err := store.Open(ctx, t.TempDir(), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	reg := tools.NewRegistry(st, catalog.ToolRules())
	logs := &serverLogs{}
	sup := mcp.NewSupervisor(mcp.WithConnectorStore(st), mcp.WithSecrets(mcp.NewMemorySecrets()), mcp.WithToolSink(reg),
		mcp.WithEvents(logs), mcp.WithInProcessServer("files", filesServer()), mcp.WithClientInfo("maestro-test", "0.0.1"))
	t.Cleanup(func() { _ = sup.Close() })
	r := &rig{tb: New(reg, sup), st: st, reg: reg, sup: sup}
	logs.tb = r.tb
	r.conn, err = sup.Add(ctx, mcp.Connector{Name: "Files", Transport: mcp.TransportInProcess, Command: "files", LogLevel: "info"})
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := sup.WaitSettled(wctx, r.conn.ID); err != nil {
		t.Fatal(err)
	}
	return r
}

// session stores a session with the files connector on.
func (r *rig) session(t *testing.T) string {
	t.Helper()
	s, err := r.st.CreateSession(t.Context(), chat.Session{Title: "tools"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.reg.SetConnectorEnabled(t.Context(), s.ID, r.conn.ID, true); err != nil {
		t.Fatal(err)
	}
	return s.ID
}

func (r *rig) call(t *testing.T, sessionID, name, args string) (chat.ToolResult, []agent.ToolUpdate) {
	t.Helper()
	var mu sync.Mutex
	var ups []agent.ToolUpdate
	res := r.tb.Call(t.Context(), agent.CallRequest{RunID: "r", SessionID: sessionID, Provider: chat.ProviderOpenAI,
		Call: chat.ToolCall{ID: "call-" + name, Name: name, Arguments: json.RawMessage(args)}, Server: "files"},
		func(u agent.ToolUpdate) { mu.Lock(); ups = append(ups, u); mu.Unlock() })
	mu.Lock()
	defer mu.Unlock()
	return res, slices.Clone(ups)
}

func TestOverlay(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	ctx := t.Context()
	s, err := r.st.CreateSession(ctx, chat.Session{Title: "plain"})
	if err != nil {
		t.Fatal(err)
	}
	if ov, err := r.tb.Overlay(ctx, s.ID, chat.ProviderOpenAI, nil); err != nil || len(ov.Tools) != 0 || ov.Revision != 0 {
		t.Fatalf("Overlay before enabling = %+v, %v; want no tools at revision 0", ov, err)
	}
	if _, err := r.reg.SetConnectorEnabled(ctx, s.ID, r.conn.ID, true); err != nil {
		t.Fatal(err)
	}
	ov, err := r.tb.Overlay(ctx, s.ID, chat.ProviderOpenAI, nil)
	if err != nil || ov.Revision != 1 || len(ov.Tools) != 4 {
		t.Fatalf("Overlay = %d tools at revision %d, %v; want 4 at revision 1", len(ov.Tools), ov.Revision, err)
	}
	if got := ov.Names["files.read"]; got != "files__read" {
		t.Errorf("exposed name of files.read = %q; want files__read", got)
	}
	// The server's readOnlyHint is reported, and trusted only once the
	// user turns TrustReadOnlyHints on for the connector.
	tests := []struct {
		exposed string
		ok      bool
		want    agent.ToolInfo
	}{
		{"files__read", true, agent.ToolInfo{Canonical: "files.read", Server: "files", ReadOnlyHint: true}},
		{"files__write", true, agent.ToolInfo{Canonical: "files.write", Server: "files"}},
		{tools.SearchToolName, true, agent.ToolInfo{Canonical: tools.SearchToolName, Builtin: true}},
		{"nope", false, agent.ToolInfo{}},
	}
	for _, tt := range tests {
		info, ok := ov.Resolve(tt.exposed)
		if ok != tt.ok || info.Canonical != tt.want.Canonical || info.ReadOnlyHint != tt.want.ReadOnlyHint ||
			info.Builtin != tt.want.Builtin || info.TrustReadOnly {
			t.Errorf("Resolve(%s) = %+v, %v; want %+v, %v (untrusted)", tt.exposed, info, ok, tt.want, tt.ok)
		}
	}
	trusted := r.conn
	trusted.TrustReadOnlyHints = true
	if err := r.sup.Update(ctx, trusted); err != nil {
		t.Fatal(err)
	}
	if info, ok := ov.Resolve("files__read"); !ok || !info.TrustReadOnly {
		t.Errorf("Resolve(files__read) after trusting = %+v, %v; want the hint trusted", info, ok)
	}
	if err := r.sup.WaitSettled(ctx, r.conn.ID); err != nil {
		t.Fatal(err)
	}
}

func TestCall(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	sid := r.session(t)
	res, _ := r.call(t, sid, "files.read", `{"path":"/etc/motd"}`)
	if !res.Successful || res.CallID != "call-files.read" || res.Name != "files.read" || !strings.Contains(string(res.Data), "contents of /etc/motd") {
		t.Errorf("read = %+v (data %s)", res, res.Data)
	}
	// Three notifications in a row: the first and the last (it reaches the
	// total) are reported; the one between is coalesced (mcp's rate limit).
	res, ups := r.call(t, sid, "files.slow", `{}`)
	if n := len(ups); !res.Successful || n < 2 || ups[0].Progress != 1 || ups[n-1].Kind != agent.UpdateProgress ||
		ups[n-1].Progress != 3 || ups[n-1].Total != 3 || ups[n-1].Message != "step" {
		t.Errorf("slow = %+v, updates %+v", res, ups)
	}
	res, ups = r.call(t, sid, "files.chatty", `{}`)
	if !res.Successful || !slices.ContainsFunc(ups, func(u agent.ToolUpdate) bool {
		return u.Kind == agent.UpdateLog && u.Level == "warning" && u.Message == "disk almost full"
	}) {
		t.Errorf("chatty = %+v, updates %+v; want the server's warning", res, ups)
	}
	res, _ = r.call(t, sid, "files.read", `{}`)
	if res.Successful || !strings.Contains(res.Error, "path") {
		t.Errorf("missing argument = %+v; want an error naming path", res)
	}
	res, _ = r.call(t, sid, tools.SearchToolName, `{"query":"read a file"}`)
	if !res.Successful || res.Name != tools.SearchToolName || !strings.Contains(string(res.Data), "files__read") {
		t.Errorf("search_tools = %+v (data %s)", res, res.Data)
	}
	// Switched off after the request was built: not run.
	if _, err := r.reg.SetToolEnabled(t.Context(), sid, "files.write", false); err != nil {
		t.Fatal(err)
	}
	res, _ = r.call(t, sid, "files.write", `{}`)
	if res.Successful || res.Name != "files.write" || !strings.Contains(res.Error, "unknown tool") {
		t.Errorf("disabled tool = %+v; want unknown tool", res)
	}
	res, _ = r.call(t, "no-such-session", "files.read", `{"path":"x"}`)
	if res.Successful || res.CallID != "call-files.read" {
		t.Errorf("call in a missing session = %+v; want an error result", res)
	}
}

// TestServerLog: a server's log message goes to the newest call running
// on its connector, and to nobody once no call is.
func TestServerLog(t *testing.T) {
	t.Parallel()
	tb := New(nil, nil)
	var got []string
	report := func(name string) func(agent.ToolUpdate) {
		return func(u agent.ToolUpdate) { got = append(got, name+":"+u.Message) }
	}
	if tb.ServerLog("c1", "info", "nobody") {
		t.Error("a log line with no call running was taken")
	}
	doneA := tb.track("c1", &liveCall{report: report("a")})
	doneB := tb.track("c1", &liveCall{report: report("b")})
	tb.track("c2", &liveCall{report: report("other")})
	tb.ServerLog("c1", "info", "one")
	doneB()
	tb.ServerLog("c1", "info", "two")
	doneA()
	tb.ServerLog("c1", "info", "three")
	if want := []string{"b:one", "a:two"}; !slices.Equal(got, want) {
		t.Errorf("reports = %v; want %v", got, want)
	}
	if n := len(tb.calls["c1"]); n != 0 {
		t.Errorf("%d calls left on c1; want none", n)
	}
}
