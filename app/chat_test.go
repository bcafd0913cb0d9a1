package app

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/providers/catalog"
	"maestro/backend/providers/fakescript"
	"maestro/backend/providers/gemini"
	"maestro/backend/providers/gemini/geminifake"
)

// eventLog records emitted events with their payloads.
type eventLog struct {
	mu     sync.Mutex
	events []emitted
	cond   *sync.Cond
}

func newEventLog() *eventLog {
	l := &eventLog{}
	l.cond = sync.NewCond(&l.mu)
	return l
}

func (l *eventLog) emit(_ context.Context, name string, data ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var d any
	if len(data) > 0 {
		d = data[0]
	}
	l.events = append(l.events, emitted{name, d})
	l.cond.Broadcast()
}

// wait blocks until an event named name satisfies ok, or fails the test.
func (l *eventLog) wait(t *testing.T, name string, ok func(any) bool) any {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	l.mu.Lock()
	defer l.mu.Unlock()
	for {
		for _, e := range l.events {
			if e.name == name && (ok == nil || ok(e.data)) {
				return e.data
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s event within 10 s; got %d events", name, len(l.events))
		}
		go func() { time.Sleep(20 * time.Millisecond); l.cond.Broadcast() }()
		l.cond.Wait()
	}
}

func (l *eventLog) count(name string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, e := range l.events {
		if e.name == name {
			n++
		}
	}
	return n
}

// startChatApp runs the app with the chat wired to a Gemini fake (API-key
// mode) and returns the app, its event log and the fake's script.
func startChatApp(t *testing.T) (*App, *eventLog, *fakescript.Script) {
	t.Helper()
	srv := geminifake.New(geminifake.WithAPIKey("test-key"))
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	log := newEventLog()
	a := New(Config{Version: "test", DataDir: t.TempDir(), Runtime: Runtime{Emit: log.emit}})
	EnableChat(a, ChatDeps{
		Models: agent.ModelsFunc(func(_ context.Context, provider string) (chat.Model, error) {
			if provider != chat.ProviderGemini {
				return nil, chat.E(chat.ErrAuthRequired, "sign in to %s in Accounts", provider)
			}
			return gemini.New(gemini.WithBaseURL(hs.URL), gemini.WithAPIKey("test-key")), nil
		}),
		Catalog: staticCatalog{{ID: chat.ProviderGemini, DisplayName: "Gemini", Available: true, Source: catalog.SourceBuiltin,
			Models: []catalog.Model{{ModelInfo: chat.ModelInfo{ID: "gemini-2.5-pro", Name: "Gemini 2.5 Pro"}}}}},
	})
	Hooks(a).Startup(t.Context())
	t.Cleanup(func() { Hooks(a).Shutdown(context.Background()) })
	return a, log, srv.Script
}

// staticCatalog is a model catalog that never changes.
type staticCatalog []catalog.Provider

func (c staticCatalog) Providers(context.Context) []catalog.Provider { return c }
func (staticCatalog) RefreshSoon(string)                             {}
func (staticCatalog) Attach(catalog.Lists, func(string))             {}

func finishedFor(runID string) func(any) bool {
	return func(d any) bool { f, ok := d.(FinishedDTO); return ok && f.RunID == runID }
}

func TestChatTurnStreamsAndPersists(t *testing.T) {
	t.Parallel()
	a, log, script := startChatApp(t)
	s, _ := a.CreateSession("")
	if _, err := a.SetSessionModel(s.ID, chat.ProviderGemini, "gemini-2.5-pro"); err != nil {
		t.Fatal(err)
	}
	script.Push(fakescript.Reply{Text: "Hello from the fake Gemini, streamed in small pieces.", ChunkRunes: 4})
	res, err := a.SendMessage(s.ID, "Say hello")
	if err != nil {
		t.Fatal(err)
	}
	if res.RunID == "" || res.Message.Role != "user" || res.Message.Parts[0].Text != "Say hello" {
		t.Fatalf("SendMessage = %+v; want a run id and the stored user message", res)
	}
	fin := log.wait(t, EventRunFinished, finishedFor(res.RunID)).(FinishedDTO)
	if fin.Error != nil || fin.Canceled {
		t.Fatalf("run finished with %+v", fin)
	}
	var text strings.Builder
	log.mu.Lock()
	for _, e := range log.events {
		if d, ok := e.data.(DeltaDTO); ok && d.RunID == res.RunID && d.Kind == "text" {
			text.WriteString(d.Text)
		}
	}
	log.mu.Unlock()
	if got := text.String(); got != "Hello from the fake Gemini, streamed in small pieces." {
		t.Errorf("streamed text = %q", got)
	}
	view, err := a.OpenSession(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(view.Messages) != 2 || view.Messages[1].Role != "assistant" || view.Messages[1].Provider != chat.ProviderGemini {
		t.Fatalf("stored messages = %+v; want the user message and Gemini's reply", view.Messages)
	}
	if view.Session.Title != "Say hello" {
		t.Errorf("title = %q, want it taken from the first message", view.Session.Title)
	}
	if n := log.count(EventRunFinished); n != 1 {
		t.Errorf("run:finished sent %d times, want once", n)
	}
}

func TestChatWithoutProviderKeepsTheMessage(t *testing.T) {
	t.Parallel()
	a, log, _ := startChatApp(t)
	s, _ := a.CreateSession("")
	if _, err := a.SetSessionModel(s.ID, chat.ProviderAnthropic, "claude-sonnet-4-5"); err != nil {
		t.Fatal(err)
	}
	res, err := a.SendMessage(s.ID, "Is anyone there?")
	if err != nil {
		t.Fatal(err)
	}
	fin := log.wait(t, EventRunFinished, finishedFor(res.RunID)).(FinishedDTO)
	if fin.Error == nil || fin.Error.Kind != chat.KindAuthRequired {
		t.Errorf("run:finished error = %+v; want auth_required", fin.Error)
	}
	view, _ := a.OpenSession(s.ID)
	if len(view.Messages) == 0 || view.Messages[0].Parts[0].Text != "Is anyone there?" {
		t.Errorf("the user message was lost: %+v", view.Messages)
	}
}

func TestChatStopAndConflict(t *testing.T) {
	t.Parallel()
	a, log, script := startChatApp(t)
	s, _ := a.CreateSession("")
	_, _ = a.SetSessionModel(s.ID, chat.ProviderGemini, "gemini-2.5-pro")
	script.Push(fakescript.Reply{Text: strings.Repeat("slow ", 200), ChunkRunes: 5, DelayMS: 20})
	res, err := a.SendMessage(s.ID, "Write a lot")
	if err != nil {
		t.Fatal(err)
	}
	if a.ActiveRun(s.ID) != res.RunID {
		t.Errorf("ActiveRun = %q, want %q", a.ActiveRun(s.ID), res.RunID)
	}
	if _, err := a.SendMessage(s.ID, "another"); chat.Kind(err) != chat.KindConflict {
		t.Errorf("second message while running: kind %q, want conflict", chat.Kind(err))
	}
	log.wait(t, EventChatDelta, nil)
	if err := a.StopRun(res.RunID); err != nil {
		t.Fatal(err)
	}
	fin := log.wait(t, EventRunFinished, finishedFor(res.RunID)).(FinishedDTO)
	if !fin.Canceled {
		t.Errorf("run:finished = %+v; want canceled", fin)
	}
	if err := a.StopRun(res.RunID); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("stopping a finished run: kind %q, want not_found", chat.Kind(err))
	}
	if a.ActiveRun(s.ID) != "" {
		t.Error("a stopped run is still active")
	}
}

func TestApprovalRoundTrip(t *testing.T) {
	t.Parallel()
	a, log, _ := startChatApp(t)
	c := a.chat
	got := make(chan agent.Decision, 1)
	go func() {
		d, err := c.Approve(t.Context(), agent.ApprovalRequest{RunID: "r1", Call: chat.ToolCall{ID: "c1", Name: "fs.write_file", Arguments: []byte(`{"path":"a"}`)}, Server: "fs"})
		if err != nil {
			t.Error(err)
		}
		got <- d
	}()
	req := log.wait(t, EventApproval, nil).(ApprovalDTO)
	if req.Name != "fs.write_file" || req.Arguments != `{"path":"a"}` {
		t.Errorf("approval:needed = %+v", req)
	}
	if err := a.AnswerApproval(req.RequestID, "maybe"); chat.Kind(err) != chat.KindInvalid {
		t.Errorf("bad decision: kind %q, want invalid", chat.Kind(err))
	}
	if err := a.AnswerApproval(req.RequestID, "always_allow"); err != nil {
		t.Fatal(err)
	}
	if d := <-got; d != agent.AlwaysAllow {
		t.Errorf("decision = %v, want always_allow", d)
	}
	if err := a.AnswerApproval(req.RequestID, "deny"); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("answering twice: %v, want not found", err)
	}
}

