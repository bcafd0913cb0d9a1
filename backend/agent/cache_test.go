package agent_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
	"maestro/backend/store"
)

// countingStore counts the reads of a session's history.
type countingStore struct {
	*store.Store
	tails atomic.Int64
	// read is how many messages the last read returned.
	read atomic.Int64
}

func (c *countingStore) ActiveTail(ctx context.Context, id string, keep func(chat.Message) bool) (chat.Session, []chat.Message, error) {
	c.tails.Add(1)
	sess, msgs, err := c.Store.ActiveTail(ctx, id, keep)
	c.read.Store(int64(len(msgs)))
	return sess, msgs, err
}

// TestHistoryCache: the agent reads a session's history once and keeps it
// across runs, and reads it again exactly when the stored branch may have
// changed under it: an edit, a branch switch, a write by someone else, or
// Forget. Every request still carries the branch as stored.
func TestHistoryCache(t *testing.T) {
	t.Parallel()
	p := chat.ProviderAnthropic
	h := newHarness(t, p)
	cs := &countingStore{Store: h.store}
	h.agent = agent.New(cs, harnessModels{h}, h.tools, h.approver, agent.WithClock(h.clock))
	ctx := t.Context()
	turn := func(text string) string {
		t.Helper()
		if _, err := h.run(ctx, user(text), nil); err != nil {
			t.Fatal(err)
		}
		reqs := h.requests(p)
		return string(reqs[len(reqs)-1].Body)
	}
	reads := func(step string, want int64) {
		t.Helper()
		if got := cs.tails.Swap(0); got != want {
			t.Errorf("%s: the history was read %d times; want %d", step, got, want)
		}
	}

	turn("first")
	reads("first run", 1)
	turn("second")
	turn("third")
	reads("two more runs", 0)

	// An edit forks the branch: the run reads the new one.
	msgs := h.messages()
	second := msgs[2]
	if _, err := h.run(ctx, agent.RunInput{Text: "second, edited", Edit: second.Seq}, nil); err != nil {
		t.Fatal(err)
	}
	reqs := h.requests(p)
	if body := string(reqs[len(reqs)-1].Body); !strings.Contains(body, "second, edited") || strings.Contains(body, "third") {
		t.Errorf("request after the edit: %s", body)
	}
	reads("edit", 1)
	body := turn("fourth")
	reads("a run after the edit", 0)
	if strings.Contains(body, "third") || !strings.Contains(body, "second, edited") {
		t.Errorf("request on the edited branch: %s", body)
	}

	// A branch switch made outside the agent (the app) moves the head.
	if _, err := h.store.SwitchBranch(ctx, h.sessID, second.Seq); err != nil {
		t.Fatal(err)
	}
	body = turn("fifth")
	reads("branch switch", 1)
	if !strings.Contains(body, "third") || strings.Contains(body, "fourth") {
		t.Errorf("request after switching back: %s", body)
	}

	// A write by someone else moves the session's UpdatedAt.
	msgs = h.messages()
	first := msgs[0]
	first.Parts = chat.Parts{chat.TextPart{Text: "first, rewritten"}}
	if err := h.store.PutMessage(ctx, h.sessID, first); err != nil {
		t.Fatal(err)
	}
	body = turn("sixth")
	reads("a message rewritten", 1)
	if !strings.Contains(body, "first, rewritten") {
		t.Errorf("request after the rewrite: %s", body)
	}

	h.agent.Forget(h.sessID)
	turn("seventh")
	reads("Forget", 1)
}

// TestHistoryCacheAfterCompaction: a compaction trims what the agent keeps
// to what requests need, and the next run neither reads the session again
// nor sends what the summary stands for; a fresh agent (a restart) reads
// only back to the summary and sends the same.
func TestHistoryCacheAfterCompaction(t *testing.T) {
	t.Parallel()
	p := chat.ProviderGemini
	h := newHarness(t, p)
	cs := &countingStore{Store: h.store}
	h.agent = agent.New(cs, harnessModels{h}, h.tools, h.approver, agent.WithClock(h.clock))
	h.setWindow(p, 3000, 500)
	h.script(p).Route(summaryAsk, fakescript.Reply{Text: "SUMMARY so far."})
	turn, _ := growUntilCompacted(t, h, p)
	cs.tails.Store(0)
	run := func(a *agent.Agent, text string) string {
		t.Helper()
		h.script(p).Push(fakescript.Reply{Text: "ok"})
		if _, err := a.Run(t.Context(), agent.RunInput{RunID: chat.NewID(), SessionID: h.sessID, Text: text}, nil); err != nil {
			t.Fatal(err)
		}
		reqs := h.requests(p)
		return string(reqs[len(reqs)-1].Body)
	}
	warm := run(h.agent, "after")
	if n := cs.tails.Load(); n != 0 {
		t.Errorf("the run after the compaction read the history %d times; want 0", n)
	}
	restarted := agent.New(cs, harnessModels{h}, h.tools, h.approver, agent.WithClock(h.clock))
	cold := run(restarted, "after a restart")
	total := len(h.messages())
	if n, read := cs.tails.Load(), cs.read.Load(); n != 1 || read == 0 || read > int64(total/2) {
		t.Errorf("a fresh agent read the history %d times, %d of %d messages; want once, back to the summary's span only", n, read, total)
	}
	for _, body := range []string{warm, cold} {
		if !strings.Contains(body, "SUMMARY so far.") || strings.Contains(body, "question-0") {
			t.Errorf("request after the compaction (turn %d): %.400s", turn, body)
		}
	}
}
