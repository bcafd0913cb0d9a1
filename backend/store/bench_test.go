package store

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"maestro/backend/chat"
	"maestro/backend/chat/chattest"
)

// The figures in docs/PERFORMANCE.md ("Opening a long session") come from
// these benchmarks: .ci/bench.sh runs them. The file lives where the user's
// data file would (a temp dir on the same disk); set MAESTRO_BENCH_DIR to
// put it elsewhere.

// benchSession opens a store and fills one session with n messages of
// chattest.Conversation (NoSync while seeding, so setup takes a second, not
// a minute). It returns the store reopened with opts, and the session id.
func benchSession(b *testing.B, n int, opts Options) (*Store, string) {
	b.Helper()
	ctx := context.Background()
	dir := b.TempDir()
	if d := os.Getenv("MAESTRO_BENCH_DIR"); d != "" {
		var err error
		if dir, err = os.MkdirTemp(d, "store-bench-"); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = os.RemoveAll(dir) })
	}
	s, err := Open(ctx, dir, Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	sess, err := s.CreateSession(ctx, chat.Session{Title: "Long session"})
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range chattest.Conversation(n) {
		if _, err := s.AppendMessage(ctx, sess.ID, m); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	if s, err = Open(ctx, dir, opts); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	return s, sess.ID
}

// BenchmarkOpenSession10k reads a 10,000-message session (6.9 MB of JSON:
// questions, Markdown answers, reasoning, tool calls and results): "all"
// decodes every message (what opening did before it read pages, and what
// the agent and export still read); "page" the last 80 of the active
// branch with ActivePathPage, which is what opening a session reads now
// (app.pageSize).
func BenchmarkOpenSession10k(b *testing.B) {
	s, id := benchSession(b, 10_000, Options{})
	ctx := context.Background()
	b.Run("all", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			msgs, err := s.Messages(ctx, id)
			if err != nil || len(msgs) != 10_000 {
				b.Fatalf("Messages = %d, %v", len(msgs), err)
			}
		}
	})
	// Down to the first message (a search hit at the start): one walk,
	// against chaining pages of 80, each of which reads the parents of
	// everything stored after it to find siblings.
	b.Run("to-start", func(b *testing.B) {
		for b.Loop() {
			p, err := s.ActivePathTo(ctx, id, 1, 10)
			if err != nil || len(p.Messages) != 10_000 {
				b.Fatalf("ActivePathTo = %d, %v", len(p.Messages), err)
			}
		}
	})
	b.Run("to-start-by-pages", func(b *testing.B) {
		for b.Loop() {
			n, before := 0, uint64(0)
			for {
				p, err := s.ActivePathPage(ctx, id, before, 80)
				if err != nil {
					b.Fatal(err)
				}
				n += len(p.Messages)
				if !p.More {
					break
				}
				before = p.Messages[0].Seq
			}
			if n != 10_000 {
				b.Fatalf("pages held %d messages", n)
			}
		}
	})
	b.Run("page", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p, err := s.ActivePathPage(ctx, id, 0, 80)
			if err != nil || len(p.Messages) != 80 || !p.More {
				b.Fatalf("ActivePathPage = %d, %v, %v", len(p.Messages), p.More, err)
			}
		}
	})
}

// BenchmarkAppendMessage appends to a session that already holds 10,000
// messages: "fsync" is what the user pays (bbolt syncs every commit),
// "nosync" the transaction alone. Besides ns/op it reports the median and
// 99th percentile of the single appends. The session grows by b.N messages
// while it runs.
func BenchmarkAppendMessage(b *testing.B) {
	for _, v := range []struct {
		name   string
		noSync bool
	}{{"fsync", false}, {"nosync", true}} {
		b.Run(v.name, func(b *testing.B) {
			s, id := benchSession(b, 10_000, Options{NoSync: v.noSync})
			ctx := context.Background()
			more := chattest.Conversation(64)
			took := make([]time.Duration, 0, 1024)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				m := more[i%len(more)]
				t0 := time.Now()
				if _, err := s.AppendMessage(ctx, id, m); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(t0))
			}
			b.StopTimer()
			slices.Sort(took)
			b.ReportMetric(float64(quantile(took, 0.50).Microseconds()), "p50-µs")
			b.ReportMetric(float64(quantile(took, 0.99).Microseconds()), "p99-µs")
		})
	}
}

// quantile returns the q-quantile of sorted durations (nearest rank).
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}
