package agent_test

import (
	"errors"
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
	turns(t, h, p, 4, func(i int) string { return fmt.Sprintf("answer-%d", i) })
}

func turns(t *testing.T, h *harness, p string, n int, answer func(int) string) {
	t.Helper()
	for i := range n {
		h.script(p).Push(
			fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("srv__echo", fmt.Sprintf(`{"x":%d}`, i))}},
			fakescript.Reply{Text: answer(i)},
		)
		if _, err := h.run(t.Context(), user(fmt.Sprintf("question-%d", i)), nil); err != nil {
			t.Fatal(err)
		}
	}
}

// staleWindow sets up a session whose model the agent believes has a
// 100,000-token window while its provider (the fake) takes only just what
// the session's last request carried (and, for Anthropic, the answer's
// 8,000 tokens on top), after 16 turns: the next turn is refused as too long, the way a
// catalog out of date, or a Code Assist account served a smaller window,
// makes it happen.
func staleWindow(t *testing.T, h *harness, p string) {
	t.Helper()
	h.infoMu.Lock()
	h.info[p] = chat.ModelInfo{ID: modelNames[p], ContextWindow: 100_000, MaxOutputTokens: 8000}
	h.infoMu.Unlock()
	turns(t, h, p, 16, longAnswer)
	reqs := h.requests(p)
	window := fakescript.CountJSON(reqs[len(reqs)-1].Body) + 5
	if p == chat.ProviderAnthropic {
		window += 8000 // Anthropic counts max_tokens against the window
	}
	h.script(p).SetWindow(window)
	h.script(p).Route(summaryAsk, fakescript.Reply{Text: "SUMMARY: the first question."})
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
// history stays whole, and the next turn stays under what was refused.
func TestTooLongCompactsOnceAndRetries(t *testing.T) {
	t.Parallel()
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, p)
			staleWindow(t, h, p)
			before := h.messages()
			start := len(h.script(p).Requests())
			h.script(p).Push(fakescript.Reply{Text: "fits now"})
			sink := &recSink{}
			if _, err := h.run(t.Context(), user("question-4"), sink); err != nil {
				t.Fatalf("Run: %v", err)
			}
			started := eventsOf[agent.CompactionStarted](sink)
			if len(started) != 1 {
				t.Fatalf("compactions %+v; want one", started)
			}
			n := started[0].Requests
			reqs := h.script(p).Requests()[start:]
			if len(reqs) != n+2 || reqs[0].Rejection == "" {
				t.Fatalf("%d requests; want one refused, %d summarising, one retried", len(reqs), n)
			}
			for i, r := range reqs[1:] {
				if r.Rejection != "" {
					t.Errorf("request %d after the refusal refused: %s", i+1, r.Rejection)
				}
			}
			summarising, retried := string(reqs[1].Body), string(reqs[n+1].Body)
			if !strings.Contains(summarising, summaryAsk) || !strings.Contains(summarising, "question-0") {
				t.Errorf("summarising request lacks the oldest turn: %.400s", summarising)
			}
			if strings.Contains(retried, "question-0") || !strings.Contains(retried, "SUMMARY: the first question.") ||
				!strings.Contains(retried, "question-4") {
				t.Errorf("retried request should carry the summary instead of the oldest turn: %.400s", retried)
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
				sums[0].Summary.Window >= 100_000 || sums[0].Usage == nil || sums[0].Provider != p {
				t.Fatalf("summary nodes %+v; want one too_long node with the window learnt and the summarising usage", sums)
			}
			if len(after) != len(before)+3 || after[0].Text() != "question-0" {
				t.Errorf("stored history changed: %d → %d messages (want the question, the summary and the answer added)", len(before), len(after))
			}
			// The next turn is sized by what was learnt: nothing is refused.
			h.script(p).Push(fakescript.Reply{Text: "and again"})
			if _, err := h.run(t.Context(), user("question-5"), nil); err != nil {
				t.Fatal(err)
			}
			for _, r := range h.script(p).Requests()[start+n+2:] {
				if r.Rejection != "" {
					t.Errorf("the next turn was refused: %s", r.Rejection)
				}
			}
		})
	}
}

