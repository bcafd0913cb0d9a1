package app

import (
	"strings"
	"sync"
	"testing"
	"time"
)

type emitLog struct {
	mu  sync.Mutex
	all []emitted
}

func (l *emitLog) emit(name Event, data any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all = append(l.all, emitted{string(name), data})
}

func (l *emitLog) snapshot() []emitted {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]emitted(nil), l.all...)
}

func TestBridgeCoalescesAndKeepsOrder(t *testing.T) {
	t.Parallel()
	log := &emitLog{}
	b := newBridge(log.emit, time.Hour) // only explicit flushes
	for _, s := range []string{"Hel", "lo", ", ", "world"} {
		b.Delta("r1", "text", s)
	}
	b.Delta("r2", "text", "other run")
	b.Event("r1", "tool:started", "call-1") // flushes r1's text first, not r2's
	b.Delta("r1", "text", "!")
	b.Event("r1", "run:finished", "done")
	b.Close()

	got := log.snapshot()
	want := []string{string(EventChatDelta) + ":r1:Hello, world", "tool:started", string(EventChatDelta) + ":r1:!", "run:finished", string(EventChatDelta) + ":r2:other run"}
	if len(got) != len(want) {
		t.Fatalf("got %d events %v, want %d", len(got), got, len(want))
	}
	for i, e := range got {
		name := e.name
		if d, ok := e.data.(DeltaDTO); ok {
			name += ":" + d.RunID + ":" + d.Text
		}
		if name != want[i] {
			t.Errorf("event %d = %q, want %q", i, name, want[i])
		}
	}
}

// BenchmarkBridgeStream streams 5,000 deltas per second through the bridge
// for one second per iteration and reports the UI text events per second
// (target ≤ 60) and checks no text is lost.
//
//	go test -run=^$ -bench=BridgeStream -benchtime=3x ./app/
func BenchmarkBridgeStream(b *testing.B) {
	var events, seconds float64
	for range b.N {
		log := &emitLog{}
		br := newBridge(log.emit, DeltaInterval)
		var sent strings.Builder
		start := time.Now()
		tick := time.NewTicker(200 * time.Microsecond) // 5,000 tokens/s
		for time.Since(start) < time.Second {
			<-tick.C
			br.Delta("r", "text", "tok ")
			sent.WriteString("tok ")
		}
		tick.Stop()
		br.Event("r", "run:finished", nil)
		br.Close()
		seconds += time.Since(start).Seconds()
		var deltas []DeltaDTO
		for _, e := range log.snapshot() {
			if d, ok := e.data.(DeltaDTO); ok {
				deltas = append(deltas, d)
			}
		}
		if got := joinText(deltas); got != sent.String() {
			b.Fatalf("text lost or reordered: got %d bytes, sent %d", len(got), sent.Len())
		}
		events += float64(len(deltas))
	}
	b.ReportMetric(events/seconds, "ui-events/s")
}
