package mcp

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"maestro/backend/chat"
	"maestro/backend/store"
)

// openStore opens a real bbolt store in a temporary folder.
func openStore(t testing.TB, dir string) *store.Store {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	st, err := store.Open(context.Background(), dir, store.Options{NoSync: true})
	if err != nil {
		t.Fatalf("store.Open: %v", err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

// newSession stores a session with the given connectors enabled.
func newSession(t testing.TB, st *store.Store, enabled ...string) chat.Session {
	t.Helper()
	sess, err := st.CreateSession(context.Background(), chat.Session{Title: "test", EnabledConnectors: enabled})
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	return sess
}

// newServer builds a real mcp-go server whose tools answer with their name.
func newServer(name string, tools ...mcpgo.Tool) *server.MCPServer {
	srv := server.NewMCPServer(name, "1.0.0", server.WithToolCapabilities(true))
	for _, tool := range tools {
		srv.AddTool(tool, func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("called " + req.Params.Name), nil
		})
	}
	return srv
}

// listTools connects to srv in process, as the supervisor will over stdio
// or HTTP: initialize, then tools/list. The client is closed before
// returning.
func listTools(t testing.TB, srv *server.MCPServer) []mcpgo.Tool {
	t.Helper()
	ctx := context.Background()
	c, err := client.NewInProcessClient(srv)
	if err != nil {
		t.Fatalf("NewInProcessClient: %v", err)
	}
	defer func() {
		if err := c.Close(); err != nil {
			t.Errorf("close in-process client: %v", err)
		}
	}()
	if err := c.Start(ctx); err != nil {
		t.Fatalf("start client: %v", err)
	}
	var init mcpgo.InitializeRequest
	init.Params.ProtocolVersion = mcpgo.LATEST_LEGACY_PROTOCOL_VERSION // 2025-11-25, as connectors pin it
	init.Params.ClientInfo = mcpgo.Implementation{Name: "maestro-test", Version: "0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	res, err := c.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	return res.Tools
}

// testRules name the tools of these tests. Any provider's rules would do:
// the tests route calls, and a provider without rules (the tests call as
// "openai") gets these.
var testRules = []chat.ToolRules{{Provider: "test", MaxTools: 128, MaxNameLen: 64, NameEllipsis: "_", Schema: chat.SchemaJSON}}

// jsonEqual reports whether a and b hold the same JSON value.
func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// clip shortens s to about n bytes for a failure message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