// TestTooLongTwiceEndsTheTurn: a second refusal after the compaction ends
// the turn with the refusal; the agent does not loop.
func TestTooLongTwiceEndsTheTurn(t *testing.T) {
	t.Parallel()
	p := chat.ProviderGemini
	h := newHarness(t, p)
	staleWindow(t, h, p)
	start := len(h.script(p).Requests())
	h.script(p).Push(fakescript.Reply{Error: "context_too_large"}, fakescript.Reply{Text: "never asked"})
	sink := &recSink{}
	_, err := h.run(t.Context(), user("question-4"), sink)
	if pe, ok := chat.AsProviderError(err); !ok || pe.Kind != chat.ProviderKindContextTooLarge {
		t.Fatalf("Run error = %v; want the second refusal", err)
	}
	started := eventsOf[agent.CompactionStarted](sink)
	if len(started) != 1 {
		t.Fatalf("compactions %+v; want 1", started)
	}
	if n := len(h.script(p).Requests()) - start; n != started[0].Requests+2 || h.script(p).Next().Text != "never asked" {
		t.Errorf("%d requests; want the refused one, the summarising ones and the refused retry", n)
	}
}

func longAnswer(i int) string {
	return fmt.Sprintf("answer-%d: ", i) + strings.Repeat("the retry loop backs off on 429s and honours retry-after; ", 6)
}

const summaryAsk = "Write the summary now."

// growUntilCompacted runs turns of a tool call and a long answer until one
// compacts, and returns that turn's number and events.
func growUntilCompacted(t *testing.T, h *harness, p string) (int, *recSink) {
	t.Helper()
	for i := range 60 {
		h.script(p).Push(
			fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("srv__echo", fmt.Sprintf(`{"x":%d}`, i))}},
			fakescript.Reply{Text: longAnswer(i)})
		sink := &recSink{}
		if _, err := h.run(t.Context(), user(fmt.Sprintf("question-%d", i)), sink); err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
		if len(eventsOf[agent.CompactionStarted](sink)) > 0 {
			return i, sink
		}
	}
	t.Fatal("60 turns and no compaction")
	return 0, nil
}

// TestThresholdCompaction: as a session grows past the threshold of its
// model's window, the agent compacts before sending, on every provider:
// the fakes, which enforce the same window, refuse nothing and find every
// tool call next to its result; the request after the compaction carries
// the summary instead of the oldest turns; and the turns after it reuse
// the summary rather than summarise again.
func TestThresholdCompaction(t *testing.T) {
	t.Parallel()
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, p)
			h.setWindow(p, 3000, 500)
			h.script(p).Route(summaryAsk, fakescript.Reply{Text: "SUMMARY: the user asked about echo and retries."})
			turn, sink := growUntilCompacted(t, h, p)
			if turn < 3 {
				t.Fatalf("compacted at turn %d; want a few turns first", turn)
			}
			started := eventsOf[agent.CompactionStarted](sink)[0]
			if started.Reason != chat.SummaryThreshold || started.Messages == 0 || started.Requests != 1 {
				t.Errorf("CompactionStarted %+v; want the threshold, some messages, one request", started)
			}
			reqs := h.requests(p) // fails the test on any refusal
			last := string(reqs[len(reqs)-1].Body)
			if !strings.Contains(last, "SUMMARY: the user asked") || strings.Contains(last, "question-0") ||
				!strings.Contains(last, fmt.Sprintf("question-%d", turn)) {
				t.Errorf("request after the compaction: %s", last)
			}
			sums := summaries(h.messages())
			if len(sums) != 1 || sums[0].Summary.Reason != chat.SummaryThreshold || sums[0].Summary.Through == 0 {
				t.Fatalf("summary nodes %+v; want one, for the threshold", sums)
			}
			for _, m := range eventsOf[agent.ContextMeasured](sink) {
				if m.Use.Tokens > m.Use.Limit || m.Use.Window != 3000 || m.Use.Summary == nil {
					t.Errorf("measured %+v; want within the limit of a 3000-token window, with the summary", m.Use)
				}
			}

			// The next turn reuses the summary.
			before := len(reqs)
			h.script(p).Push(fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("srv__echo", `{"x":99}`)}}, fakescript.Reply{Text: "done"})
			if _, err := h.run(t.Context(), user("question-next"), nil); err != nil {
				t.Fatal(err)
			}
			for _, r := range h.requests(p)[before:] {
				if body := string(r.Body); strings.Contains(body, summaryAsk) || !strings.Contains(body, "SUMMARY: the user asked") {
					t.Errorf("next turn's request summarised again or lost the summary: %s", body)
				}
			}
		})
	}
}

