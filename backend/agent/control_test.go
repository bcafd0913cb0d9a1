package agent

import (
	"context"
	"errors"
	"testing"
)

func TestControlApplyNowRaces(t *testing.T) {
	t.Parallel()
	var c Control
	// No attempt: nothing in flight, nothing to cancel.
	if c.ApplyNow() {
		t.Errorf("ApplyNow with no attempt reported a request in flight")
	}
	// ApplyNow between begin (overlay read) and attach: the attempt is
	// cancelled as soon as it attaches, so the new tools are not lost.
	gen := c.begin()
	if !c.ApplyNow() {
		t.Errorf("ApplyNow during an attempt reported nothing in flight")
	}
	ctx, cancel := context.WithCancelCause(t.Context())
	c.attach(gen, cancel)
	if !errors.Is(context.Cause(ctx), ErrApplyNow) {
		t.Errorf("attempt not cancelled with ErrApplyNow: %v", context.Cause(ctx))
	}
	c.end()
	// ApplyNow while streaming cancels that attempt.
	gen = c.begin()
	ctx, cancel = context.WithCancelCause(t.Context())
	c.attach(gen, cancel)
	if ctx.Err() != nil {
		t.Fatalf("a fresh attempt was cancelled")
	}
	c.ApplyNow()
	if !errors.Is(context.Cause(ctx), ErrApplyNow) {
		t.Errorf("streaming attempt not cancelled: %v", context.Cause(ctx))
	}
	c.end()
}
