package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
	"maestro/backend/providers/gemini"
	"maestro/backend/providers/gemini/geminifake"
	"maestro/backend/store"
)

// stamps collects the moments the benchmark measures between.
type stamps struct {
	mu       sync.Mutex
	saved    time.Time // last user/tool message stored
	stream   time.Time // Model.Stream called
	lastEv   time.Time // the model handed over its last event
	build    time.Duration
	dispatch time.Duration
	steps    int
	calls    int
}

func (s *stamps) Emit(ev agent.Event) {
	if m, ok := ev.(agent.MessageSaved); ok && m.Role != chat.RoleAssistant {
		s.mu.Lock()
		s.saved = time.Now()
		s.mu.Unlock()
	}
}

// timedModel notes when the agent calls Stream and when the wrapped model
// yields its last event.
type timedModel struct {
	m chat.Model
	s *stamps
}

func (t timedModel) Stream(ctx context.Context, req chat.Request) (iter.Seq2[chat.Event, error], error) {
	now := time.Now()
	t.s.mu.Lock()
	t.s.build += now.Sub(t.s.saved)
	t.s.steps++
	t.s.mu.Unlock()
	seq, err := t.m.Stream(ctx, req)
	if err != nil {
		return nil, err
	}
	return func(yield func(chat.Event, error) bool) {
		for ev, err := range seq {
			if _, ok := ev.(chat.Finish); ok {
				t.s.mu.Lock()
				t.s.lastEv = time.Now()
				t.s.mu.Unlock()
			}
			if !yield(ev, err) {
				return
			}
		}
	}, nil
}

// timedTools notes when the agent dispatches a call.
type timedTools struct {
	*fakeTools
	s *stamps
}

func (t timedTools) Call(ctx context.Context, req agent.CallRequest, report func(agent.ToolUpdate)) chat.ToolResult {
	t.s.mu.Lock()
	t.s.dispatch += time.Since(t.s.lastEv)
	t.s.calls++
	t.s.mu.Unlock()
	return t.fakeTools.Call(ctx, req, report)
}

// BenchmarkStep measures the agent's own overhead per step, with a real
// store (NoSync, so fsync does not dominate) and 50 tools:
//
//   - build-ns/step: from the last user or tool message stored to
//     Model.Stream called (session and overlay read, history view, request
//     assembly);
//   - dispatch-ns/step: from the model's last event to Tools.Call
//     (assembly, persisting the reply, approval policy, goroutine start).
//
// Each op is one turn of two steps (a tool call, then an answer). "memory"
// streams from an in-memory model; "gemini-http" from the real adapter and
// its fake over loopback HTTP.
func BenchmarkStep(b *testing.B) {
	b.Run("memory", func(b *testing.B) {
		mem := &funcModel{reply: func(n int, _ chat.Request) []chat.Event {
			if n%2 == 0 {
				return []chat.Event{
					chat.TextDelta{Text: "Let me look."},
					chat.ToolCallStart{Index: 0, ID: "call_1", Name: "srv__echo"},
					chat.ToolCallDelta{Index: 0, Fragment: `{"x":1}`},
					chat.ToolCallDone{Index: 0, ID: "call_1", Name: "srv__echo", Arguments: json.RawMessage(`{"x":1}`)},
					chat.Finish{Reason: "tool_calls"},
				}
			}
			return []chat.Event{chat.TextDelta{Text: "Done."}, chat.Finish{Reason: "stop"}}
		}}
		benchStep(b, "mem", "m", mem, func() {})
	})
	b.Run("gemini-http", func(b *testing.B) {
		g := geminifake.New()
		srv := httptest.NewServer(g)
		defer srv.Close()
		m := gemini.New(gemini.WithBaseURL(srv.URL), gemini.WithAPIKey("k"))
		benchStep(b, chat.ProviderGemini, modelNames[chat.ProviderGemini], m, func() {
			g.Script.Reset()
			g.Script.Push(fakescript.Reply{Text: "Let me look.", ToolCalls: []fakescript.ToolCall{call("srv__echo", `{"x":1}`)}}, fakescript.Reply{Text: "Done."})
		})
	})
}

func benchStep(b *testing.B, provider, modelName string, m chat.Model, prepare func()) {
	ctx := context.Background()
	st, err := store.Open(ctx, b.TempDir(), store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	s := &stamps{}
	tools := timedTools{fakeTools: newFakeTools(), s: s}
	for i := range 50 {
		tools.set(fmt.Sprintf("srv.tool%02d", i), fakeTool{readOnly: true})
	}
	models := agent.ModelsFunc(func(context.Context, string) (chat.Model, error) { return timedModel{m: m, s: s}, nil })
	a := agent.New(st, models, tools, nil)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		sess, err := st.CreateSession(ctx, chat.Session{Title: "bench", Provider: provider, Model: modelName, Approval: chat.ApprovalAllowAll})
		if err != nil {
			b.Fatal(err)
		}
		prepare()
		b.StartTimer()
		if _, err := a.Run(ctx, agent.RunInput{RunID: "bench", SessionID: sess.ID, Text: "go"}, s); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if s.steps != 2*b.N || s.calls != b.N {
		b.Fatalf("%d steps and %d calls for %d runs", s.steps, s.calls, b.N)
	}
	b.ReportMetric(float64(s.build.Nanoseconds())/float64(s.steps), "build-ns/step")
	b.ReportMetric(float64(s.dispatch.Nanoseconds())/float64(s.calls), "dispatch-ns/step")
}
