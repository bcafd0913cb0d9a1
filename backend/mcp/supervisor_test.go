package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
	"maestro/backend/tools"
)

func TestSupervisorRoutesCalls(t *testing.T) {
	t.Parallel()
	ev := &testEvents{}
	h := newHarness(t, WithInProcessServer("test", newTestServer(ev)))
	c := h.add(Connector{Name: "Test", Transport: TransportInProcess, Command: "test"})
	if st, _ := h.sup.Status(c.ID); st.State != StateReady || st.Tools < 5 {
		t.Fatalf("status = %+v, want ready with the test tools", st)
	}
	sess := h.session(c.ID)
	ctx := t.Context()

	tests := []struct {
		name, tool, args string
		ok               bool
		want             string // in the text (ok) or the error
	}{
		{"echo", "test.echo", `{"text":"hello"}`, true, "hello"},
		{"missing required field", "test.echo", `{}`, false, "text"},
		{"not JSON", "test.echo", `{"text":`, false, "not valid JSON"},
		{"not an object", "test.echo", `["hello"]`, false, "must be a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := h.call(ctx, sess, tt.tool, tt.args, nil)
			if res.Name != tt.tool || res.CallID != "call-1" {
				t.Errorf("name, call id = %q, %q; want %q, call-1", res.Name, res.CallID, tt.tool)
			}
			if tt.ok {
				if got := text(t, res); !strings.Contains(got, tt.want) {
					t.Errorf("text = %q, want %q", got, tt.want)
				}
				return
			}
			if res.Successful || !strings.Contains(res.Error, tt.want) {
				t.Errorf("result = %+v, want an error about %q", res, tt.want)
			}
		})
	}

	t.Run("result over the cap is truncated", func(t *testing.T) {
		res := h.call(ctx, sess, "test.big", `{}`, nil)
		if !res.Successful || !res.Truncated || len(res.Data) > tools.DefaultResultCap+512 {
			t.Fatalf("big result: successful=%v truncated=%v %d bytes", res.Successful, res.Truncated, len(res.Data))
		}
	})
	t.Run("unknown tool", func(t *testing.T) {
		snap, _ := h.reg.Snapshot(ctx, sess)
		res := h.sup.Call(ctx, snap, CallRequest{CallID: "c", Provider: chat.ProviderOpenAI, Name: "nope__nothing"})
		if res.Successful || !strings.Contains(res.Error, "unknown tool") {
			t.Fatalf("result = %+v", res)
		}
	})
}

func TestStdioServerThatDiesAtStartShowsWhy(t *testing.T) {
	t.Parallel()
	servers := []struct {
		name string
		c    func(t *testing.T) Connector
	}{
		{"go", func(t *testing.T) Connector { return selfServer(t, "Dies", "die") }},
		{"node", func(t *testing.T) Connector {
			if _, err := exec.LookPath("node"); err != nil {
				t.Skip("node is not installed")
			}
			return Connector{Name: "Dies", Command: "node",
				Args: []string{"-e", "console.error('boom: missing API_KEY'); process.exit(1)"}}
		}},
	}
	for _, s := range servers {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, WithMaxStartFailures(1))
			c := h.add(s.c(t))
			st := h.settle(c.ID)
			if st.State != StateError {
				t.Fatalf("state = %s, want error", st.State)
			}
			for _, want := range []string{"exited with status 1", "boom: missing API_KEY"} {
				if !strings.Contains(st.Error, want) {
					t.Errorf("error = %q, want it to say %q", st.Error, want)
				}
			}
			if !slices.Contains(st.StderrTail, "boom: missing API_KEY") {
				t.Errorf("stderr tail = %q", st.StderrTail)
			}
			if !st.RetryAt.IsZero() {
				t.Errorf("retry at %v after the last allowed failure", st.RetryAt)
			}
		})
	}
}

