package mcp

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// capabilityServer lists a tool per client capability it was told about at
// initialize, as server-everything does for elicitation and sampling.
func capabilityServer() *server.MCPServer {
	hooks := &server.Hooks{}
	srv := server.NewMCPServer("caps", "1.0.0", server.WithToolCapabilities(true), server.WithHooks(hooks))
	handler := func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return mcpgo.NewToolResultText("ok"), nil
	}
	srv.AddTool(mcpgo.NewTool("plain"), handler)
	hooks.AddAfterInitialize(func(_ context.Context, _ any, req *mcpgo.InitializeRequest, _ *mcpgo.InitializeResult) {
		if req.Params.Capabilities.Elicitation != nil {
			srv.AddTool(mcpgo.NewTool("ask-the-user"), handler)
		}
		if req.Params.Capabilities.Sampling != nil {
			srv.AddTool(mcpgo.NewTool("ask-the-model"), handler)
		}
	})
	return srv
}

func TestProbe(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		cfg   Connector
		opts  []SupervisorOption
		limit time.Duration
		// want: the state, the sorted tool names, and a phrase of the error.
		state State
		tools []string
		err   string
	}{{
		name: "ready, tools sorted",
		cfg:  Connector{Name: "Notes", Transport: TransportInProcess, Command: "notes"},
		opts: []SupervisorOption{WithInProcessServer("notes", newServer("notes",
			mcpgo.NewTool("search", mcpgo.WithReadOnlyHintAnnotation(true)), mcpgo.NewTool("add")))},
		state: StateReady, tools: []string{"add", "search"},
	}, {
		// The probe declares the real supervisor's capabilities, so it
		// counts the tools the saved connector will have.
		name:  "same capabilities as the supervisor",
		cfg:   Connector{Name: "Caps", Transport: TransportInProcess, Command: "caps"},
		opts:  []SupervisorOption{WithInProcessServer("caps", capabilityServer())},
		state: StateReady, tools: []string{"ask-the-model", "ask-the-user", "plain"},
	}, {
		name:  "a server that dies shows its stderr",
		cfg:   selfServer(t, "Dies", "die"),
		state: StateError, err: "missing API_KEY",
	}, {
		name:  "a server that never answers",
		cfg:   selfServer(t, "Hangs", "hang"),
		limit: time.Second,
		state: StateStarting, err: "did not answer within 1s",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := Probe(t.Context(), tt.cfg, tt.limit, append(tt.opts, WithClientInfo("maestro-test", "0.0.1"))...)
			if err != nil {
				t.Fatalf("Probe: %v", err)
			}
			if got := res.Status.State; got != tt.state {
				t.Errorf("state = %s (error %q); want %s", got, res.Status.Error, tt.state)
			}
			if res.OK() != (tt.state == StateReady) {
				t.Errorf("OK() = %v; want %v", res.OK(), tt.state == StateReady)
			}
			var names []string
			for _, tool := range res.Tools {
				names = append(names, tool.Name)
			}
			if !slices.Equal(names, tt.tools) {
				t.Errorf("tools = %v; want %v", names, tt.tools)
			}
			if tt.state != StateReady && res.Status.Error == "" {
				t.Error("a failed probe has no error to show")
			}
			if !strings.Contains(res.Status.Error, tt.err) {
				t.Errorf("error = %q; want it to say %q", res.Status.Error, tt.err)
			}
			if res.Duration <= 0 {
				t.Errorf("duration = %s; want it measured", res.Duration)
			}
		})
	}
}

func TestProbeRefusesAnInvalidConnector(t *testing.T) {
	t.Parallel()
	if _, err := Probe(t.Context(), Connector{Name: "Nothing", Transport: TransportStdio}, time.Second); err == nil {
		t.Error("Probe of a stdio connector without a command succeeded")
	}
}
