package agent_test

import (
	"encoding/json"
	"strings"
	"testing"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
)

// TestCallsKeepOutputOrder: parallel calls are stored, shown and answered
// in the order the provider output them, whatever order their arguments
// finish in. The OpenAI and Anthropic fakes interleave the calls' argument
// deltas and complete them last first; Gemini sends each call whole, in
// order.
func TestCallsKeepOutputOrder(t *testing.T) {
	t.Parallel()
	tags := []string{"first-call", "second-call", "third-call"}
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, p)
			var calls []fakescript.ToolCall
			for i, tag := range tags {
				calls = append(calls, fakescript.ToolCall{Name: "srv__echo", Args: json.RawMessage(`{"tag":"` + tag + `"}`), Fragments: 3 - i})
			}
			h.script(p).Push(fakescript.Reply{Text: "Checking.", ToolCalls: calls, Interleave: true}, fakescript.Reply{Text: "done"})
			sink := &recSink{}
			if _, err := h.run(t.Context(), user("three"), sink); err != nil {
				t.Fatalf("Run: %v", err)
			}
			msgs := h.messages()
			if got := roles(msgs); got != "user,assistant,tool,assistant" {
				t.Fatalf("stored roles %s", got)
			}
			stored := msgs[1].ToolCalls()
			if len(stored) != len(tags) {
				t.Fatalf("stored %d calls; want %d", len(stored), len(tags))
			}
			var ids []string
			for i, c := range stored {
				if !strings.Contains(string(c.Arguments), tags[i]) {
					t.Errorf("stored call %d has %s; want %s", i, c.Arguments, tags[i])
				}
				ids = append(ids, c.ID)
			}
			var cards []string
			for _, s := range eventsOf[agent.ToolCallStarted](sink) {
				if len(cards) == 0 || cards[len(cards)-1] != s.CallID {
					cards = append(cards, s.CallID)
				}
			}
			if strings.Join(cards, ",") != strings.Join(ids, ",") {
				t.Errorf("ToolCallStarted order %v; want the stored order %v", cards, ids)
			}
			var results []string
			for _, part := range msgs[2].Parts {
				results = append(results, part.(chat.ToolResultPart).Result.CallID)
			}
			if strings.Join(results, ",") != strings.Join(ids, ",") {
				t.Errorf("stored results %v; want the call order %v", results, ids)
			}
			// The next request: results (after the calls, so the last
			// occurrence of each tag) in output order too.
			reqs := h.requests(p)
			if len(reqs) != 2 {
				t.Fatalf("%d requests; want 2", len(reqs))
			}
			body := string(reqs[1].Body)
			last := -1
			for _, tag := range tags {
				i := strings.LastIndex(body, tag)
				if i <= last {
					t.Errorf("next request: %s's result at byte %d, not after the previous one's (%d)", tag, i, last)
				}
				last = i
			}
		})
	}
}
