package mcp

import (
	"errors"
	"slices"
	"sync/atomic"
	"testing"

	"maestro/backend/chat"
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

// ConnectorOffering needs no session; a connector that is not ready says
// so, and one that offers nothing has empty lists.
func TestConnectorOfferingStates(t *testing.T) {
	t.Parallel()
	h := newHarness(t, WithInProcessServer("test", newServer("test")))
	c := h.add(Connector{Name: "Test", Transport: TransportInProcess, Command: "test"})
	o, err := h.sup.ConnectorOffering(t.Context(), c.ID)
	if err != nil || len(o.Prompts)+len(o.Resources)+len(o.Templates) != 0 {
		t.Errorf("ConnectorOffering of a tools-only server = %+v, %v; want empty lists", o, err)
	}
	if _, err := h.sup.ConnectorOffering(t.Context(), "nope"); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("ConnectorOffering of an unknown connector = %v; want ErrNotFound", err)
	}
	off := h.add(Connector{Name: "Off", Transport: TransportInProcess, Command: "test", Disabled: true})
	if _, err := h.sup.ConnectorOffering(t.Context(), off.ID); !errors.Is(err, chat.ErrUnavailable) || !errContains(err, "Off") {
		t.Errorf("ConnectorOffering of a disabled connector = %v; want ErrUnavailable naming it", err)
	}
}
