package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
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

// legacyCapabilityURL serves capabilityServer over streamable HTTP as a
// 2025-11-25 server: server/discover is a method it does not know.
func legacyCapabilityURL(t *testing.T) string {
	t.Helper()
	next := server.NewStreamableHTTPServer(capabilityServer())
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &req) == nil && req.Method == "server/discover" {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, req.ID)
			return
		}
		next.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close() })
	return hs.URL + "/mcp"
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
		// orState, when set, is another state the server may settle in.
		orState State
		tools   []string
		err     string
	}{{
		name: "ready, tools sorted",
		cfg:  Connector{Name: "Notes", Transport: TransportInProcess, Command: "notes"},
		opts: []SupervisorOption{WithInProcessServer("notes", newServer("notes",
			mcpgo.NewTool("search", mcpgo.WithReadOnlyHintAnnotation(true)), mcpgo.NewTool("add")))},
		state: StateReady, tools: []string{"add", "search"},
	}, {
		// The probe declares the real supervisor's capabilities, so it
		// counts the tools the saved connector will have. capabilityServer
		// learns them at initialize, so the connector is pinned to the old
		// era: the probe honours the connector's ProtocolVersion.
		name:  "same capabilities as the supervisor",
		cfg:   Connector{Name: "Caps", Transport: TransportInProcess, Command: "caps", ProtocolVersion: ProtocolLegacy},
		opts:  []SupervisorOption{WithInProcessServer("caps", capabilityServer())},
		state: StateReady, tools: []string{"ask-the-model", "ask-the-user", "plain"},
	}, {
		// A server of the old era answers server/discover with "method not
		// found"; the probe falls back to initialize as the supervisor does.
		name:  "discover falls back to initialize",
		cfg:   Connector{Name: "Caps", Transport: TransportHTTP, URL: legacyCapabilityURL(t)},
		state: StateReady, tools: []string{"ask-the-model", "ask-the-user", "plain"},
	}, {
		name:  "a server that dies shows its stderr",
		cfg:   selfServer(t, "Dies", "die"),
		state: StateError, err: "missing API_KEY",
	}, {
		// Whether the probe's wait or the start's own timeout ends it
		// first depends on the machine's load: either way the server is
		// not ready and the error names the limit.
		name:  "a server that never answers",
		cfg:   selfServer(t, "Hangs", "hang"),
		limit: time.Second,
		state: StateStarting, orState: StateError, err: "within 1s",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := Probe(t.Context(), tt.cfg, tt.limit, append(tt.opts, WithClientInfo("maestro-test", "0.0.1"))...)
			if err != nil {
				t.Fatalf("Probe: %v", err)
			}
			if got := res.Status.State; got != tt.state && (tt.orState == "" || got != tt.orState) {
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
