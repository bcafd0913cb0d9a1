package app

import (
	"strings"
	"sync"
	"time"
)

// DeltaInterval is how often coalesced text reaches the UI: at most about 30
// text events per second per run, however fast the model streams.
const DeltaInterval = 33 * time.Millisecond

// The kinds of streamed text.
const (
	DeltaText      = "text"
	DeltaReasoning = "reasoning"
)

// DeltaDTO is a batch of streamed text for one run.
type DeltaDTO struct {
	RunID string `json:"runId"`
	// Kind is "text" or "reasoning".
	Kind string `json:"kind" ts:"DeltaKind"`
	Text string `json:"text"`
}

// bridge coalesces high-rate text deltas and passes every other event
// through at once. Order is kept per run: before a run's other event goes
// out, its pending text is flushed. Terminal and tool events are therefore
// never dropped or reordered; only deltas are merged.
//
// Concurrency: safe for concurrent use; mu guards pending and the timer.
// emit is called with mu released, from the caller's goroutine or the
// timer's.
type bridge struct {
	emit     func(name Event, data any)
	interval time.Duration

	mu      sync.Mutex
	pending []*DeltaDTO // in arrival order, at most one per (run, kind) run of deltas
	timer   *time.Timer
	closed  bool
}

func newBridge(emit func(Event, any), interval time.Duration) *bridge {
	return &bridge{emit: emit, interval: interval}
}

// Delta queues text for a run and arms the flush timer.
func (b *bridge) Delta(runID, kind, text string) {
	if text == "" {
		return
	}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return
	}
	if n := len(b.pending); n > 0 && b.pending[n-1].RunID == runID && b.pending[n-1].Kind == kind {
		b.pending[n-1].Text += text
	} else {
		b.pending = append(b.pending, &DeltaDTO{RunID: runID, Kind: kind, Text: text})
	}
	if b.timer == nil {
		b.timer = time.AfterFunc(b.interval, b.Flush)
	}
	b.mu.Unlock()
}

// Event sends a non-delta event for a run, after that run's pending text.
func (b *bridge) Event(runID string, name Event, data any) {
	b.flush(func(d *DeltaDTO) bool { return d.RunID == runID })
	b.emit(name, data)
}

// Flush sends all pending text now.
func (b *bridge) Flush() { b.flush(func(*DeltaDTO) bool { return true }) }

func (b *bridge) flush(match func(*DeltaDTO) bool) {
	b.mu.Lock()
	var out []*DeltaDTO
	keep := b.pending[:0]
	for _, d := range b.pending {
		if match(d) {
			out = append(out, d)
		} else {
			keep = append(keep, d)
		}
	}
	b.pending = keep
	if len(b.pending) == 0 && b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	} else if b.timer != nil && len(out) > 0 {
		b.timer.Reset(b.interval)
	}
	b.mu.Unlock()
	for _, d := range out {
		b.emit(EventChatDelta, *d)
	}
}

// Close flushes and stops accepting deltas.
func (b *bridge) Close() {
	b.Flush()
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
}

// joinText is used by tests and the UI contract: deltas concatenate in order.
func joinText(ds []DeltaDTO) string {
	var sb strings.Builder
	for _, d := range ds {
		sb.WriteString(d.Text)
	}
	return sb.String()
}
