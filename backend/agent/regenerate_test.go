package agent_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
)

// TestRegenerateForksTheAnswer: regenerating an answer (a good one, a
// stopped one, one of an earlier turn, one that took tool steps) answers
// its user message again as a new branch: the request carries only what
// came before the answer, the new answer is a sibling of the old answer's
// first message, and the old answer stays as another branch.
func TestRegenerateForksTheAnswer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		// pick is the index in the active branch of the answer message
		// named, first the index of the message the new one is a sibling
		// of, and keep how many messages stay before the new answer.
		pick, first, keep int
		setup             func(h *harness, p string)
	}{
		{name: "last answer", pick: 3, first: 3, keep: 3, setup: twoTurns},
		{name: "earlier answer", pick: 1, first: 1, keep: 1, setup: twoTurns},
		{name: "answer with a tool step", pick: 3, first: 1, keep: 1, setup: toolTurn},
		{name: "stopped answer", pick: 1, first: 1, keep: 1, setup: stoppedTurn},
	}
	for _, p := range allProviders {
		for _, tc := range cases {
			t.Run(p+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, p, agent.WithClock(newFakeClock(600*time.Millisecond)))
				tc.setup(h, p)
				old := h.messages()
				target, first := old[tc.pick], old[tc.first]

				h.script(p).Push(fakescript.Reply{Text: "A fresh answer."})
				sink := &recSink{}
				if _, err := h.run(t.Context(), agent.RunInput{Regenerate: target.Seq}, sink); err != nil {
					t.Fatalf("regenerate: %v", err)
				}
				reqs := h.requests(p)
				body := string(reqs[len(reqs)-1].Body)
				for _, m := range old[:tc.keep] {
					if txt := m.Text(); txt != "" && !strings.Contains(body, txt) {
						t.Errorf("the regenerated request lacks %q: %s", txt, body)
					}
				}
				for _, m := range old[tc.keep:] {
					if txt := m.Text(); txt != "" && strings.Contains(body, txt) {
						t.Errorf("the regenerated request still carries %q from the old answer", txt)
					}
				}

				msgs := h.messages()
				want := append(texts(old[:tc.keep]), "A fresh answer.")
				if got := texts(msgs); !reflect.DeepEqual(got, want) {
					t.Fatalf("active branch after regenerating = %q, want %q", got, want)
				}
				fresh := msgs[len(msgs)-1]
				if fresh.Parent != first.Parent || fresh.Role != chat.RoleAssistant || fresh.Status != chat.StatusComplete {
					t.Errorf("new answer: parent %d role %s status %s; want parent %d, a complete answer", fresh.Parent, fresh.Role, fresh.Status, first.Parent)
				}
				sibs, err := h.store.Siblings(t.Context(), h.sessID, fresh.Seq)
				if err != nil || !reflect.DeepEqual(sibs, []uint64{first.Seq, fresh.Seq}) {
					t.Errorf("Siblings = %v, %v; want [%d %d]", sibs, err, first.Seq, fresh.Seq)
				}
				if saved := eventsOf[agent.MessageSaved](sink); len(saved) == 0 || saved[0].Seq != fresh.Seq {
					t.Errorf("MessageSaved = %+v; want the new answer %d first", saved, fresh.Seq)
				}
				// The next turn continues the new branch.
				h.script(p).Push(fakescript.Reply{Text: "And more."})
				if _, err := h.run(t.Context(), user("Go on."), nil); err != nil {
					t.Fatalf("turn after regenerating: %v", err)
				}
				if got, want := texts(h.messages()), append(want, "Go on.", "And more."); !reflect.DeepEqual(got, want) {
					t.Errorf("branch after the next turn = %q, want %q", got, want)
				}
				if _, err := h.store.SwitchBranch(t.Context(), h.sessID, first.Seq); err != nil {
					t.Fatal(err)
				}
				if got := texts(h.messages()); !reflect.DeepEqual(got, texts(old)) {
					t.Errorf("old branch = %q, want it unchanged: %q", got, texts(old))
				}
			})
		}
	}
}

func twoTurns(h *harness, p string) {
	h.t.Helper()
	h.script(p).Push(fakescript.Reply{Text: "Lisbon is lovely in May."}, fakescript.Reply{Text: "Pack light."})
	for _, q := range []string{"When should I visit Lisbon?", "What should I pack?"} {
		if _, err := h.run(h.t.Context(), user(q), nil); err != nil {
			h.t.Fatalf("turn %q: %v", q, err)
		}
	}
}

