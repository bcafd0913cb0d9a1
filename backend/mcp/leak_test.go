package mcp

import (
	"context"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// TestSupervisorLeavesNoGoroutines starts connectors, crashes one, lets it
// restart, and closes the supervisor: every goroutine it started (and the
// transports and processes under it) must be gone. It is not parallel:
// goleak sees the whole process.
func TestSupervisorLeavesNoGoroutines(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	ev := &testEvents{}
	h := newHarness(t, WithInProcessServer("test", newTestServer(ev)))
	ctx := t.Context()
	stdio := h.add(selfServer(t, "Stdio", "ok"))
	inproc := h.add(Connector{Name: "Test", Transport: TransportInProcess, Command: "test"})
	dies := selfServer(t, "Dies", "die")
	dies = h.add(dies)
	sess := h.session(stdio.ID, inproc.ID)

	text(t, h.call(ctx, sess, "stdio.echo", `{"text":"a"}`, nil))
	text(t, h.call(ctx, sess, "test.echo", `{"text":"b"}`, nil))
	if res := h.call(ctx, sess, "stdio.crash", `{}`, nil); res.Successful {
		t.Fatal("crash succeeded")
	}
	h.waitState(stdio.ID, StateReady) // restarted
	text(t, h.call(ctx, sess, "stdio.echo", `{"text":"c"}`, nil))
	// A cancelled call leaves its notifications/cancelled to finish.
	cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	h.call(cctx, sess, "test.sleep", `{"ms":2000}`, nil)
	if err := h.sup.Remove(ctx, dies.ID); err != nil {
		t.Fatal(err)
	}
	if err := h.sup.Close(); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{stdio.ID, inproc.ID} {
		if st := h.events.statesOf(id); st[len(st)-1] != StateStopped {
			t.Errorf("%s ended in %s", id, st[len(st)-1])
		}
	}
}