// TestLatestTurnTooLargeIsNotSent: a message that alone does not fit the
// window ends the turn with ErrContextFull before any request.
func TestLatestTurnTooLargeIsNotSent(t *testing.T) {
	t.Parallel()
	p := chat.ProviderAnthropic
	h := newHarness(t, p)
	h.setWindow(p, 3000, 500)
	_, err := h.run(t.Context(), user(strings.Repeat("a very long paste ", 1000)), nil)
	if !errors.Is(err, agent.ErrContextFull) || chat.Kind(err) != chat.KindInvalid {
		t.Fatalf("Run error = %v (kind %s); want ErrContextFull, invalid", err, chat.Kind(err))
	}
	if n := len(h.script(p).Requests()); n != 0 {
		t.Errorf("%d requests sent; want none", n)
	}
	msgs := h.messages()
	if last := msgs[len(msgs)-1]; last.Status != chat.StatusFailed || last.Failure == nil || last.Failure.Kind != chat.KindInvalid {
		t.Errorf("last message %+v; want the failure recorded", last)
	}
}

// TestProviderSwitchRechecksTheBudget: a conversation that fits one
// provider's window is compacted, with the new provider's model, before
// its first request to a provider with a smaller window.
func TestProviderSwitchRechecksTheBudget(t *testing.T) {
	t.Parallel()
	from, to := chat.ProviderGemini, chat.ProviderOpenAI
	h := newHarness(t, from)
	for i := range 12 {
		h.script(from).Push(fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("srv__echo", `{"x":1}`)}}, fakescript.Reply{Text: longAnswer(i)})
		if _, err := h.run(t.Context(), user(fmt.Sprintf("question-%d", i)), nil); err != nil {
			t.Fatal(err)
		}
	}
	use, err := h.agent.Context(t.Context(), h.sessID)
	if err != nil || use.Tokens < 1500 || use.Summary != nil {
		t.Fatalf("before the switch: %+v, %v; want over 1500 tokens and no summary", use, err)
	}
	h.setWindow(to, 2400, 400)
	h.setSession(func(s *chat.Session) { s.Provider, s.Model = to, modelNames[to] })
	h.script(to).Route(summaryAsk, fakescript.Reply{Text: "SUMMARY for the switch."})
	h.script(to).Push(fakescript.Reply{Text: "hello from the other side"})
	sink := &recSink{}
	if _, err := h.run(t.Context(), user("after the switch"), sink); err != nil {
		t.Fatalf("Run: %v", err)
	}
	started := eventsOf[agent.CompactionStarted](sink)
	if len(started) != 1 {
		t.Fatalf("compactions %+v; want one before the first request to %s", started, to)
	}
	// The span is larger than one summarising request may carry in the
	// smaller window: it goes in pieces, each folding in the summary so far.
	reqs := h.requests(to)
	n := started[0].Requests
	if n < 2 || len(reqs) != n+1 || len(eventsOf[agent.CompactionProgress](sink)) != n {
		t.Fatalf("%s got %d requests for a compaction of %d; want them, then the turn", to, len(reqs), n)
	}
	for i, r := range reqs[:n] {
		if body := string(r.Body); !strings.Contains(body, summaryAsk) || i > 0 && !strings.Contains(body, "Summary so far:") {
			t.Errorf("summarising request %d: %.300s", i, body)
		}
	}
	if !strings.Contains(string(reqs[n].Body), "SUMMARY for the switch.") {
		t.Errorf("the turn's request lacks the summary: %.300s", reqs[n].Body)
	}
	if sums := summaries(h.messages()); len(sums) != 1 || sums[0].Provider != to {
		t.Errorf("summary nodes %+v; want one made by %s", sums, to)
	}
	if len(h.script(from).Requests()) != 24 {
		t.Errorf("%s got more requests after the switch", from)
	}
}