func TestUnknownCommandShowsWhy(t *testing.T) {
	t.Parallel()
	h := newHarness(t, WithMaxStartFailures(1))
	c := h.add(Connector{Name: "Nope", Command: "maestro-no-such-command"})
	st := h.settle(c.ID)
	if st.State != StateError || !strings.Contains(st.Error, "maestro-no-such-command") {
		t.Fatalf("status = %+v", st)
	}
	// Each published status is newer than the one before, so a reader that
	// gets them out of order (an event and a bound call's answer) keeps the
	// failure, not the "starting" before it.
	h.events.mu.Lock()
	defer h.events.mu.Unlock()
	var last uint64
	for _, ev := range h.events.states {
		if ev.ID != c.ID {
			continue
		}
		if ev.Version <= last {
			t.Errorf("status %s has version %d after %d; want increasing versions", ev.State, ev.Version, last)
		}
		last = ev.Version
	}
	if got, _ := h.sup.Status(c.ID); got.Version != last {
		t.Errorf("Status version = %d; want the last published one, %d", got.Version, last)
	}
}

// TestCommandErrorsReadPlainly: the card says why a command cannot run in
// words, not as Go's exec error.
func TestCommandErrorsReadPlainly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notExec := filepath.Join(dir, "server.sh")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ command, want string }{
		{"maestro-no-such-command", `cannot run "maestro-no-such-command": it was not found on your PATH`},
		{filepath.Join(dir, "missing"), "it was not found; check that it is installed"},
		{notExec, "it is not executable (permission denied)"},
	}
	for _, tt := range tests {
		_, err := startProcess(Connector{Command: tt.command}, func(string) {})
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "exec:") {
			t.Errorf("start %s: %v; want %q, in words", tt.command, err, tt.want)
		}
	}
}

func TestOneFailingServerBlocksNoOther(t *testing.T) {
	t.Parallel()
	h := newHarness(t, WithInProcessServer("test", newTestServer(&testEvents{})))
	hang := selfServer(t, "Hangs", "hang")
	hang.InitTimeoutSeconds = 3
	ctx := t.Context()
	slow, err := h.sup.Add(ctx, hang)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ok := h.add(Connector{Name: "Test", Transport: TransportInProcess, Command: "test"})
	if st, _ := h.sup.Status(ok.ID); st.State != StateReady {
		t.Fatalf("ok server: %+v", st)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the good server took %s, blocked by the hanging one", d)
	}
	st := h.settle(slow.ID)
	if st.State != StateError || !strings.Contains(st.Error, "did not finish starting within 3s") {
		t.Fatalf("hanging server: %+v", st)
	}
	// A chat with both connectors goes on.
	sess := h.session(ok.ID, slow.ID)
	if got := text(t, h.call(ctx, sess, "test.echo", `{"text":"still here"}`, nil)); got != "still here" {
		t.Fatalf("echo = %q", got)
	}
}

func TestCrashMidCallGivesAnErrorAndRestarts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.add(selfServer(t, "Crashy", "ok"))
	sess := h.session(c.ID)
	ctx := t.Context()

	res := h.call(ctx, sess, "crashy.crash", `{}`, nil)
	if res.Successful || !strings.Contains(res.Error, "stopped during the call") || !strings.Contains(res.Error, "status 3") {
		t.Fatalf("crash result = %+v", res)
	}
	// The next call waits for the restart and succeeds.
	if got := text(t, h.call(ctx, sess, "crashy.echo", `{"text":"back"}`, nil)); got != "back" {
		t.Fatalf("echo after the crash = %q", got)
	}
	states := h.events.statesOf(c.ID)
	if !slices.Contains(states, StateRestarting) {
		t.Errorf("states = %v, want a restart", states)
	}
	st, _ := h.sup.Status(c.ID)
	if st.State != StateReady || st.Restarts != 1 {
		t.Errorf("status after restart = %+v", st)
	}
}

