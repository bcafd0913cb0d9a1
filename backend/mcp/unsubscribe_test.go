package mcp

import (
	"slices"
	"sync/atomic"
	"testing"
)

// UnsubscribeSession drops what one session follows (on the connectors
// given, or all), unsubscribing on the server only what no other session
// still follows.
func TestUnsubscribeSession(t *testing.T) {
	t.Parallel()
	var subs, unsubs atomic.Int32
	srv := promptServer(&subs, &unsubs)
	h := newHarness(t, WithInProcessServer("prompts", srv))
	// 2025-11-25, where resources/unsubscribe is a request the server counts.
	c := h.add(Connector{Name: "Prompts", Transport: TransportInProcess, Command: "prompts", ProtocolVersion: ProtocolLegacy})
	ctx := t.Context()
	a, b := h.session(c.ID), h.session(c.ID)
	for _, s := range []string{a, b} {
		if err := h.sup.Subscribe(ctx, s, c.ID, "test://doc"); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.sup.UnsubscribeSession(ctx, a, "another-connector"); err != nil {
		t.Fatal(err)
	}
	if got := c.subsFollowers(h); !slices.Equal(got, sortedPair(a, b)) {
		t.Errorf("followers after dropping another connector = %v; want both sessions", got)
	}
	if err := h.sup.UnsubscribeSession(ctx, a, c.ID); err != nil {
		t.Fatal(err)
	}
	if got := c.subsFollowers(h); !slices.Equal(got, []string{b}) {
		t.Errorf("followers after dropping session a = %v; want [%s]", got, b)
	}
	if got := unsubs.Load(); got != 0 {
		t.Errorf("resources/unsubscribe sent %d times while b follows; want 0", got)
	}
	if err := h.sup.UnsubscribeSession(ctx, b); err != nil {
		t.Fatal(err)
	}
	if got := c.subsFollowers(h); len(got) != 0 {
		t.Errorf("followers after dropping session b = %v; want none", got)
	}
	if got := unsubs.Load(); got != 1 {
		t.Errorf("resources/unsubscribe sent %d times after the last session; want 1", got)
	}
}

// subsFollowers returns the sessions following test://doc on c.
func (c Connector) subsFollowers(h *harness) []string {
	r, err := h.sup.runner(c.ID)
	if err != nil {
		return nil
	}
	return r.subs.followers("test://doc")
}
