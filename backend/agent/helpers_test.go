package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/providers/anthropic"
	"maestro/backend/providers/anthropic/anthropicfake"
	"maestro/backend/providers/fakescript"
	"maestro/backend/providers/gemini"
	"maestro/backend/providers/gemini/geminifake"
	"maestro/backend/providers/openai"
	"maestro/backend/providers/openai/openaifake"
	"maestro/backend/store"
)

// The real store satisfies the agent's Store.
var _ agent.Store = (*store.Store)(nil)

var allProviders = []string{chat.ProviderGemini, chat.ProviderAnthropic, chat.ProviderOpenAI}

var modelNames = map[string]string{
	chat.ProviderGemini:    "gemini-2.5-pro",
	chat.ProviderAnthropic: "claude-sonnet-4-5",
	chat.ProviderOpenAI:    "gpt-5",
}

// resultShape is how each provider's request carries a tool result.
var resultShape = map[string]string{
	chat.ProviderGemini:    `"functionResponse"`,
	chat.ProviderAnthropic: `"tool_result"`,
	chat.ProviderOpenAI:    `"function_call_output"`,
}

// providerFake is one provider's in-process fake and the real adapter
// pointed at it.
type providerFake struct {
	script *fakescript.Script
	model  chat.Model
}

func startFakes(t *testing.T) map[string]*providerFake {
	t.Helper()
	fakes := map[string]*providerFake{}
	g := geminifake.New()
	gs := httptest.NewServer(g)
	t.Cleanup(gs.Close)
	fakes[chat.ProviderGemini] = &providerFake{script: g.Script,
		model: gemini.New(gemini.WithBaseURL(gs.URL), gemini.WithAPIKey("test-key"))}
	a := anthropicfake.New()
	as := httptest.NewServer(a)
	t.Cleanup(as.Close)
	fakes[chat.ProviderAnthropic] = &providerFake{script: a.Script,
		model: anthropic.New(anthropic.WithBaseURL(as.URL), anthropic.WithAPIKey("test-key"))}
	o := openaifake.New()
	os := httptest.NewServer(o)
	t.Cleanup(os.Close)
	fakes[chat.ProviderOpenAI] = &providerFake{script: o.Script,
		model: openai.New(openai.WithBaseURL(os.URL), openai.WithAPIKey("test-key"))}
	return fakes
}

// harness is one session in a real store, driven by a real agent against
// the real adapters and their fakes.
type harness struct {
	t        *testing.T
	store    *store.Store
	sessID   string
	fakes    map[string]*providerFake
	tools    *fakeTools
	approver *fakeApprover
	clock    *fakeClock
	agent    *agent.Agent

	// info is what Models.Info says about each provider's model (the
	// zero ModelInfo unless a test sets it).
	infoMu sync.Mutex
	info   map[string]chat.ModelInfo
}

// harnessModels hands out the fakes' adapters and the harness's info.
type harnessModels struct{ h *harness }

func (m harnessModels) Model(_ context.Context, p string) (chat.Model, error) {
	f, ok := m.h.fakes[p]
	if !ok {
		return nil, errors.New("no such provider " + p)
	}
	return f.model, nil
}

func (m harnessModels) Info(_ context.Context, p, model string) chat.ModelInfo {
	m.h.infoMu.Lock()
	defer m.h.infoMu.Unlock()
	info := m.h.info[p]
	if info.Known() {
		info.ID = model
	}
	return info
}

// setWindow gives provider's model a context window of n tokens and an
// output limit of out, both in Models.Info and in its fake.
func (h *harness) setWindow(p string, n, out int) {
	h.infoMu.Lock()
	h.info[p] = chat.ModelInfo{ID: modelNames[p], ContextWindow: n, MaxOutputTokens: out}
	h.infoMu.Unlock()
	h.script(p).SetWindow(n)
}

func newHarness(t *testing.T, provider string, opts ...agent.Option) *harness {
	t.Helper()
	st, err := store.Open(t.Context(), t.TempDir(), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	// Tools run without asking unless a test sets another policy.
	sess, err := st.CreateSession(t.Context(), chat.Session{Title: "test", Provider: provider, Model: modelNames[provider],
		Approval: chat.ApprovalAllowAll})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, store: st, sessID: sess.ID, fakes: startFakes(t), tools: newFakeTools(),
		approver: &fakeApprover{decide: map[string]agent.Decision{}}, clock: newFakeClock(0),
		info: map[string]chat.ModelInfo{}}
	all := append([]agent.Option{agent.WithClock(h.clock)}, opts...)
	h.agent = agent.New(st, harnessModels{h}, h.tools, h.approver, all...)
	return h
}

func (h *harness) script(p string) *fakescript.Script { return h.fakes[p].script }

// run runs a turn and checks the event contract every test relies on.
func (h *harness) run(ctx context.Context, in agent.RunInput, sink *recSink) (agent.RunResult, error) {
	h.t.Helper()
	if in.RunID == "" {
		in.RunID = chat.NewID()
	}
	in.SessionID = h.sessID
	if sink == nil {
		sink = &recSink{}
	}
	res, err := h.agent.Run(ctx, in, sink)
	checkTerminal(h.t, sink, in.RunID, err)
	return res, err
}

