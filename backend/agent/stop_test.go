package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
)

// slowReply keeps a stream open long enough to act on it mid-way.
const slowText = "ALPHA partial words that keep coming for a while before the end."

func slowReply() fakescript.Reply {
	return fakescript.Reply{Text: slowText, ChunkRunes: 6, DelayMS: 15}
}

func TestStopMidStream(t *testing.T) {
	t.Parallel()
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			// Every Now moves 600 ms on, so the partial text is checkpointed.
			h := newHarness(t, p, agent.WithClock(newFakeClock(600*time.Millisecond)))
			h.script(p).Push(slowReply())
			ctx, stop := context.WithCancel(t.Context())
			defer stop()
			sink := &recSink{}
			var deltas atomic.Int32
			sink.on = func(ev agent.Event) {
				if _, ok := ev.(agent.TextDelta); ok && deltas.Add(1) == 3 {
					stop()
				}
			}
			_, err := h.run(ctx, user("talk slowly"), sink)
			if !errors.Is(err, context.Canceled) || chat.Kind(err) != chat.KindCanceled {
				t.Fatalf("Run error = %v, want canceled", err)
			}
			if fin := sink.finished(); !fin.Canceled {
				t.Errorf("RunFinished.Canceled = false")
			}
			msgs := h.messages()
			if len(msgs) != 2 {
				t.Fatalf("stored %s, want user and the partial reply", roles(msgs))
			}
			a := msgs[1]
			if a.Status != chat.StatusCanceled || a.Text() == "" || !strings.HasPrefix(slowText, a.Text()) || a.Text() == slowText {
				t.Errorf("stopped reply = %q (%s), want a non-empty strict prefix, canceled", a.Text(), a.Status)
			}
			// The stopped reply stays in history: the next turn sends it.
			h.script(p).Push(fakescript.Reply{Text: "sorry"})
			if _, err := h.run(t.Context(), user("go on"), nil); err != nil {
				t.Fatalf("next turn: %v", err)
			}
			reqs := h.requests(p)
			if body := string(reqs[len(reqs)-1].Body); !strings.Contains(body, a.Text()) {
				t.Errorf("next request lacks the stopped reply's text %q", a.Text())
			}
		})
	}
}

func TestStopDuringSlowTool(t *testing.T) {
	t.Parallel()
	p := chat.ProviderGemini
	h := newHarness(t, p)
	var sawCancel atomic.Bool
	h.tools.set("srv.slow", fakeTool{fn: func(ctx context.Context, _ json.RawMessage, report func(agent.ToolUpdate)) chat.ToolResult {
		report(agent.ToolUpdate{Kind: agent.UpdateProgress, Progress: 1, Total: 10, Message: "working"})
		select {
		case <-ctx.Done():
			sawCancel.Store(true)
			return chat.ToolResult{Error: "cancelled: " + ctx.Err().Error()}
		case <-time.After(10 * time.Second):
			return chat.ToolResult{Successful: true}
		}
	}})
	h.script(p).Push(fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("srv__slow", `{}`)}})
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	sink := &recSink{}
	sink.on = func(ev agent.Event) {
		if _, ok := ev.(agent.ToolCallProgress); ok {
			stop()
		}
	}
	start := time.Now()
	_, err := h.run(ctx, user("slow"), sink)
	if !errors.Is(err, context.Canceled) || !sink.finished().Canceled {
		t.Fatalf("Run error = %v, want canceled", err)
	}
	if !sawCancel.Load() || time.Since(start) > 5*time.Second {
		t.Errorf("the tool did not see its context cancelled promptly")
	}
	msgs := h.messages()
	if got := roles(msgs); got != "user,assistant,tool" {
		t.Fatalf("stored %s", got)
	}
	res := msgs[2].Parts[0].(chat.ToolResultPart).Result
	if res.Successful || !strings.Contains(res.Error, "cancelled") || msgs[2].Status != chat.StatusComplete {
		t.Errorf("stored result %+v (%s), want the cancelled envelope", res, msgs[2].Status)
	}
}

func TestStopWhileAskingApproval(t *testing.T) {
	t.Parallel()
	p := chat.ProviderAnthropic
	h := newHarness(t, p)
	h.setSession(func(s *chat.Session) { s.Approval = chat.ApprovalAsk })
	h.approver.block = true
	h.script(p).Push(fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("srv__write", `{}`), call("srv__read", `{}`)}})
	ctx, stop := context.WithCancel(t.Context())
	sink := &recSink{on: func(ev agent.Event) {
		if _, ok := ev.(agent.ApprovalNeeded); ok {
			stop()
		}
	}}
	if _, err := h.run(ctx, user("write"), sink); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run error = %v, want canceled", err)
	}
	if c := h.tools.called(); len(c) != 0 {
		t.Errorf("tools ran after Stop: %v", c)
	}
	msgs := h.messages()
	if len(msgs) != 3 || len(msgs[2].Parts) != 2 {
		t.Fatalf("stored %s, want every call answered", roles(msgs))
	}
	for _, part := range msgs[2].Parts {
		if r := part.(chat.ToolResultPart).Result; r.Successful || !strings.Contains(r.Error, "stopped") {
			t.Errorf("result %+v, want a stopped envelope", r)
		}
	}
}

func TestApplyNowRestartsStep(t *testing.T) {
	t.Parallel()
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, p, agent.WithClock(newFakeClock(600*time.Millisecond)))
			h.script(p).Push(slowReply(), fakescript.Reply{Text: "Now with the new tool."})
			ctl := &agent.Control{}
			sink := &recSink{}
			var deltas atomic.Int32
			sink.on = func(ev agent.Event) {
				if _, ok := ev.(agent.TextDelta); ok && deltas.Add(1) == 3 {
					h.tools.set("srv.added", fakeTool{})
					if !ctl.ApplyNow() {
						t.Errorf("ApplyNow while streaming reported no request in flight")
					}
				}
			}
			if _, err := h.run(t.Context(), agent.RunInput{Text: "hello once", Control: ctl}, sink); err != nil {
				t.Fatalf("Run: %v", err)
			}
			reqs := h.requests(p)
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want 2", len(reqs))
			}
			first, second := string(reqs[0].Body), string(reqs[1].Body)
			if strings.Contains(first, "srv__added") || !strings.Contains(second, "srv__added") {
				t.Errorf("the restarted request should declare the new tool, the first should not")
			}
			if strings.Contains(second, "ALPHA") {
				t.Errorf("the restarted request carries the superseded partial text: %s", second)
			}
			if n := strings.Count(second, "hello once"); n != 1 {
				t.Errorf("the restarted request carries the user message %d times, want 1", n)
			}
			msgs := h.messages()
			if n := countText(msgs, chat.RoleUser, "hello once"); n != 1 {
				t.Errorf("user message stored %d times, want 1", n)
			}
			var superseded, complete int
			for _, m := range msgs {
				switch {
				case m.Role == chat.RoleAssistant && m.Status == agent.StatusSuperseded:
					superseded++
				case m.Role == chat.RoleAssistant && m.Status == chat.StatusComplete && m.Text() == "Now with the new tool.":
					complete++
				}
			}
			if superseded != 1 || complete != 1 {
				t.Errorf("stored %s: %d superseded and %d complete replies, want 1 and 1", roles(msgs), superseded, complete)
			}
			retries := eventsOf[agent.Retrying](sink)
			if len(retries) != 1 || retries[0].Reason != "apply_now" {
				t.Errorf("Retrying events %+v, want one apply_now", retries)
			}
			if ctl.ApplyNow() {
				t.Errorf("ApplyNow after the run reported a request in flight")
			}
		})
	}
}
