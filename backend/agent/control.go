package agent

import (
	"context"
	"errors"
	"sync"
)

// ErrApplyNow is the cause of an attempt cancelled by Control.ApplyNow.
var ErrApplyNow = errors.New("tools changed: restarting the reply with the new tools")

// Control lets the app steer a run from another goroutine while Run is
// streaming. The zero value is ready to use; one Control serves one run.
// Its methods are safe for concurrent use.
type Control struct {
	mu sync.Mutex
	// applies counts ApplyNow calls; an attempt that starts with one count
	// and attaches with another restarts, so an ApplyNow that lands while
	// the overlay is being read is not lost.
	applies uint64
	active  bool
	cancel  context.CancelCauseFunc
}

// ApplyNow cancels the reply being streamed and restarts the same step from
// the same history with the session's current tools. It reports whether a
// request was in flight; if none was (tools are running, or the run is
// over), the next request reads the new tools anyway.
func (c *Control) ApplyNow() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.applies++
	if c.cancel != nil {
		c.cancel(ErrApplyNow)
		c.cancel = nil
	}
	return c.active
}

// begin marks the start of an attempt, before the overlay is read.
func (c *Control) begin() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.active = true
	return c.applies
}

// attach registers the attempt's cancel func once its request is built. If
// ApplyNow was called since begin, the attempt is cancelled at once.
func (c *Control) attach(gen uint64, cancel context.CancelCauseFunc) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.applies != gen {
		cancel(ErrApplyNow)
		return
	}
	c.cancel = cancel
}

// end marks the attempt's stream as over: later ApplyNow calls wait for the
// next request.
func (c *Control) end() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.active, c.cancel = false, nil
}
