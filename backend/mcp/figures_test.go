package mcp

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// The figures are measurements, not pass/fail tests: run them with
//
//	MAESTRO_MCP_FIGURES=1 MAESTRO_MCP_NODE_MODULES=$PWD/.ci/mcp/node_modules \
//	  go test -run Figures -v ./backend/mcp/
//
// Targets: echo through Maestro ≤ 1.10× raw mcp-go at p50; 10 servers
// started together ≤ 1.3× the slowest one.
func figures(t *testing.T) {
	t.Helper()
	if os.Getenv("MAESTRO_MCP_FIGURES") != "1" {
		t.Skip("set MAESTRO_MCP_FIGURES=1 to measure")
	}
}

// TestFiguresEcho times 1,000 sequential echo calls to server-everything
// over stdio, through the supervisor (routing, validation, envelope) and
// through raw mcp-go, in alternating blocks so both see the same machine.
func TestFiguresEcho(t *testing.T) {
	figures(t)
	entry := npmPackage(t, "server-everything")
	ctx := t.Context()

	raw, err := client.NewStdioMCPClient("node", nil, entry, "stdio")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Initialize(ctx, mcpgo.InitializeRequest{Params: mcpgo.InitializeParams{
		ProtocolVersion: DefaultProtocolVersion, ClientInfo: mcpgo.Implementation{Name: "raw", Version: "1"},
	}}); err != nil {
		t.Fatal(err)
	}
	rawCall := func() error {
		req := mcpgo.CallToolRequest{}
		req.Params.Name = "echo"
		req.Params.Arguments = map[string]any{"message": "hello"}
		_, err := raw.CallTool(ctx, req)
		return err
	}

	h := newHarness(t)
	c := h.add(Connector{Name: "Everything", Command: "node", Args: []string{entry, "stdio"}})
	sess := h.session(c.ID)
	snap, err := h.reg.Snapshot(ctx, sess)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := snap.Lookup("everything.echo")
	maestroCall := func() error {
		res := h.sup.Call(ctx, snap, CallRequest{SessionID: sess, CallID: "c", Provider: "openai",
			Name: e.Name("openai"), Arguments: []byte(`{"message":"hello"}`)})
		if !res.Successful {
			return fmt.Errorf("%s", res.Error)
		}
		return nil
	}

	rawD, maeD := alternate(t, rawCall, maestroCall)
	rp50, rp99 := percentiles(rawD)
	mp50, mp99 := percentiles(maeD)
	t.Logf("echo ×%d over stdio   p50        p99", len(rawD))
	t.Logf("raw mcp-go           %-10s %s", rp50, rp99)
	t.Logf("Maestro              %-10s %s", mp50, mp99)
	t.Logf("ratio                %.2f×      %.2f×  (target ≤ 1.10×)", float64(mp50)/float64(rp50), float64(mp99)/float64(rp99))
}

// TestFiguresEchoAtScale is TestFiguresEcho in a session of 1,014 tools
// (server-everything's 14 and 1,000 from this test binary), through the
// path a tool call of the agent takes (app's agent tools: the session's
// snapshot, the tool looked up in it, the supervisor's call), against raw
// mcp-go, in alternating blocks. Target: ≤ 1.05× at p50.
func TestFiguresEchoAtScale(t *testing.T) {
	figures(t)
	entry := npmPackage(t, "server-everything")
	ctx := t.Context()
	raw, err := client.NewStdioMCPClient("node", nil, entry, "stdio")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Initialize(ctx, mcpgo.InitializeRequest{Params: mcpgo.InitializeParams{
		ProtocolVersion: DefaultProtocolVersion, ClientInfo: mcpgo.Implementation{Name: "raw", Version: "1"},
	}}); err != nil {
		t.Fatal(err)
	}
	rawCall := func() error {
		req := mcpgo.CallToolRequest{}
		req.Params.Name = "echo"
		req.Params.Arguments = map[string]any{"message": "hello"}
		_, err := raw.CallTool(ctx, req)
		return err
	}
	h := newHarness(t)
	everything := h.add(Connector{Name: "Everything", Command: "node", Args: []string{entry, "stdio"}})
	many := h.add(selfServer(t, "Many", "many"))
	sess := h.session(everything.ID, many.ID)
	snap, err := h.reg.Snapshot(ctx, sess)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(snap.Entries); n < 1010 {
		t.Fatalf("%d tools in the session; want 1,014", n)
	}
	agentCall := func() error {
		// As app's agentTools.Call: the current snapshot, the tool by its
		// canonical name, the exposed name, the supervisor.
		snap, err := h.reg.Snapshot(ctx, sess)
		if err != nil {
			return err
		}
		e, ok := snap.Lookup("everything.echo")
		if !ok {
			return fmt.Errorf("no echo")
		}
		res := h.sup.Call(ctx, snap, CallRequest{SessionID: sess, CallID: "c", Provider: "openai",
			Name: e.Name("openai"), Arguments: []byte(`{"message":"hello"}`)})
		if !res.Successful {
			return fmt.Errorf("%s", res.Error)
		}
		return nil
	}
	rawD, agentD := alternate(t, rawCall, agentCall)
	rp50, rp99 := percentiles(rawD)
	mp50, mp99 := percentiles(agentD)
	t.Logf("echo ×%d over stdio, 1,014 tools   p50        p99", len(rawD))
	t.Logf("raw mcp-go                         %-10s %s", rp50, rp99)
	t.Logf("agent path                         %-10s %s", mp50, mp99)
	t.Logf("ratio                              %.2f×      %.2f×  (target ≤ 1.05×)", float64(mp50)/float64(rp50), float64(mp99)/float64(rp99))
}

