package agent_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
)

// TestCompactNow: "Compact now" summarises everything before the latest
// turn with the session's model, reports its progress as a run, and leaves
// the context smaller; asking again has nothing to do.
func TestCompactNow(t *testing.T) {
	t.Parallel()
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, p)
			fourTurns(t, h, p)
			before, err := h.agent.Context(t.Context(), h.sessID)
			if err != nil {
				t.Fatal(err)
			}
			h.script(p).Route(summaryAsk, fakescript.Reply{Text: "SUMMARY: questions 0 to 2 about echo."})
			sink := &recSink{}
			runID := chat.NewID()
			if _, err := h.agent.Compact(t.Context(), agent.CompactInput{RunID: runID, SessionID: h.sessID}, sink); err != nil {
				t.Fatalf("Compact: %v", err)
			}
			checkTerminal(t, sink, runID, nil)
			var kinds []string
			for _, ev := range sink.all() {
				switch ev.(type) {
				case agent.CompactionStarted, agent.CompactionProgress, agent.CompactionFinished, agent.MessageSaved, agent.ContextMeasured:
					kinds = append(kinds, strings.TrimPrefix(strings.TrimPrefix(fmt.Sprintf("%T", ev), "agent."), "Compaction"))
				}
			}
			if got := strings.Join(kinds, ","); got != "Started,Progress,MessageSaved,Finished,ContextMeasured" {
				t.Errorf("events %s", got)
			}
			msgs := h.messages()
			last := msgs[len(msgs)-1]
			lastQuestion := msgs[len(msgs)-5] // question-3, its call, result and answer follow
			if last.Role != chat.RoleSummary || last.Summary.Reason != chat.SummaryManual || last.Summary.Through != lastQuestion.Seq-1 ||
				last.Summary.Messages != 12 {
				t.Errorf("summary node %+v %+v; want a manual summary of the 12 messages before question-3", last, last.Summary)
			}
			after, err := h.agent.Context(t.Context(), h.sessID)
			if err != nil || after.Summary == nil || after.Summary.Seq != last.Seq || after.Tokens >= before.Tokens {
				t.Errorf("context after %+v (before %d tokens), %v; want smaller, with the summary", after, before.Tokens, err)
			}
			_, err = h.agent.Compact(t.Context(), agent.CompactInput{RunID: chat.NewID(), SessionID: h.sessID}, nil)
			if !errors.Is(err, agent.ErrNothingToCompact) || chat.Kind(err) != chat.KindInvalid {
				t.Errorf("second Compact = %v; want ErrNothingToCompact, invalid", err)
			}
			// The next turn carries the summary and question-3 verbatim.
			h.script(p).Push(fakescript.Reply{Text: "ok"})
			if _, err := h.run(t.Context(), user("question-4"), nil); err != nil {
				t.Fatal(err)
			}
			reqs := h.requests(p)
			if body := string(reqs[len(reqs)-1].Body); !strings.Contains(body, "SUMMARY: questions 0 to 2") ||
				strings.Contains(body, "question-2") || !strings.Contains(body, "question-3") {
				t.Errorf("request after Compact: %s", body)
			}
		})
	}
}

// TestCompactStops: stopping a compaction stores nothing and ends the run
// as cancelled.
func TestCompactStops(t *testing.T) {
	t.Parallel()
	p := chat.ProviderOpenAI
	h := newHarness(t, p)
	fourTurns(t, h, p)
	before := len(h.messages())
	h.script(p).Route(summaryAsk, fakescript.Reply{Text: "a summary that streams slowly", ChunkRunes: 1, DelayMS: 50})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	sink := &recSink{on: func(ev agent.Event) {
		if _, ok := ev.(agent.CompactionStarted); ok {
			cancel()
		}
	}}
	runID := chat.NewID()
	_, err := h.agent.Compact(ctx, agent.CompactInput{RunID: runID, SessionID: h.sessID}, sink)
	if !errors.Is(err, context.Canceled) || !sink.finished().Canceled {
		t.Fatalf("Compact = %v, finished %+v; want cancelled", err, sink.finished())
	}
	checkTerminal(t, sink, runID, err)
	if n := len(h.messages()); n != before || len(summaries(h.messages())) != 0 {
		t.Errorf("%d messages after a stopped compaction; want the %d there were, no summary", n, before)
	}
}

// TestContextUse: the header's numbers: the system prompt, the tools and
// the messages, against the model's budget; Context answers from the last
// measurement while a run holds the session instead of waiting for it.
func TestContextUse(t *testing.T) {
	t.Parallel()
	p := chat.ProviderAnthropic
	h := newHarness(t, p)
	h.setWindow(p, 200_000, 64_000)
	h.setSession(func(s *chat.Session) { s.SystemPrompt = strings.Repeat("Be brief. ", 30) })
	empty, err := h.agent.Context(t.Context(), h.sessID)
	if err != nil {
		t.Fatal(err)
	}
	if empty.Window != 200_000 || empty.Reserve != 50_000 || empty.Limit != 150_000 || empty.Threshold != 120_000 ||
		empty.ToolTokens <= 0 || empty.SystemTokens != 100 || empty.Tokens != empty.ToolTokens+empty.SystemTokens || empty.Reported {
		t.Errorf("empty session: %+v", empty)
	}
	if share := empty.Share(); share <= 0 || share >= 0.05 {
		t.Errorf("Share = %v", share)
	}
	var during agent.ContextUse
	h.script(p).Push(fakescript.Reply{Text: "hello"})
	sink := &recSink{on: func(ev agent.Event) {
		if _, ok := ev.(agent.TextDelta); ok && during.SessionID == "" {
			during, _ = h.agent.Context(context.Background(), h.sessID)
		}
	}}
	if _, err := h.run(t.Context(), user("hi"), sink); err != nil {
		t.Fatal(err)
	}
	measured := eventsOf[agent.ContextMeasured](sink)
	if len(measured) != 1 || during != measured[0].Use || during.Tokens <= empty.Tokens {
		t.Errorf("Context during the run = %+v; want the run's measurement %+v", during, measured)
	}
	after, _ := h.agent.Context(t.Context(), h.sessID)
	if !after.Reported || after.Tokens <= during.Tokens {
		t.Errorf("after the reply: %+v; want it anchored on the reported usage and larger", after)
	}
}

func TestCompactThresholdSetting(t *testing.T) {
	t.Parallel()
	a := agent.New(nil, nil, nil, nil)
	if a.CompactThreshold() != agent.DefaultCompactThreshold {
		t.Errorf("default threshold %v", a.CompactThreshold())
	}
	for _, bad := range []float64{0, 0.29, 0.96, 2} {
		if err := a.SetCompactThreshold(bad); !errors.Is(err, chat.ErrInvalid) {
			t.Errorf("SetCompactThreshold(%v) = %v; want invalid", bad, err)
		}
	}
	if err := a.SetCompactThreshold(0.5); err != nil || a.CompactThreshold() != 0.5 {
		t.Errorf("SetCompactThreshold(0.5) = %v, threshold %v", err, a.CompactThreshold())
	}
}
