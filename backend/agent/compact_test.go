package agent_test

import (
	"fmt"
	"strings"
	"testing"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
)

// fourTurns stores four earlier turns on p, each a question, a tool call,
// its result and an answer.
func fourTurns(t *testing.T, h *harness, p string) {
	t.Helper()
	for i := range 4 {
		h.script(p).Push(
			fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("srv__echo", fmt.Sprintf(`{"x":%d}`, i))}},
			fakescript.Reply{Text: fmt.Sprintf("answer-%d", i)},
		)
		if _, err := h.run(t.Context(), user(fmt.Sprintf("question-%d", i)), nil); err != nil {
			t.Fatal(err)
		}
	}
}

func summaries(msgs []chat.Message) []chat.Message {
	var out []chat.Message
	for _, m := range msgs {
		if m.Role == chat.RoleSummary {
			out = append(out, m)
		}
	}
	return out
}

// TestTooLongCompactsOnceAndRetries: a provider's "too long" refusal
// makes the agent summarise the oldest turns with the session's model,
// store the summary (with the window the refusal showed), and send the
// step once more with the summary in place of the oldest turns; the stored
// history stays whole.
func TestTooLongCompactsOnceAndRetries(t *testing.T) {
	t.Parallel()
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, p)
			fourTurns(t, h, p)
			before := h.messages()
			h.script(p).Push(fakescript.Reply{Error: "context_too_large"},
				fakescript.Reply{Text: "SUMMARY: four questions about echo were answered."},
				fakescript.Reply{Text: "fits now"})
			sink := &recSink{}
			if _, err := h.run(t.Context(), user("question-4"), sink); err != nil {
				t.Fatalf("Run: %v", err)
			}
			reqs := h.script(p).Requests()
			n := len(reqs)
			summarising, retried := string(reqs[n-2].Body), string(reqs[n-1].Body)
			if !strings.Contains(summarising, "question-0") || !strings.Contains(summarising, "answer-0") {
				t.Errorf("summarising request lacks the oldest turn: %s", summarising)
			}
			if strings.Contains(retried, "question-0") || !strings.Contains(retried, "SUMMARY: four questions") ||
				!strings.Contains(retried, "question-4") {
				t.Errorf("retried request should carry the summary instead of the oldest turns: %s", retried)
			}
			for i, r := range reqs[n-2:] {
				if r.Rejection != "" {
					t.Errorf("request %d after the refusal was refused too: %s", i, r.Rejection)
				}
			}
			if r := eventsOf[agent.Retrying](sink); len(r) != 1 || r[0].Reason != "context_too_large" {
				t.Errorf("Retrying events %+v; want one for context_too_large", r)
			}
			if s, f := eventsOf[agent.CompactionStarted](sink), eventsOf[agent.CompactionFinished](sink); len(s) != 1 || len(f) != 1 ||
				s[0].Reason != chat.SummaryTooLong {
				t.Errorf("compaction events %+v %+v; want one started (too_long) and one finished", s, f)
			}
			after := h.messages()
			sums := summaries(after)
			if len(sums) != 1 || sums[0].Summary.Reason != chat.SummaryTooLong || sums[0].Summary.Window <= 0 ||
				sums[0].Usage == nil || sums[0].Provider != p {
				t.Fatalf("summary nodes %+v; want one too_long node with a learnt window and the summarising usage", sums)
			}
			if len(after) != len(before)+3 || after[0].Text() != "question-0" {
				t.Errorf("stored history changed: %d → %d messages (want the question, the summary and the answer added)", len(before), len(after))
			}

		})
	}
}

// TestTooLongTwiceEndsTheTurn: a second refusal after the compaction ends
// the turn with the refusal; the agent does not loop.
func TestTooLongTwiceEndsTheTurn(t *testing.T) {
	t.Parallel()
	p := chat.ProviderAnthropic
	h := newHarness(t, p)
	fourTurns(t, h, p)
	h.script(p).Push(fakescript.Reply{Error: "context_too_large"}, fakescript.Reply{Text: "SUMMARY"},
		fakescript.Reply{Error: "context_too_large"}, fakescript.Reply{Text: "never asked"})
	sink := &recSink{}
	_, err := h.run(t.Context(), user("question-4"), sink)
	if pe, ok := chat.AsProviderError(err); !ok || pe.Kind != chat.ProviderKindContextTooLarge {
		t.Fatalf("Run error = %v; want the second refusal", err)
	}
	if n := len(eventsOf[agent.CompactionStarted](sink)); n != 1 {
		t.Errorf("%d compactions; want 1", n)
	}
	if next := h.script(p).Next(); next.Text != "never asked" {
		t.Errorf("the agent sent more requests after the second refusal")
	}
}