func TestCallTimeoutAndProgress(t *testing.T) {
	t.Parallel()
	ev := &testEvents{}
	h := newHarness(t, WithInProcessServer("test", newTestServer(ev)))
	c := h.add(Connector{Name: "Test", Transport: TransportInProcess, Command: "test", CallTimeoutSeconds: 1})
	sess := h.session(c.ID)
	ctx := t.Context()

	t.Run("progress extends the timeout", func(t *testing.T) {
		var mu sync.Mutex
		var got []Progress
		res := h.call(ctx, sess, "test.sleep", `{"ms":2500,"progressMs":300}`, func(p Progress) {
			mu.Lock()
			got = append(got, p)
			mu.Unlock()
		})
		if txt := text(t, res); !strings.Contains(txt, "slept") {
			t.Fatalf("text = %q", txt)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(got) < 5 || got[0].Progress != 1 || got[0].Message != "working" {
			t.Fatalf("progress = %+v", got)
		}
	})
	t.Run("silence times out and cancels", func(t *testing.T) {
		res := h.call(ctx, sess, "test.sleep", `{"ms":5000}`, nil)
		if res.Successful || !strings.Contains(res.Error, "no answer or progress within 1s") {
			t.Fatalf("result = %+v", res)
		}
		h.waitFor("the server to see notifications/cancelled", func() bool { return slices.Contains(ev.list(), "cancelled: sleep") })
	})
	t.Run("the caller cancels", func(t *testing.T) {
		before := len(ev.list())
		cctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		defer cancel()
		res := h.call(cctx, sess, "test.sleep", `{"ms":5000}`, nil)
		if res.Successful || !strings.Contains(res.Error, "cancelled") {
			t.Fatalf("result = %+v", res)
		}
		h.waitFor("the server to see notifications/cancelled", func() bool { return len(ev.list()) > before })
	})
}

func TestCancelOverStdioReachesTheServer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	c := h.add(selfServer(t, "Stdio", "ok"))
	sess := h.session(c.ID)
	cctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	res := h.call(cctx, sess, "stdio.sleep", `{"ms":5000}`, nil)
	if res.Successful || !strings.Contains(res.Error, "cancelled") {
		t.Fatalf("result = %+v", res)
	}
	h.waitFor("the server to log the cancellation", func() bool {
		logs, _ := h.sup.Logs(c.ID)
		return slices.ContainsFunc(logs, func(l LogLine) bool { return l.Text == "cancelled: sleep" })
	})
}

// fakeSampler and fakeElicitor answer as a user would.
type fakeSampler struct{ got chan SamplingRequest }

func (f *fakeSampler) CreateMessage(_ context.Context, req SamplingRequest) (*mcpgo.CreateMessageResult, error) {
	f.got <- req
	return &mcpgo.CreateMessageResult{
		SamplingMessage: mcpgo.SamplingMessage{Role: mcpgo.RoleAssistant, Content: mcpgo.NewTextContent("hi")},
		Model:           "fake-model", StopReason: "endTurn",
	}, nil
}

type fakeElicitor struct {
	answer ElicitationAnswer
	got    chan ElicitationRequest
}

func (f *fakeElicitor) Elicit(_ context.Context, req ElicitationRequest) (ElicitationAnswer, error) {
	f.got <- req
	return f.answer, nil
}

type fakeOpener struct{ opened chan string }

func (f *fakeOpener) OpenURL(_ context.Context, u string) error {
	f.opened <- u
	return nil
}

