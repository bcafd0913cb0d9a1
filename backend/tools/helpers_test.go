package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"maestro/backend/chat"
	"maestro/backend/providers/catalog"
	"maestro/backend/store"
)

// testRules are the providers' rules, as the app gives them to the
// registry; Providers are their names.
var (
	testRules = catalog.ToolRules()
	Providers = func() []string {
		out := make([]string, len(testRules))
		for i, r := range testRules {
			out[i] = r.Provider
		}
		return out
	}()
)

// rulesFor returns provider's rules.
func rulesFor(provider string) chat.ToolRules {
	for _, r := range testRules {
		if r.Provider == provider {
			return r
		}
	}
	panic("no rules for " + provider)
}

// newTestRegistry is a registry with every provider's rules.
func newTestRegistry(st Store, opts ...Option) *Registry {
	return NewRegistry(st, testRules, opts...)
}

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

// The tools of these tests are written with mcp-go's builders and listed
// by a real mcp-go server, so they have the shapes servers send.

// newServer builds a real mcp-go server whose tools answer with their name.
func newServer(name string, tools ...mcpgo.Tool) *server.MCPServer {
	srv := server.NewMCPServer(name, "1.0.0", server.WithToolCapabilities(true))
	for _, tool := range tools {
		srv.AddTool(tool, noop)
	}
	return srv
}

func noop(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	return mcpgo.NewToolResultText("called " + req.Params.Name), nil
}

// listTools lists srv's tools in process (initialize, then tools/list) and
// reads them as a connector reports them to the registry.
func listTools(t testing.TB, srv *server.MCPServer) []Tool {
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
	init.Params.ProtocolVersion = mcpgo.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.ClientInfo = mcpgo.Implementation{Name: "maestro-test", Version: "0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	res, err := c.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	return fromMCP(t, res.Tools...)
}

// fromMCP reads mcp-go tools through their JSON, as a server sends them.
func fromMCP(t testing.TB, list ...mcpgo.Tool) []Tool {
	t.Helper()
	out := make([]Tool, len(list))
	for i, mt := range list {
		b, err := json.Marshal(mt)
		if err != nil {
			t.Fatal(err)
		}
		var w struct {
			Name, Title, Description string
			InputSchema              json.RawMessage `json:"inputSchema"`
			OutputSchema             json.RawMessage `json:"outputSchema"`
			Annotations              *Annotations    `json:"annotations"`
		}
		if err := json.Unmarshal(b, &w); err != nil {
			t.Fatal(err)
		}
		out[i] = Tool{Name: w.Name, Title: w.Title, Description: w.Description,
			InputSchema: w.InputSchema, OutputSchema: w.OutputSchema, Annotations: w.Annotations}
	}
	return out
}

// Words for generated tools: varied names and descriptions.
var (
	verbs  = []string{"read", "write", "list", "search", "create", "delete", "update", "get", "move", "copy"}
	nouns  = []string{"file", "issue", "page", "message", "event", "record", "image", "user", "branch", "invoice"}
	topics = []string{"calendar", "repository", "wiki", "chat", "ledger", "warehouse", "gallery", "directory", "pipeline", "billing"}
)

// genTools makes n varied tools for server number s.
func genTools(s, n int) []mcpgo.Tool {
	tools := make([]mcpgo.Tool, 0, n)
	for i := range n {
		verb, noun, topic := verbs[i%10], nouns[(i/10)%10], topics[(i+s)%10]
		name := fmt.Sprintf("%s_%s_%d", verb, noun, i)
		desc := fmt.Sprintf("%s a %s in the %s of workspace %d. Returns the %s as JSON.", verb, noun, topic, s, noun)
		opts := []mcpgo.ToolOption{
			mcpgo.WithDescription(desc),
			mcpgo.WithString("id", mcpgo.Required(), mcpgo.Description("The "+noun+" id")),
			mcpgo.WithNumber("limit", mcpgo.Description("At most this many results")),
		}
		if i%3 == 0 {
			opts = append(opts, mcpgo.WithString("mode", mcpgo.Enum("fast", "full")))
		}
		if i%4 == 0 {
			opts = append(opts, mcpgo.WithArray("tags", mcpgo.WithStringItems()))
		}
		if i%5 == 0 {
			opts = append(opts, mcpgo.WithReadOnlyHintAnnotation(true))
		}
		tools = append(tools, mcpgo.NewTool(name, opts...))
	}
	return tools
}
