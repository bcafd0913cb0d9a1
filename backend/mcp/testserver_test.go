package mcp

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"go.uber.org/goleak"

	"maestro/backend/mcp/hostile"
)

// The test binary doubles as a stdio MCP server: with
// MAESTRO_MCP_TEST_SERVER set it serves testServer (or fails the way the
// mode says) instead of running the tests. Supervisor tests start it
// through a stdio connector, so they run a real process without Node.
const testServerEnv = "MAESTRO_MCP_TEST_SERVER"

func TestMain(m *testing.M) {
	switch mode := os.Getenv(testServerEnv); mode {
	case "":
		goleak.VerifyTestMain(m,
			// net/http keeps one per idle connection until it times out.
			goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
			goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
			goleak.IgnoreTopFunction("internal/poll.runtime_pollWait"),
		)
	case "die":
		fmt.Fprintln(os.Stderr, "loading config")
		fmt.Fprintln(os.Stderr, "boom: missing API_KEY")
		os.Exit(1)
	case "hang":
		time.Sleep(time.Hour)
	case "garbage": // a banner on stdout, where only JSON-RPC belongs
		fmt.Println("Server v1.0 listening on stdio")
		fmt.Println("ready.")
		time.Sleep(time.Hour)
	case "many": // 1,000 tools, for the figures at scale
		srv := server.NewMCPServer("many", "1.0.0")
		for i := range 1000 {
			srv.AddTool(mcpgo.NewTool(fmt.Sprintf("tool_%04d", i), mcpgo.WithDescription(fmt.Sprintf("Generated tool number %d, which does nothing useful.", i)),
				mcpgo.WithString("path", mcpgo.Required(), mcpgo.Description("A file path."))),
				func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
					return mcpgo.NewToolResultText("ok"), nil
				})
		}
		if err := server.ServeStdio(srv); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	case "hostile", "hostile-deep":
		if err := server.ServeStdio(hostile.New(hostile.Options{DeepSchema: mode == "hostile-deep"})); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	default:
		srv := newTestServer(nil)
		if err := server.ServeStdio(srv); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	}
}

// testEvents records what a server's tools saw, for in-process servers.
type testEvents struct {
	mu        sync.Mutex
	cancelled []string
}

func (e *testEvents) add(s string) {
	if e == nil {
		fmt.Fprintln(os.Stderr, s) // stdio: the supervisor keeps stderr
		return
	}
	e.mu.Lock()
	e.cancelled = append(e.cancelled, s)
	e.mu.Unlock()
}

func (e *testEvents) list() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.cancelled...)
}

