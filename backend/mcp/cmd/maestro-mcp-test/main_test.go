package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// A tool added and removed through the control endpoints reaches a
// connected client as notifications/tools/list_changed and in tools/list,
// and a call is answered with its arguments and recorded.
func TestControlChangesTheToolList(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s := newServer()
	s.add(toolSpec{Name: "forecast"})
	ctl := httptest.NewServer(s.handler())
	defer ctl.Close()

	c, err := client.NewInProcessClient(s.mcp)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var changed atomic.Int32
	c.OnNotification(func(n mcpgo.JSONRPCNotification) {
		if n.Method == "notifications/tools/list_changed" {
			changed.Add(1)
		}
	})
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcpgo.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}

	names := func() []string {
		t.Helper()
		res, err := c.ListTools(ctx, mcpgo.ListToolsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tl := range res.Tools {
			out = append(out, tl.Name)
		}
		return out
	}
	do := func(method, path, body string, want int) {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, method, ctl.URL+path, strings.NewReader(body))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Fatalf("%s %s: status %d, want %d", method, path, res.StatusCode, want)
		}
	}

	if got := names(); len(got) != 1 || got[0] != "forecast" {
		t.Fatalf("tools at start = %v, want [forecast]", got)
	}
	do("POST", "/tools", `{"name":"alerts","readOnly":false}`, http.StatusNoContent)
	do("POST", "/tools", `{}`, http.StatusBadRequest)
	if got := strings.Join(names(), ","); !strings.Contains(got, "alerts") {
		t.Fatalf("tools after adding alerts = %s", got)
	}
	do("DELETE", "/tools/forecast", "", http.StatusNoContent)
	do("DELETE", "/tools/forecast", "", http.StatusNotFound)
	if got := strings.Join(names(), ","); got != "alerts" {
		t.Fatalf("tools after removing forecast = %s, want alerts", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for changed.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := changed.Load(); n < 2 {
		t.Errorf("list_changed notifications = %d, want ≥ 2 (one per change)", n)
	}

	res, err := c.CallTool(ctx, mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: "alerts", Arguments: map[string]any{"text": "Oslo"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(mcpgo.TextContent).Text; got != `alerts ran with {"text":"Oslo"}` {
		t.Errorf("result = %q", got)
	}
	resp, err := http.Get(ctl.URL + "/calls")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var calls []call
	if err := json.NewDecoder(resp.Body).Decode(&calls); err != nil || len(calls) != 1 || calls[0].Name != "alerts" {
		t.Errorf("calls = %+v (%v), want one call to alerts", calls, err)
	}
}

type answerer struct {
	action mcpgo.ElicitationResponseAction
}

func (a answerer) Elicit(_ context.Context, req mcpgo.ElicitationRequest) (*mcpgo.ElicitationResult, error) {
	res := &mcpgo.ElicitationResult{ElicitationResponse: mcpgo.ElicitationResponse{Action: a.action}}
	if a.action == mcpgo.ElicitationResponseActionAccept {
		res.Content = map[string]any{"answer": "Oslo, " + req.Params.Message}
	}
	return res, nil
}

// A tool added with a question asks it before answering, in both eras: a
// 2026-07-28 client answers the input_required result and calls again; a
// 2025-11-25 client answers mcp-go's elicitation/create.
func TestToolThatAsks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		version string
		action  mcpgo.ElicitationResponseAction
		want    string
	}{
		{"2026-07-28", "", mcpgo.ElicitationResponseActionAccept, `ask ran with {"text":"x"}; answered Oslo, Which city?`},
		{"2025-11-25", mcpgo.LATEST_LEGACY_PROTOCOL_VERSION, mcpgo.ElicitationResponseActionAccept, `ask ran with {"text":"x"}; answered Oslo, Which city?`},
		{"declined", "", mcpgo.ElicitationResponseActionDecline, `ask ran with {"text":"x"}; decline`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			s := newServer()
			s.add(toolSpec{Name: "ask", Ask: "Which city?"})
			c, err := client.NewInProcessClientWithOptions(s.mcp, client.WithElicitationHandler(answerer{tc.action}),
				client.WithProtocolVersion(tc.version))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Start(ctx); err != nil {
				t.Fatal(err)
			}
			init, err := c.Initialize(ctx, mcpgo.InitializeRequest{})
			if err != nil {
				t.Fatal(err)
			}
			if want := negotiated(tc.version); init.ProtocolVersion != want {
				t.Errorf("protocol = %s, want %s", init.ProtocolVersion, want)
			}
			res, err := c.CallTool(ctx, mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: "ask", Arguments: map[string]any{"text": "x"}}})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Content[0].(mcpgo.TextContent).Text; got != tc.want {
				t.Errorf("result = %q; want %q", got, tc.want)
			}
		})
	}
}

func negotiated(pinned string) string {
	if pinned == "" {
		return mcpgo.ProtocolVersion20260728
	}
	return pinned
}
