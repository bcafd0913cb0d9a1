package mcp

import (
	"fmt"
	"sync"
	"time"
)

// A server decides how much it sends: a flood of log messages, progress
// notifications or list_changed must not become a flood of UI events.
// These limits bound what reaches Events (and through the app the UI) per
// connector; the connector's log ring still keeps the latest lines.
const (
	// logBurst log lines reach Events at once, then logRate a second.
	logBurst = 50
	logRate  = 20
	// progressEvery is the least time between two progress reports of a
	// call (the last one before the result may be dropped; the result
	// follows).
	progressEvery = 100 * time.Millisecond
	// relistEvery is the least time between two tools/list a server's
	// list_changed notifications cause.
	relistEvery = 500 * time.Millisecond
)

// tokenBucket allows burst events at once and rate per second after.
// It is safe for concurrent use; mu guards the rest.
type tokenBucket struct {
	burst, rate float64
	now         func() time.Time

	mu      sync.Mutex
	tokens  float64
	last    time.Time
	dropped int
}

func newTokenBucket(burst, rate int) *tokenBucket {
	return &tokenBucket{burst: float64(burst), rate: float64(rate), now: time.Now, tokens: float64(burst)}
}

// take reports whether one more event may go now, and how many were
// refused since the last one that went.
func (b *tokenBucket) take() (ok bool, dropped int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	if !b.last.IsZero() {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	}
	b.last = now
	if b.tokens < 1 {
		b.dropped++
		return false, 0
	}
	b.tokens--
	dropped, b.dropped = b.dropped, 0
	return true, dropped
}

// heldBackNote says how many log lines a connector's flood kept from the
// window.
func heldBackNote(n int) string {
	return fmt.Sprintf("%d log lines were not shown: the server sent more than %d a second (the newest are kept in the log)", n, logRate)
}