func toolTurn(h *harness, p string) {
	h.t.Helper()
	h.script(p).Push(
		fakescript.Reply{Text: "Let me check.", ToolCalls: []fakescript.ToolCall{call("srv__echo", `{"x":1}`)}},
		fakescript.Reply{Text: "Checked: all good."},
	)
	if _, err := h.run(h.t.Context(), user("Check the thing."), nil); err != nil {
		h.t.Fatalf("turn: %v", err)
	}
}

func stoppedTurn(h *harness, p string) {
	h.t.Helper()
	h.script(p).Push(slowReply())
	ctx, stop := context.WithCancel(h.t.Context())
	defer stop()
	sink := &recSink{}
	var deltas atomic.Int32
	sink.on = func(ev agent.Event) {
		if _, ok := ev.(agent.TextDelta); ok && deltas.Add(1) == 3 {
			stop()
		}
	}
	if _, err := h.run(ctx, user("talk slowly"), sink); !errors.Is(err, context.Canceled) {
		h.t.Fatalf("stopped turn: %v", err)
	}
	if msgs := h.messages(); len(msgs) != 2 || msgs[1].Status != chat.StatusCanceled {
		h.t.Fatalf("stopped turn stored %s, want the user message and a stopped answer", roles(msgs))
	}
}

// TestRegenerateRefuses: only an answer on the active branch can be
// regenerated, with no new message; a refusal changes nothing.
func TestRegenerateRefuses(t *testing.T) {
	t.Parallel()
	p := allProviders[0]
	h := newHarness(t, p)
	twoTurns(h, p)
	old := h.messages()
	cases := []struct {
		name string
		in   agent.RunInput
		kind string
	}{
		{name: "a user message", in: agent.RunInput{Regenerate: old[2].Seq}, kind: chat.KindInvalid},
		{name: "with a new message", in: agent.RunInput{Regenerate: old[3].Seq, Text: "hi"}, kind: chat.KindInvalid},
		{name: "with retry", in: agent.RunInput{Regenerate: old[3].Seq, Retry: true}, kind: chat.KindInvalid},
		{name: "unknown message", in: agent.RunInput{Regenerate: old[3].Seq + 100}, kind: chat.KindNotFound},
	}
	for _, tc := range cases {
		_, err := h.run(t.Context(), tc.in, nil)
		if got := chat.Kind(err); got != tc.kind {
			t.Errorf("%s: error %v (kind %s), want kind %s", tc.name, err, got, tc.kind)
		}
	}
	if got := texts(h.messages()); !reflect.DeepEqual(got, texts(old)) {
		t.Errorf("branch after refusals = %q, want %q", got, texts(old))
	}
}

// TestRegenerateStoppedEarlyChangesNothing: a regeneration stopped before
// anything arrived leaves the old answer in place, and the next turn
// continues from it.
func TestRegenerateStoppedEarlyChangesNothing(t *testing.T) {
	t.Parallel()
	p := allProviders[0]
	h := newHarness(t, p)
	twoTurns(h, p)
	old := h.messages()
	ctx, stop := context.WithCancel(t.Context())
	sink := &recSink{}
	sink.on = func(ev agent.Event) {
		if _, ok := ev.(agent.StepStarted); ok {
			stop()
		}
	}
	h.script(p).Push(slowReply())
	if _, err := h.run(ctx, agent.RunInput{Regenerate: old[3].Seq}, sink); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped regeneration: %v, want canceled", err)
	}
	if got := texts(h.messages()); !reflect.DeepEqual(got, texts(old)) {
		t.Fatalf("branch after a stopped regeneration = %q, want %q", got, texts(old))
	}
	h.script(p).Push(fakescript.Reply{Text: "Sunscreen too."})
	if _, err := h.run(t.Context(), user("Anything else?"), nil); err != nil {
		t.Fatalf("next turn: %v", err)
	}
	reqs := h.requests(p)
	if body := string(reqs[len(reqs)-1].Body); !strings.Contains(body, "Pack light.") {
		t.Errorf("the next turn lost the old answer: %s", body)
	}
}