// alternate times 1,000 calls of a and of b, after a warm-up, in blocks
// of 100 taken in turn, so both see the same machine.
func alternate(t *testing.T, a, b func() error) (ad, bd []time.Duration) {
	t.Helper()
	const total, block = 1000, 100
	for range 50 {
		_, _ = a(), b()
	}
	for len(ad) < total {
		for _, run := range []struct {
			call func() error
			out  *[]time.Duration
		}{{a, &ad}, {b, &bd}} {
			for range block {
				start := time.Now()
				if err := run.call(); err != nil {
					t.Fatal(err)
				}
				*run.out = append(*run.out, time.Since(start))
			}
		}
	}
	return ad, bd
}

func percentiles(d []time.Duration) (p50, p99 time.Duration) {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2].Round(time.Microsecond), s[len(s)*99/100].Round(time.Microsecond)
}

// TestFiguresStart times starting 10 stdio servers at once against
// starting each alone, for server-everything (Node) and for this test
// binary as a Go server.
func TestFiguresStart(t *testing.T) {
	figures(t)
	servers := map[string]Connector{"go test server": selfServer(t, "Go", "ok")}
	if os.Getenv(nodeModulesEnv) != "" {
		entry := npmPackage(t, "server-everything")
		servers["server-everything"] = Connector{Name: "Everything", Command: "node", Args: []string{entry, "stdio"}}
	}
	for name, c := range servers {
		// Alone, one after the other: the slowest single start.
		var alone []time.Duration
		for i := range 10 {
			c.Name = fmt.Sprintf("%s %d", name, i)
			d, _ := startAll(t, []Connector{c})
			alone = append(alone, d)
		}
		var all []Connector
		for i := range 10 {
			c.Name = fmt.Sprintf("%s %d", name, i)
			all = append(all, c)
		}
		together, each := startAll(t, all)
		slowestAlone, slowestTogether := slices.Max(alone), slices.Max(each)
		t.Logf("%s: 10 together %s; slowest alone %s (%.2f×); slowest of the 10 %s (%.2f×); target ≤ 1.3×",
			name, together.Round(time.Millisecond), slowestAlone.Round(time.Millisecond),
			float64(together)/float64(slowestAlone), slowestTogether.Round(time.Millisecond),
			float64(together)/float64(slowestTogether))
	}
}

// startAll adds the connectors to a fresh supervisor and waits until all
// are ready: the total time, and each one's own start (starting → ready).
func startAll(t *testing.T, cs []Connector) (time.Duration, []time.Duration) {
	t.Helper()
	ev := &recEvents{}
	sup := NewSupervisor(WithSecrets(NewMemorySecrets()), WithEvents(ev))
	defer sup.Close()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	start := time.Now()
	var ids []string
	for _, c := range cs {
		c, err := sup.Add(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID)
	}
	if err := sup.WaitSettled(ctx); err != nil {
		t.Fatal(err)
	}
	total := time.Since(start)
	var each []time.Duration
	for _, id := range ids {
		st, _ := sup.Status(id)
		if st.State != StateReady {
			t.Fatalf("%s: %+v", st.Name, st)
		}
		var from time.Time
		ev.mu.Lock()
		for _, s := range ev.states {
			if s.ID == id && s.State == StateStarting && from.IsZero() {
				from = s.Since
			}
			if s.ID == id && s.State == StateReady {
				each = append(each, s.Since.Sub(from))
				break
			}
		}
		ev.mu.Unlock()
	}
	return total, each
}