// checkTerminal asserts RunStarted first, exactly one RunFinished last,
// whose Err is what Run returned, and the run id on every event.
func checkTerminal(t *testing.T, sink *recSink, runID string, err error) {
	t.Helper()
	evs := sink.all()
	if len(evs) < 2 {
		t.Fatalf("got %d events, want at least RunStarted and RunFinished", len(evs))
	}
	if _, ok := evs[0].(agent.RunStarted); !ok {
		t.Errorf("first event is %T, want RunStarted", evs[0])
	}
	n := 0
	for i, ev := range evs {
		if got := agent.RunIDOf(ev); got != runID {
			t.Errorf("event %d (%T) has run id %q, want %q", i, ev, got, runID)
		}
		if fin, ok := ev.(agent.RunFinished); ok {
			n++
			if i != len(evs)-1 {
				t.Errorf("RunFinished is event %d of %d, want last", i+1, len(evs))
			}
			if fin.Err != err {
				t.Errorf("RunFinished.Err = %v, want Run's error %v", fin.Err, err)
			}
		}
	}
	if n != 1 {
		t.Errorf("got %d RunFinished events, want exactly 1", n)
	}
}

func (h *harness) setSession(fn func(*chat.Session)) {
	h.t.Helper()
	if _, err := h.store.UpdateSession(h.t.Context(), h.sessID, func(s *chat.Session) error { fn(s); return nil }); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) session() chat.Session {
	h.t.Helper()
	s, err := h.store.Session(h.t.Context(), h.sessID)
	if err != nil {
		h.t.Fatal(err)
	}
	return s
}

func (h *harness) messages() []chat.Message {
	h.t.Helper()
	ms, err := h.store.Messages(h.t.Context(), h.sessID)
	if err != nil {
		h.t.Fatal(err)
	}
	return ms
}

// requests returns the provider's recorded requests, failing the test if
// the fake rejected any.
func (h *harness) requests(p string) []fakescript.Recorded {
	h.t.Helper()
	recs := h.script(p).Requests()
	for i, r := range recs {
		if r.Rejection != "" {
			h.t.Errorf("%s request %d rejected (%d %s): %s", p, i+1, r.Status, r.Rejection, r.Body)
		}
	}
	return recs
}

func user(text string) agent.RunInput { return agent.RunInput{Text: text} }

func call(name, args string) fakescript.ToolCall {
	return fakescript.ToolCall{Name: name, Args: json.RawMessage(args)}
}

// recSink records events.
type recSink struct {
	mu     sync.Mutex
	events []agent.Event
	on     func(agent.Event)
}

func (s *recSink) Emit(ev agent.Event) {
	s.mu.Lock()
	s.events = append(s.events, ev)
	on := s.on
	s.mu.Unlock()
	if on != nil {
		on(ev)
	}
}

func (s *recSink) all() []agent.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.events)
}

func (s *recSink) finished() agent.RunFinished {
	evs := s.all()
	fin, _ := evs[len(evs)-1].(agent.RunFinished)
	return fin
}

func eventsOf[T agent.Event](s *recSink) []T {
	var out []T
	for _, ev := range s.all() {
		if e, ok := ev.(T); ok {
			out = append(out, e)
		}
	}
	return out
}

// fakeClock stands still unless advanced; tick advances it on every Now.
// Sleep returns at once and records the wait.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	tick   time.Duration
	sleeps []time.Duration
}

func newFakeClock(tick time.Duration) *fakeClock {
	return &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), tick: tick}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(c.tick)
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	c.mu.Unlock()
	return ctx.Err()
}

func (c *fakeClock) slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.sleeps)
}

// fakeApprover answers from a table by canonical name; unknown tools fail
// the request so tests notice an unexpected question.
type fakeApprover struct {
	mu     sync.Mutex
	decide map[string]agent.Decision
	asked  []agent.ApprovalRequest
	block  bool // wait for ctx instead of answering
}

func (a *fakeApprover) Approve(ctx context.Context, req agent.ApprovalRequest) (agent.Decision, error) {
	a.mu.Lock()
	a.asked = append(a.asked, req)
	d, ok := a.decide[req.Call.Name]
	block := a.block
	a.mu.Unlock()
	if block {
		<-ctx.Done()
		return agent.Deny, ctx.Err()
	}
	if !ok {
		return agent.Deny, errors.New("unexpected approval request for " + req.Call.Name)
	}
	return d, nil
}

func (a *fakeApprover) requests() []agent.ApprovalRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.asked)
}

func (a *fakeApprover) questions() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var names []string
	for _, r := range a.asked {
		names = append(names, r.Call.Name)
	}
	return names
}

func countText(msgs []chat.Message, role chat.Role, text string) int {
	n := 0
	for _, m := range msgs {
		if m.Role == role && strings.Contains(m.Text(), text) {
			n++
		}
	}
	return n
}
