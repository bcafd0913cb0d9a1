package app

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/providers/fakescript"
)

// filesServer is an in-process mcp-go server: read (read-only), write,
// slow (reports progress), chatty (sends a log message) and grow (adds a
// tool, which the client hears as list_changed).
func filesServer() *server.MCPServer {
	srv := server.NewMCPServer("files", "1.0.0", server.WithToolCapabilities(true), server.WithLogging())
	srv.AddTool(mcpgo.NewTool("read", mcpgo.WithDescription("Read a file"), mcpgo.WithReadOnlyHintAnnotation(true),
		mcpgo.WithString("path", mcpgo.Required())),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("contents of " + req.GetString("path", "")), nil
		})
	srv.AddTool(mcpgo.NewTool("write", mcpgo.WithDescription("Write a file")),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
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
	srv.AddTool(mcpgo.NewTool("grow"),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			srv.AddTool(mcpgo.NewTool("grown"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
				return mcpgo.NewToolResultText("grown"), nil
			})
			return mcpgo.NewToolResultText("grew"), nil
		})
	return srv
}

// addFiles adds the in-process files server as a connector and waits for
// it to be ready.
func addFiles(t *testing.T, a *connApp) mcp.Connector {
	t.Helper()
	run, ctx := a.running(t)
	var err error
	c := mcp.Connector{ID: chat.NewID(), Name: "Files", Transport: mcp.TransportInProcess, Command: "files", LogLevel: "info"}
	a.Connectors.remember(c)
	c, err = run.sup.Add(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	a.ev.wait(t, EventConnectorState, stateIs(c.ID, "ready"))
	return c
}

func changedTo(sessionID string, rev int64) func(any) bool {
	return func(d any) bool {
		x, ok := d.(ToolsChangedDTO)
		return ok && x.SessionID == sessionID && x.Revision == rev
	}
}

func TestSessionToolsPanel(t *testing.T) {
	t.Parallel()
	a := startConnApp(t, Runtime{}, mcp.WithInProcessServer("files", filesServer()))
	c := addFiles(t, a)
	s, err := a.Sessions.Create("")
	if err != nil {
		t.Fatal(err)
	}

	panel, err := a.Connectors.SessionTools(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if panel.Revision != 0 || len(panel.Connectors) != 1 || len(panel.Roots) != 0 {
		t.Fatalf("SessionTools = %+v", panel)
	}
	pc := panel.Connectors[0]
	if pc.ID != c.ID || pc.State != "ready" || pc.EnabledInSession || !pc.Available || pc.ToolCount != 5 || len(pc.Tools) != 5 {
		t.Fatalf("connector = %+v", pc)
	}
	read := pc.Tools[slices.IndexFunc(pc.Tools, func(x SessionToolDTO) bool { return x.Name == "read" })]
	if read.Canonical != "files.read" || !read.ReadOnly || !read.Enabled || read.Description != "Read a file" {
		t.Errorf("read = %+v", read)
	}

	rev, err := a.Connectors.SetSessionConnector(s.ID, c.ID, true)
	if err != nil || rev != 1 {
		t.Fatalf("SetSessionConnector = %d, %v", rev, err)
	}
	a.ev.wait(t, EventToolsChanged, changedTo(s.ID, 1))
	if rev, _ := a.Connectors.SetSessionConnector(s.ID, c.ID, true); rev != 1 {
		t.Errorf("no-op toggle bumped the revision to %d", rev)
	}
	rev, err = a.Connectors.SetSessionTool(s.ID, "files.write", false)
	if err != nil || rev != 2 {
		t.Fatalf("SetSessionTool = %d, %v", rev, err)
	}
	a.ev.wait(t, EventToolsChanged, changedTo(s.ID, 2))
	panel, _ = a.Connectors.SessionTools(s.ID)
	pc = panel.Connectors[0]
	write := pc.Tools[slices.IndexFunc(pc.Tools, func(x SessionToolDTO) bool { return x.Name == "write" })]
	if panel.Revision != 2 || !pc.EnabledInSession || write.Enabled {
		t.Errorf("after toggles: revision %d, connector %+v", panel.Revision, pc)
	}
	if _, err := a.Connectors.SetSessionConnector(s.ID, "nope", true); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("unknown connector: %v", err)
	}
	if _, err := a.Connectors.SetSessionTool(s.ID, "notcanonical", false); chat.Kind(err) != chat.KindInvalid {
		t.Errorf("bad tool name: %v", err)
	}
	if _, err := a.Connectors.SessionTools("nope"); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("unknown session: %v", err)
	}
	if n := len(a.ev.all(EventToolsChanged)); n != 2 {
		t.Errorf("tools:changed sent %d times, want 2", n)
	}

	// The server's list changes: the session's revision moves and the UI hears it.
	run, _ := a.running(t)
	res := run.box.Call(t.Context(), agent.CallRequest{SessionID: s.ID, Provider: chat.ProviderOpenAI,
		Call: chat.ToolCall{ID: "c1", Name: "files.grow", Arguments: json.RawMessage(`{}`)}}, func(agent.ToolUpdate) {})
	if !res.Successful {
		t.Fatalf("grow = %+v", res)
	}
	a.ev.wait(t, EventToolsChanged, changedTo(s.ID, 3))

	// Folders.
	dir := t.TempDir()
	if _, err := a.Connectors.SetSessionRoots(s.ID, []string{"relative"}); chat.Kind(err) != chat.KindInvalid {
		t.Errorf("relative root: %v", err)
	}
	roots, err := a.Connectors.SetSessionRoots(s.ID, []string{dir + "/./", " ", dir})
	if err != nil || !slices.Equal(roots, []string{filepath.Clean(dir)}) {
		t.Fatalf("SetSessionRoots = %q, %v", roots, err)
	}
	panel, _ = a.Connectors.SessionTools(s.ID)
	if !slices.Equal(panel.Roots, roots) {
		t.Errorf("roots = %q", panel.Roots)
	}
	if got := run.sup.Roots(); len(got) != 1 || got[0].Path != filepath.Clean(dir) {
		t.Errorf("supervisor roots = %+v", got)
	}

	// Deleting the chat withdraws its folders from the servers.
	if err := a.Sessions.Delete(s.ID); err != nil {
		t.Fatal(err)
	}
	if got := run.sup.Roots(); len(got) != 0 {
		t.Errorf("supervisor roots after deleting the chat = %+v, want none", got)
	}
}