func TestClientFeaturesInProcess(t *testing.T) {
	t.Parallel()
	smp := &fakeSampler{got: make(chan SamplingRequest, 1)}
	eli := &fakeElicitor{answer: ElicitationAnswer{Action: ActionAccept, Content: map[string]any{"name": "Ada"}}, got: make(chan ElicitationRequest, 1)}
	h := newHarness(t, WithInProcessServer("test", newTestServer(&testEvents{})), WithSampler(smp), WithElicitor(eli, nil))
	c := h.add(Connector{Name: "Test", Transport: TransportInProcess, Command: "test"})
	sess := h.session(c.ID)
	ctx := t.Context()

	t.Run("sampling", func(t *testing.T) {
		res := h.call(ctx, sess, "test.sample", `{}`, nil)
		if got := text(t, res); !strings.Contains(got, "model fake-model said") {
			t.Fatalf("text = %q", got)
		}
		req := <-smp.got
		if req.SessionID != sess || req.CallID != "call-1" || req.ConnectorID != c.ID || len(req.Params.Messages) != 1 {
			t.Fatalf("sampling request = %+v", req)
		}
	})
	t.Run("elicitation fills in defaults", func(t *testing.T) {
		res := h.call(ctx, sess, "test.ask", `{}`, nil)
		if !res.Successful {
			t.Fatalf("result = %+v", res)
		}
		var got struct {
			Action  string         `json:"action"`
			Content map[string]any `json:"content"`
		}
		if err := json.Unmarshal(res.Data, &got); err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"name": "Ada", "age": float64(30), "color": "blue"}
		if got.Action != "accept" || len(got.Content) != 3 || got.Content["age"] != want["age"] || got.Content["color"] != "blue" {
			t.Fatalf("answer = %+v, want accept with %v", got, want)
		}
		req := <-eli.got
		if req.Form == nil || len(req.Form.Fields) != 3 || req.Message != "Who are you?" {
			t.Fatalf("elicitation request = %+v", req)
		}
	})
	t.Run("roots", func(t *testing.T) {
		if got := text(t, h.call(ctx, sess, "test.roots", `{}`, nil)); got != "" {
			t.Fatalf("roots before any = %q", got)
		}
		if err := h.sup.SetRoots(ctx, sess, []Root{{Path: "/tmp/project"}}); err != nil {
			t.Fatal(err)
		}
		if got := text(t, h.call(ctx, sess, "test.roots", `{}`, nil)); got != "file:///tmp/project" {
			t.Fatalf("roots = %q", got)
		}
	})
	t.Run("logging after SetLevel", func(t *testing.T) {
		if err := h.sup.SetLevel(ctx, c.ID, "warning"); err != nil {
			t.Fatal(err)
		}
		text(t, h.call(ctx, sess, "test.log", `{"level":"info","text":"quiet"}`, nil))
		text(t, h.call(ctx, sess, "test.log", `{"level":"error","text":"loud"}`, nil))
		h.waitFor("the error log line", func() bool {
			logs, _ := h.sup.Logs(c.ID)
			return slices.ContainsFunc(logs, func(l LogLine) bool { return l.Source == SourceServer && l.Text == "loud" && l.Level == "error" })
		})
		logs, _ := h.sup.Logs(c.ID)
		if slices.ContainsFunc(logs, func(l LogLine) bool { return l.Text == "quiet" }) {
			t.Error("an info line came through at level warning")
		}
		if cfg, _ := h.sup.Connector(c.ID); cfg.LogLevel != "warning" {
			t.Errorf("stored level = %q", cfg.LogLevel)
		}
	})
	t.Run("list_changed re-lists tools", func(t *testing.T) {
		before, _ := h.sup.Status(c.ID)
		text(t, h.call(ctx, sess, "test.grow", `{}`, nil))
		h.waitFor("the new tool", func() bool {
			st, _ := h.sup.Status(c.ID)
			return st.Tools == before.Tools+1
		})
		h.waitFor("the registry to have it", func() bool {
			snap, _ := h.reg.Snapshot(ctx, sess)
			_, ok := snap.Lookup("test.grown")
			return ok
		})
		if got := text(t, h.call(ctx, sess, "test.grown", `{}`, nil)); got != "grown" {
			t.Fatalf("grown = %q", got)
		}
	})
}