func TestSetSessionModelValidates(t *testing.T) {
	t.Parallel()
	a, _, _ := startChatApp(t)
	s, _ := a.CreateSession("")
	if _, err := a.SetSessionModel(s.ID, "llama", "x"); chat.Kind(err) != chat.KindInvalid {
		t.Errorf("unknown provider: kind %q", chat.Kind(err))
	}
	got, err := a.SetSessionModel(s.ID, chat.ProviderOpenAI, "gpt-5")
	if err != nil || got.Provider != chat.ProviderOpenAI || got.Model != "gpt-5" {
		t.Errorf("SetSessionModel = %+v, %v", got, err)
	}
	if ms := a.ListModels(); len(ms) != 1 || !ms[0].Available {
		t.Errorf("ListModels = %+v", ms)
	}
}

func TestNewChatPicksAnAvailableProvider(t *testing.T) {
	t.Parallel()
	a, log, script := startChatApp(t)
	s, _ := a.CreateSession("")
	script.Push(fakescript.Reply{Text: "ok"})
	res, err := a.SendMessage(s.ID, "hello")
	if err != nil {
		t.Fatal(err)
	}
	fin := log.wait(t, EventRunFinished, finishedFor(res.RunID)).(FinishedDTO)
	if fin.Error != nil {
		t.Fatalf("run failed: %+v", fin.Error)
	}
	view, _ := a.OpenSession(s.ID)
	if view.Session.Provider != chat.ProviderGemini || view.Session.Model != "gemini-2.5-pro" {
		t.Errorf("session = %s/%s; want the only available provider and its first model", view.Session.Provider, view.Session.Model)
	}
}

// Deleting a chat while its reply streams stops the reply; nothing is
// written back into the deleted chat.
func TestDeleteSessionStopsItsReply(t *testing.T) {
	t.Parallel()
	a, log, script := startChatApp(t)
	s, _ := a.CreateSession("")
	_, _ = a.SetSessionModel(s.ID, chat.ProviderGemini, "gemini-2.5-pro")
	script.Push(fakescript.Reply{Text: strings.Repeat("slow ", 200), ChunkRunes: 5, DelayMS: 20})
	res, err := a.SendMessage(s.ID, "Write a lot")
	if err != nil {
		t.Fatal(err)
	}
	log.wait(t, EventChatDelta, nil)
	if err := a.DeleteSession(s.ID); err != nil {
		t.Fatal(err)
	}
	fin := log.wait(t, EventRunFinished, finishedFor(res.RunID)).(FinishedDTO)
	if !fin.Canceled {
		t.Errorf("run:finished = %+v; want canceled", fin)
	}
	if _, err := a.OpenSession(s.ID); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("the deleted chat came back: %v", err)
	}
}