// TestChatRunCallsMCPTool runs whole turns: Gemini (the fake) calls an
// MCP tool its server marks read-only and the result goes back to the
// model. The hint alone does not skip the question (the dialog is told the
// claim is the server's); once the user trusts the connector's hints, the
// tool runs without asking.
func TestChatRunCallsMCPTool(t *testing.T) {
	t.Parallel()
	ca, srv := startToolChat(t, Runtime{}, mcp.WithInProcessServer("files", filesServer()))
	a, ev := ca.App, ca.ev
	c := addFiles(t, ca)
	sid := ca.chatWith(t, c.ID)
	srv.Push(
		fakescript.Reply{ToolCalls: []fakescript.ToolCall{{Name: "files__read", Args: json.RawMessage(`{"path":"notes.txt"}`)}}},
		fakescript.Reply{Text: "The file says hello."},
	)
	sent, err := a.Chat.SendMessage(sid, "What is in notes.txt?", nil)
	if err != nil {
		t.Fatal(err)
	}
	q := ev.wait(t, EventApproval, nil).(ApprovalDTO)
	if q.Name != "files.read" || !q.ReadOnlyHint {
		t.Errorf("approval:needed = %+v; want files.read with the server's read-only claim", q)
	}
	if err := a.Chat.AnswerApproval(q.RequestID, "allow_once"); err != nil {
		t.Fatal(err)
	}
	fin := ev.wait(t, EventRunFinished, func(d any) bool { f, ok := d.(FinishedDTO); return ok && f.RunID == sent.RunID }).(FinishedDTO)
	if fin.Error != nil {
		t.Fatalf("run failed: %+v", fin.Error)
	}
	done := ev.wait(t, EventToolFinished, nil).(ToolEventDTO)
	if done.Result == nil || !done.Result.Successful || !strings.Contains(done.Result.Data, "contents of notes.txt") {
		t.Errorf("tool:finished = %+v", done.Result)
	}
	step := ev.wait(t, EventRunStep, nil).(StepDTO)
	if step.ToolsRevision != 1 || step.ToolCount != 5 {
		t.Errorf("run:step = %+v; want revision 1 with 5 tools", step)
	}

	// The user trusts this connector's read-only hints: no question.
	c.TrustReadOnlyHints = true
	if err := a.Connectors.testSupervisor(t).Update(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	srv.Push(
		fakescript.Reply{ToolCalls: []fakescript.ToolCall{{Name: "files__read", Args: json.RawMessage(`{"path":"todo.txt"}`)}}},
		fakescript.Reply{Text: "Nothing to do."},
	)
	sent, err = a.Chat.SendMessage(sid, "And todo.txt?", nil)
	if err != nil {
		t.Fatal(err)
	}
	fin = ev.wait(t, EventRunFinished, func(d any) bool { f, ok := d.(FinishedDTO); return ok && f.RunID == sent.RunID }).(FinishedDTO)
	if fin.Error != nil {
		t.Fatalf("second run failed: %+v", fin.Error)
	}
	if n := len(ev.all(EventApproval)); n != 1 {
		t.Errorf("approval:needed sent %d times in all; want 1 (none for the trusted connector)", n)
	}
}
