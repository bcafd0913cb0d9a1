package agent_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/chat/chattest"
	"maestro/backend/providers/fakescript"
	"maestro/backend/providers/gemini"
	"maestro/backend/providers/gemini/geminifake"
	"maestro/backend/store"
)

// firstBytes notes when the first byte of each model request's body
// reaches the fake: the moment the provider could start reading it.
type firstBytes struct {
	h  http.Handler
	mu sync.Mutex
	at []time.Time
}

func (f *firstBytes) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, ":streamGenerateContent") {
		br := bufio.NewReader(r.Body)
		_, _ = br.Peek(1)
		now := time.Now()
		f.mu.Lock()
		f.at = append(f.at, now)
		f.mu.Unlock()
		r.Body = struct {
			io.Reader
			io.Closer
		}{br, r.Body}
	}
	f.h.ServeHTTP(w, r)
}

func (f *firstBytes) take() []time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.at
	f.at = nil
	return out
}

// toolSaved notes when a step's tool results are stored, and whether the
// turn compacted.
type toolSaved struct {
	mu        sync.Mutex
	at        time.Time
	compacted bool
}

func (s *toolSaved) Emit(ev agent.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch ev := ev.(type) {
	case agent.MessageSaved:
		if ev.Role == chat.RoleTool {
			s.at = time.Now()
		}
	case agent.CompactionStarted:
		s.compacted = true
	}
}

// longSession is a session of n messages of chattest.Conversation (what
// maestro-seed writes) on the Gemini adapter (API key) and its fake over
// loopback HTTP, in a real bbolt file (fsync off, so the disk does not dominate),
// opened: one turn has run, so a compaction the history needs is done and
// the agent holds the session, as when the user has it on screen.
type longSession struct {
	st     *store.Store
	sessID string
	fake   *geminifake.Server
	times  *firstBytes
	agent  *agent.Agent
}

func openLongSession(b *testing.B, n int) *longSession {
	b.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, b.TempDir(), store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = st.Close() })
	const model = "gemini-2.5-pro"
	sess, err := st.CreateSession(ctx, chat.Session{Title: "long", Provider: chat.ProviderGemini, Model: model,
		Approval: chat.ApprovalAllowAll})
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range chattest.Conversation(n) {
		if _, err := st.AppendMessage(ctx, sess.ID, m); err != nil {
			b.Fatal(err)
		}
	}
	fake := geminifake.New()
	fake.Script.Route("Write the summary now.", fakescript.Reply{Text: "SUMMARY: the user and the assistant went through the retry loop, the session list, migrations, the build cache, tool names and drafts."})
	times := &firstBytes{h: fake}
	srv := httptest.NewServer(times)
	b.Cleanup(srv.Close)
	adapter := gemini.New(gemini.WithBaseURL(srv.URL), gemini.WithAPIKey("k"))
	tools := newFakeTools()
	tools.set("files.search", fakeTool{readOnly: true})
	a := agent.New(st, lookupModels{m: adapter}, tools, nil)
	ls := &longSession{st: st, sessID: sess.ID, fake: fake, times: times, agent: a}
	ls.turn(b, "open")
	times.take()
	return ls
}

// lookupModels serves one adapter and the adapter's own table for Info.
type lookupModels struct{ m chat.Model }

func (l lookupModels) Model(context.Context, string) (chat.Model, error) { return l.m, nil }
func (l lookupModels) Info(_ context.Context, _, model string) chat.ModelInfo {
	return gemini.Lookup(model)
}

// turn runs one turn of two steps (a tool call, then the answer) and
// returns when the user sent it, when its tool result was stored, and
// whether it compacted.
func (ls *longSession) turn(b *testing.B, text string) (sent time.Time, saved *toolSaved) {
	b.Helper()
	ls.fake.Script.Push(
		fakescript.Reply{Text: "Let me look.", ToolCalls: []fakescript.ToolCall{{Name: "files__search", Args: []byte(`{"path":"a.go"}`)}}},
		fakescript.Reply{Text: "Found it."})
	saved = &toolSaved{}
	sent = time.Now()
	if _, err := ls.agent.Run(context.Background(), agent.RunInput{RunID: "bench", SessionID: ls.sessID, Text: text}, saved); err != nil {
		b.Fatal(err)
	}
	return sent, saved
}

// benchTurns runs b.N turns and reports, per turn, the time from the
// user's send to the first byte of the first request (first-byte-ns) and
// from the tool result stored to the first byte of the second
// (later-step-ns). Turns that compacted are left out of both (the rare
// turn that summarises pays for the summary; compacted-turns counts them).
func benchTurns(b *testing.B, n int) {
	ls := openLongSession(b, n)
	var first, later []time.Duration
	compacted := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		sent, saved := ls.turn(b, fmt.Sprintf("question %d", i))
		at := ls.times.take()
		if saved.compacted {
			compacted++
			continue
		}
		if len(at) != 2 {
			b.Fatalf("turn %d sent %d requests; want 2", i, len(at))
		}
		first = append(first, at[0].Sub(sent))
		later = append(later, at[1].Sub(saved.at))
	}
	b.StopTimer()
	for _, r := range ls.fake.Script.Requests() {
		if r.Rejection != "" {
			b.Fatalf("a request was refused: %s", r.Rejection)
		}
	}
	b.ReportMetric(float64(median(first).Nanoseconds()), "first-byte-ns")
	b.ReportMetric(float64(median(later).Nanoseconds()), "later-step-ns")
	b.ReportMetric(float64(compacted), "compacted-turns")
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkFirstRequest measures, on sessions of 0, 1,000 and 10,000
// messages, the user's send to the first byte of the rendered request at
// the provider (first-byte-ns, the figure), and a later step of
// the same turn (later-step-ns). Run it with a fixed count of turns, so
// that the session grows alike in every run:
//
//	go test ./backend/agent -run XXX -bench FirstRequest -benchtime 100x -count 5
func BenchmarkFirstRequest(b *testing.B) {
	for _, n := range []int{0, 1000, 10000} {
		b.Run(fmt.Sprintf("msgs=%d", n), func(b *testing.B) { benchTurns(b, n) })
	}
}