func TestNoConnectorsIsAPlainChatApp(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	if err := h.sup.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := h.sup.WaitSettled(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := h.sup.Statuses(); len(got) != 0 {
		t.Fatalf("statuses = %+v", got)
	}
	snap, err := h.reg.Snapshot(t.Context(), h.session())
	if err != nil || len(snap.Entries) != 0 {
		t.Fatalf("snapshot = %+v, %v", snap, err)
	}
}

func TestConnectorsPersistWithSecretsInTheKeychain(t *testing.T) {
	t.Parallel()
	h := newHarness(t, WithInProcessServer("test", newTestServer(&testEvents{})))
	ctx := t.Context()
	c := h.add(Connector{Name: "Test", Transport: TransportInProcess, Command: "test", Env: map[string]string{"API_KEY": "s3cret"}})

	raws, err := h.st.Connectors(ctx)
	if err != nil || len(raws) != 1 {
		t.Fatalf("stored = %d, %v", len(raws), err)
	}
	if strings.Contains(string(raws[0]), "s3cret") {
		t.Fatalf("the store holds the secret: %s", raws[0])
	}
	if v, _ := h.secrets.Get(ctx, secretsAccount(c.ID)); !strings.Contains(v, "s3cret") {
		t.Fatalf("keychain = %q", v)
	}
	// A second supervisor over the same store and keychain gets it back.
	sup2 := NewSupervisor(WithConnectorStore(h.st), WithSecrets(h.secrets), WithInProcessServer("test", newTestServer(&testEvents{})))
	defer sup2.Close()
	if err := sup2.Start(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := sup2.Connector(c.ID)
	if err != nil || got.Env["API_KEY"] != "s3cret" {
		t.Fatalf("loaded = %+v, %v", got, err)
	}
	if err := sup2.WaitSettled(ctx); err != nil {
		t.Fatal(err)
	}
	if st, _ := sup2.Status(c.ID); st.State != StateReady {
		t.Fatalf("status = %+v", st)
	}
	// Remove deletes everywhere.
	if err := h.sup.Remove(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if raws, _ := h.st.Connectors(ctx); len(raws) != 0 {
		t.Errorf("still stored: %s", raws)
	}
	if _, err := h.secrets.Get(ctx, secretsAccount(c.ID)); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("secrets still kept: %v", err)
	}
}

func TestDisableAndEnable(t *testing.T) {
	t.Parallel()
	h := newHarness(t, WithInProcessServer("test", newTestServer(&testEvents{})))
	ctx := t.Context()
	c := h.add(Connector{Name: "Test", Transport: TransportInProcess, Command: "test"})
	sess := h.session(c.ID)
	c.Disabled = true
	if err := h.sup.Update(ctx, c); err != nil {
		t.Fatal(err)
	}
	h.waitState(c.ID, StateStopped)
	snap, _ := h.reg.Snapshot(ctx, sess)
	if len(snap.Entries) != 0 {
		t.Fatalf("a disabled connector still has %d tools", len(snap.Entries))
	}
	c.Disabled = false
	if err := h.sup.Update(ctx, c); err != nil {
		t.Fatal(err)
	}
	h.waitState(c.ID, StateReady)
	if got := text(t, h.call(ctx, sess, "test.echo", `{"text":"on"}`, nil)); got != "on" {
		t.Fatalf("echo = %q", got)
	}
}

// TestUpdateHostSideKeepsServer: a change only Maestro reads (the approval
// policy, read-only trust, new chats) keeps the running server process and
// its session; a change the server sees restarts it.
func TestUpdateHostSideKeepsServer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		change  func(*Connector)
		restart bool
	}{
		{"approval", func(c *Connector) { c.Approval = chat.PolicyAll }, false},
		{"read-only trust", func(c *Connector) { c.TrustReadOnlyHints = true }, false},
		{"new chats", func(c *Connector) { c.NewChats = !c.NewChats }, false},
		{"environment", func(c *Connector) { c.Env["EXTRA"] = "1" }, true},
		{"log level", func(c *Connector) { c.LogLevel = "debug" }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			ctx := t.Context()
			c := h.add(selfServer(t, "Pid", "pid"))
			sess := h.session(c.ID)
			before := text(t, h.call(ctx, sess, "pid.pid", `{}`, nil))
			st0, _ := h.sup.Status(c.ID)
			cfg, err := h.sup.Connector(c.ID)
			if err != nil {
				t.Fatal(err)
			}
			tc.change(&cfg)
			if err := h.sup.Update(ctx, cfg); err != nil {
				t.Fatalf("Update: %v", err)
			}
			if got, _ := h.sup.Connector(c.ID); !reflect.DeepEqual(got, cfg) {
				t.Errorf("config after Update = %+v, want %+v", got, cfg)
			}
			if !tc.restart {
				if st, _ := h.sup.Status(c.ID); st.State != StateReady || st.Version != st0.Version {
					t.Errorf("status = %s v%d, want ready and unchanged v%d", st.State, st.Version, st0.Version)
				}
			}
			h.waitFor("the server back", func() bool {
				st, _ := h.sup.Status(c.ID)
				return st.State == StateReady && (!tc.restart || st.Version != st0.Version)
			})
			after := text(t, h.call(ctx, sess, "pid.pid", `{}`, nil))
			if restarted := after != before; restarted != tc.restart {
				t.Errorf("server pid %s → %s: restarted %v, want %v", before, after, restarted, tc.restart)
			}
		})
	}
}
