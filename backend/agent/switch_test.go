package agent_test

import (
	"strings"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
)

// TestProviderSwitch runs a turn with thinking and a tool call on A, switches
// the session to B and runs another: B's fake, which enforces B's rules,
// must accept the whole history rendered for B.
func TestProviderSwitch(t *testing.T) {
	t.Parallel()
	for _, from := range allProviders {
		for _, to := range allProviders {
			if from == to {
				continue
			}
			t.Run(from+"→"+to, func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, from)
				h.script(from).Push(
					fakescript.Reply{Thinking: "I should look it up.", Text: "Looking.", ToolCalls: []fakescript.ToolCall{call("srv__echo", `{"x":1}`)}},
					fakescript.Reply{Text: "First answer from " + from},
				)
				if _, err := h.run(t.Context(), user("first question"), nil); err != nil {
					t.Fatalf("turn on %s: %v", from, err)
				}
				h.setSession(func(s *chat.Session) { s.Provider, s.Model = to, modelNames[to] })
				h.script(to).Push(
					fakescript.Reply{Text: "Checking again.", ToolCalls: []fakescript.ToolCall{call("srv__read", `{"x":2}`)}},
					fakescript.Reply{Text: "Second answer from " + to},
				)
				if _, err := h.run(t.Context(), user("second question"), nil); err != nil {
					t.Fatalf("turn on %s after %s: %v", to, from, err)
				}
				reqs := h.requests(to)
				if len(reqs) != 2 {
					t.Fatalf("%d requests to %s, want 2", len(reqs), to)
				}
				first := string(reqs[0].Body)
				for _, want := range []string{"first question", "First answer from " + from, "srv__echo", resultShape[to]} {
					if !strings.Contains(first, want) {
						t.Errorf("first request to %s lacks %s: %s", to, want, first)
					}
				}
				if n := strings.Count(string(reqs[1].Body), resultShape[to]); n < 2 {
					t.Errorf("second request to %s has %d results, want both turns' results", to, n)
				}
				msgs := h.messages()
				if got := roles(msgs); got != "user,assistant,tool,assistant,user,assistant,tool,assistant" {
					t.Fatalf("stored %s", got)
				}
				if r, ok := msgs[1].Parts[0].(chat.ReasoningPart); !ok {
					t.Errorf("first reply starts with %T, want the reasoning", msgs[1].Parts[0])
				} else if _, signed := r.ProviderData[from]; !signed && from != chat.ProviderGemini {
					t.Errorf("reasoning from %s lost its state: %+v", from, r)
				}
				old, fresh := msgs[1].ToolCalls()[0], msgs[5].ToolCalls()[0]
				if _, ok := old.ProviderIDs[to]; ok {
					t.Errorf("the call made on %s gained a %s id: %v", from, to, old.ProviderIDs)
				}
				if msgs[5].Provider != to || fresh.Name != "srv.read" {
					t.Errorf("second turn's reply: provider %s, call %+v", msgs[5].Provider, fresh)
				}
			})
		}
	}
}
