package mcp

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"maestro/backend/chat"
	"maestro/backend/store"
	"maestro/backend/tools"
)

// recEvents records state changes and log lines.
type recEvents struct {
	mu     sync.Mutex
	states []ConnectorStatus
	logs   []LogLine
}

func (e *recEvents) ConnectorState(st ConnectorStatus) {
	e.mu.Lock()
	e.states = append(e.states, st)
	e.mu.Unlock()
}

func (e *recEvents) ConnectorLog(_ string, l LogLine) {
	e.mu.Lock()
	e.logs = append(e.logs, l)
	e.mu.Unlock()
}

func (e *recEvents) statesOf(id string) []State {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []State
	for _, st := range e.states {
		if st.ID == id {
			out = append(out, st.State)
		}
	}
	return out
}

// harness is a supervisor over a real store and registry.
type harness struct {
	t       testing.TB
	st      *store.Store
	reg     *tools.Registry
	sup     *Supervisor
	events  *recEvents
	secrets *MemorySecrets
}

func newHarness(t testing.TB, opts ...SupervisorOption) *harness {
	t.Helper()
	h := &harness{t: t, st: openStore(t, ""), events: &recEvents{}, secrets: NewMemorySecrets()}
	h.reg = tools.NewRegistry(h.st, testRules)
	base := []SupervisorOption{
		WithConnectorStore(h.st), WithSecrets(h.secrets), WithToolSink(h.reg), WithEvents(h.events),
		WithClientInfo("maestro-test", "0.0.1"), WithBackoff(50*time.Millisecond, 400*time.Millisecond),
		WithSessions(h.st),
	}
	h.sup = NewSupervisor(append(base, opts...)...)
	t.Cleanup(func() { _ = h.sup.Close() })
	return h
}

// add adds a connector and waits for it to settle.
func (h *harness) add(c Connector) Connector {
	h.t.Helper()
	ctx := context.Background()
	c, err := h.sup.Add(ctx, c)
	if err != nil {
		h.t.Fatalf("Add(%s): %v", c.Name, err)
	}
	h.settle(c.ID)
	return c
}

func (h *harness) settle(id string) ConnectorStatus {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := h.sup.WaitSettled(ctx, id); err != nil {
		h.t.Fatalf("WaitSettled: %v", err)
	}
	st, err := h.sup.Status(id)
	if err != nil {
		h.t.Fatalf("Status: %v", err)
	}
	return st
}

// waitFor polls cond until it holds or 20s pass.
func (h *harness) waitFor(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (h *harness) waitState(id string, want State) ConnectorStatus {
	h.t.Helper()
	var st ConnectorStatus
	h.waitFor("state "+string(want), func() bool {
		st, _ = h.sup.Status(id)
		return st.State == want
	})
	return st
}

// session stores a session with the connectors enabled.
func (h *harness) session(connectors ...string) string {
	h.t.Helper()
	return newSession(h.t, h.st, connectors...).ID
}

// call calls server.tool (canonical) in the session as OpenAI would.
func (h *harness) call(ctx context.Context, sessionID, canonical, args string, onProgress func(Progress)) chat.ToolResult {
	h.t.Helper()
	snap, err := h.reg.Snapshot(ctx, sessionID)
	if err != nil {
		h.t.Fatalf("Snapshot: %v", err)
	}
	e, ok := snap.Lookup(canonical)
	if !ok {
		var names []string
		for _, e := range snap.Entries {
			names = append(names, e.Canonical)
		}
		h.t.Fatalf("no tool %s in the snapshot (%s)", canonical, strings.Join(names, ", "))
	}
	return h.sup.Call(ctx, snap, CallRequest{
		SessionID: sessionID, CallID: "call-1", Provider: chat.ProviderOpenAI,
		Name: e.Name(chat.ProviderOpenAI), Arguments: json.RawMessage(args), OnProgress: onProgress,
	})
}

// selfServer is a stdio connector that runs this test binary as an MCP
// server in the given mode (see TestMain).
func selfServer(t testing.TB, name, mode string) Connector {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Connector{Name: name, Transport: TransportStdio, Command: exe, Env: map[string]string{testServerEnv: mode}}
}

// text is a successful result's text.
func text(t testing.TB, res chat.ToolResult) string {
	t.Helper()
	if !res.Successful {
		t.Fatalf("call failed: %s", res.Error)
	}
	var d struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(res.Data, &d); err != nil {
		t.Fatalf("data %s: %v", res.Data, err)
	}
	return d.Text
}
