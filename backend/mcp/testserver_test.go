package mcp

import (
	"context"
	"fmt"
	"os"
	"strconv"
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
			// The in-process HTTP test servers' side of tasks: mcp-go keeps a
			// goroutine per task until its TTL, and the research tool works
			// on past a cancelled call. Neither is Maestro's.
			goleak.IgnoreAnyFunction("github.com/mark3labs/mcp-go/server.(*MCPServer).scheduleTaskCleanup"),
			goleak.IgnoreAnyFunction("maestro/backend/mcp.addTaskTools.func1"),
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
	case "pid": // the test server, with a tool that says which process answers
		srv := newTestServer(nil)
		srv.AddTool(mcpgo.NewTool("pid", mcpgo.WithDescription("The server's process id")),
			func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
				return mcpgo.NewToolResultText(strconv.Itoa(os.Getpid())), nil
			})
		if err := server.ServeStdio(srv); err != nil {
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
		server.WithToolCapabilities(true), server.WithLogging(), server.WithTaskCapabilities(true, true, true))
	addTaskTools(srv)
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
	addAskingTools(srv)
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

// askForm is the form the ask tool sends.
var askForm = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"name":  map[string]any{"type": "string", "minLength": 1},
		"age":   map[string]any{"type": "integer", "minimum": 0, "default": 30},
		"color": map[string]any{"type": "string", "enum": []any{"red", "blue"}, "default": "blue"},
	},
	"required": []any{"name"},
}

// addAskingTools adds the tools that ask the client something: sampling,
// elicitation and roots. They are written as Multi Round-Trip handlers (an
// input_required result, answered on the retry), so they serve both eras:
// mcp-go sends the old era's server requests for them to a client that
// initialized with 2025-11-25, and returns the input_required result to a
// 2026-07-28 client. Each checks that the retry echoes its requestState.
func addAskingTools(srv *server.MCPServer) {
	ask := func(state string, build func(*server.InputRequestBuilder), answer func(mcpgo.InputResponses) *mcpgo.CallToolResult) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			if len(req.Params.InputResponses) == 0 {
				b := server.NewInputRequestBuilder(state)
				build(b)
				return b.ToolResult(), nil
			}
			if req.Params.RequestState != state {
				return mcpgo.NewToolResultError(fmt.Sprintf("requestState %q, want %q", req.Params.RequestState, state)), nil
			}
			return answer(req.Params.InputResponses), nil
		}
	}
	srv.AddTool(mcpgo.NewTool("sample", mcpgo.WithDescription("Ask the client's model")), ask("sample-1",
		func(b *server.InputRequestBuilder) {
			b.Sample("hi", mcpgo.CreateMessageParams{
				Messages:  []mcpgo.SamplingMessage{{Role: mcpgo.RoleUser, Content: mcpgo.NewTextContent("say hi")}},
				MaxTokens: 10,
			})
		},
		func(in mcpgo.InputResponses) *mcpgo.CallToolResult {
			res := server.SamplingResponse(in, "hi")
			if res == nil {
				return mcpgo.NewToolResultError("sampling failed: no answer")
			}
			return mcpgo.NewToolResultText(fmt.Sprintf("model %s said %v", res.Model, res.Content))
		}))
	srv.AddTool(mcpgo.NewTool("ask", mcpgo.WithDescription("Ask the user")), ask("ask-1",
		func(b *server.InputRequestBuilder) {
			b.Elicit("who", mcpgo.ElicitationParams{Message: "Who are you?", RequestedSchema: askForm})
		},
		func(in mcpgo.InputResponses) *mcpgo.CallToolResult {
			res := server.ElicitationResponse(in, "who")
			if res == nil {
				return mcpgo.NewToolResultError("elicitation failed: no answer")
			}
			return mcpgo.NewToolResultStructuredOnly(map[string]any{"action": res.Action, "content": res.Content})
		}))
	srv.AddTool(mcpgo.NewTool("roots", mcpgo.WithDescription("List the client's roots")), ask("roots-1",
		func(b *server.InputRequestBuilder) { b.Roots("roots") },
		func(in mcpgo.InputResponses) *mcpgo.CallToolResult {
			res := server.RootsResponse(in, "roots")
			if res == nil {
				return mcpgo.NewToolResultError("roots failed: no answer")
			}
			var uris []string
			for _, r := range res.Roots {
				uris = append(uris, r.URI)
			}
			return mcpgo.NewToolResultText(strings.Join(uris, "\n"))
		}))
	srv.AddTool(mcpgo.NewTool("all-three", mcpgo.WithDescription("Ask for a form, a sample and the roots in one round")), ask("three-1",
		func(b *server.InputRequestBuilder) {
			b.Elicit("who", mcpgo.ElicitationParams{Message: "Who are you?", RequestedSchema: askForm}).
				Sample("hi", mcpgo.CreateMessageParams{
					Messages:  []mcpgo.SamplingMessage{{Role: mcpgo.RoleUser, Content: mcpgo.NewTextContent("say hi")}},
					MaxTokens: 10,
				}).Roots("roots")
		},
		func(in mcpgo.InputResponses) *mcpgo.CallToolResult {
			who, hi, roots := server.ElicitationResponse(in, "who"), server.SamplingResponse(in, "hi"), server.RootsResponse(in, "roots")
			if who == nil || hi == nil || roots == nil {
				return mcpgo.NewToolResultError("an answer is missing")
			}
			return mcpgo.NewToolResultText(fmt.Sprintf("%s/%s/%d roots", who.Content.(map[string]any)["name"], hi.Model, len(roots.Roots)))
		}))
	// insist asks again whatever the answer, a new round each time.
	srv.AddTool(mcpgo.NewTool("insist", mcpgo.WithDescription("Ask the user forever")),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			round := len(req.Params.RequestState)
			return server.NewInputRequestBuilder(req.Params.RequestState+"x").
				Elicit(fmt.Sprintf("q%d", round), mcpgo.ElicitationParams{Message: "Again?", RequestedSchema: askForm}).ToolResult(), nil
		})
}

// addTaskTools adds "research", a tool that may be called as a task: it
// works for ms milliseconds, then answers.
func addTaskTools(srv *server.MCPServer) {
	srv.AddTool(mcpgo.NewTool("research", mcpgo.WithDescription("Research a topic (a task)"),
		mcpgo.WithTaskSupport(mcpgo.TaskSupportOptional),
		mcpgo.WithString("topic", mcpgo.Required()), mcpgo.WithNumber("ms")),
		func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			// mcp-go 1.2.1 runs a task on the context of the tools/call that
			// created it, which ends when the task handle is sent: the work
			// ignores it (tasks/cancel still marks the task cancelled).
			time.Sleep(time.Duration(req.GetFloat("ms", 0)) * time.Millisecond)
			return mcpgo.NewToolResultText("researched " + req.GetString("topic", "")), nil
		})
}