// newTestServer is a real mcp-go server with the tools the supervisor
// tests need.
func newTestServer(ev *testEvents) *server.MCPServer {
	srv := server.NewMCPServer("test-server", "1.0.0",
		server.WithToolCapabilities(true), server.WithLogging())
	srv.AddTool(mcpgo.NewTool("echo", mcpgo.WithDescription("Echo the text back"),
		mcpgo.WithString("text", mcpgo.Required())),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText(req.GetString("text", "")), nil
		})
	srv.AddTool(mcpgo.NewTool("sleep", mcpgo.WithDescription("Sleep, reporting progress"),
		mcpgo.WithNumber("ms", mcpgo.Required()), mcpgo.WithNumber("progressMs")),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			total := time.Duration(req.GetFloat("ms", 0)) * time.Millisecond
			every := time.Duration(req.GetFloat("progressMs", 0)) * time.Millisecond
			var token any
			if req.Params.Meta != nil {
				token = req.Params.Meta.ProgressToken
			}
			deadline := time.After(total)
			var tick <-chan time.Time
			if every > 0 {
				t := time.NewTicker(every)
				defer t.Stop()
				tick = t.C
			}
			n := 0
			for {
				select {
				case <-deadline:
					return mcpgo.NewToolResultText(fmt.Sprintf("slept %s", total)), nil
				case <-tick:
					n++
					_ = srv.SendNotificationToClient(ctx, "notifications/progress",
						map[string]any{"progressToken": token, "progress": n, "message": "working"})
				case <-ctx.Done():
					ev.add("cancelled: sleep")
					return nil, ctx.Err()
				}
			}
		})
	srv.AddTool(mcpgo.NewTool("args", mcpgo.WithDescription("The server's command-line arguments")),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText(strings.Join(os.Args[1:], " ")), nil
		})
	srv.AddTool(mcpgo.NewTool("crash", mcpgo.WithDescription("Exit the server mid-call")),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			fmt.Fprintln(os.Stderr, "crashing on purpose")
			os.Exit(3)
			return nil, nil
		})
	srv.AddTool(mcpgo.NewTool("log", mcpgo.WithDescription("Send a log message"),
		mcpgo.WithString("level", mcpgo.Required()), mcpgo.WithString("text", mcpgo.Required())),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			n := mcpgo.NewLoggingMessageNotification(mcpgo.LoggingLevel(req.GetString("level", "info")), "test", req.GetString("text", ""))
			_ = srv.SendLogMessageToClient(ctx, n)
			return mcpgo.NewToolResultText("logged"), nil
		})
	srv.AddTool(mcpgo.NewTool("big", mcpgo.WithDescription("Return a big text")),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText(strings.Repeat("x", 100<<10)), nil
		})
	srv.AddTool(mcpgo.NewTool("sample", mcpgo.WithDescription("Ask the client's model")),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			res, err := srv.RequestSampling(ctx, mcpgo.CreateMessageRequest{CreateMessageParams: mcpgo.CreateMessageParams{
				Messages:  []mcpgo.SamplingMessage{{Role: mcpgo.RoleUser, Content: mcpgo.NewTextContent("say hi")}},
				MaxTokens: 10,
			}})
			if err != nil {
				return mcpgo.NewToolResultError("sampling failed: " + err.Error()), nil
			}
			return mcpgo.NewToolResultText(fmt.Sprintf("model %s said %v", res.Model, res.Content)), nil
		})
	srv.AddTool(mcpgo.NewTool("ask", mcpgo.WithDescription("Ask the user")),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			res, err := srv.RequestElicitation(ctx, mcpgo.ElicitationRequest{Params: mcpgo.ElicitationParams{
				Message: "Who are you?",
				RequestedSchema: map[string]any{
					"type": "object",
					"properties": map[string]any{
						"name":  map[string]any{"type": "string", "minLength": 1},
						"age":   map[string]any{"type": "integer", "minimum": 0, "default": 30},
						"color": map[string]any{"type": "string", "enum": []any{"red", "blue"}, "default": "blue"},
					},
					"required": []any{"name"},
				},
			}})
			if err != nil {
				return mcpgo.NewToolResultError("elicitation failed: " + err.Error()), nil
			}
			return mcpgo.NewToolResultStructuredOnly(map[string]any{"action": res.Action, "content": res.Content}), nil
		})
	srv.AddTool(mcpgo.NewTool("roots", mcpgo.WithDescription("List the client's roots")),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			res, err := srv.RequestRoots(ctx, mcpgo.ListRootsRequest{})
			if err != nil {
				return mcpgo.NewToolResultError("roots failed: " + err.Error()), nil
			}
			var uris []string
			for _, r := range res.Roots {
				uris = append(uris, r.URI)
			}
			return mcpgo.NewToolResultText(strings.Join(uris, "\n")), nil
		})
	srv.AddTool(mcpgo.NewTool("grow", mcpgo.WithDescription("Add a tool (list_changed)")),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			srv.AddTool(mcpgo.NewTool("grown", mcpgo.WithDescription("Added at run time")),
				func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
					return mcpgo.NewToolResultText("grown"), nil
				})
			return mcpgo.NewToolResultText("grew"), nil
		})
	return srv
}
