package agent

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"maestro/backend/chat"
)

// seq numbers msgs 1, 2, 3… as the store would on one branch.
func seq(msgs ...chat.Message) []chat.Message {
	out := slices.Clone(msgs)
	for i := range out {
		out[i].Seq = uint64(i + 1)
		if i > 0 {
			out[i].Parent = uint64(i)
		}
	}
	return out
}

func summaryNode(id string, through uint64, text string) chat.Message {
	return chat.Message{ID: id, Role: chat.RoleSummary, Status: chat.StatusComplete, Provider: "anthropic", Model: "m",
		Parts: chat.Parts{chat.TextPart{Text: text}}, Summary: &chat.Summary{Through: through, Messages: int(through), Reason: chat.SummaryThreshold}}
}

// bigResult is a tool message whose result is large enough to be elided.
func bigResult(id string, callIDs ...string) chat.Message {
	m := resultMsg(id, callIDs...)
	for i, p := range m.Parts {
		r := p.(chat.ToolResultPart).Result
		r.Data = json.RawMessage(`{"text":"` + strings.Repeat("x", 2*elideOver) + `"}`)
		m.Parts[i] = chat.ToolResultPart{Result: r}
	}
	return m
}

// checkWellFormed asserts what every view must be: it starts with a user
// message, and each assistant message with calls is followed by a tool
// message answering all of them.
func checkWellFormed(t *testing.T, view []chat.Message) {
	t.Helper()
	if len(view) == 0 || view[0].Role != chat.RoleUser {
		t.Fatalf("view %v does not start with a user message", ids(view))
	}
	for i, m := range view {
		calls := m.ToolCalls()
		if len(calls) == 0 {
			continue
		}
		if i+1 >= len(view) || view[i+1].Role != chat.RoleTool {
			t.Fatalf("view %v separates %s from its results", ids(view), m.ID)
		}
		answered := map[string]bool{}
		for _, p := range view[i+1].Parts {
			answered[p.(chat.ToolResultPart).Result.CallID] = true
		}
		for _, c := range calls {
			if !answered[c.ID] {
				t.Fatalf("view %v: call %s of %s has no result next to it", ids(view), c.ID, m.ID)
			}
		}
	}
}

func TestViewSummaryStandsInForItsSpan(t *testing.T) {
	t.Parallel()
	// The tail the agent holds after a compaction through message 4: the
	// kept turn (5–8), the node (9), and the next turn (10–11), with a
	// failed attempt on the way.
	tail := []chat.Message{
		userMsg("u5"), callMsg("a6", "c1"), resultMsg("t7", "c1"), textMsg("f8", chat.StatusComplete),
		summaryNode("s9", 4, "They talked about retries."),
		userMsg("u10"), textMsg("x11", chat.StatusFailed), textMsg("f12", chat.StatusComplete),
	}
	for i := range tail {
		tail[i].Seq = uint64(i + 5)
	}
	var v view
	v.update(tail)
	if got, want := ids(v.msgs), []string{"s9", "u5", "a6", "t7", "f8", "u10", "f12"}; !slices.Equal(got, want) {
		t.Fatalf("view = %v; want %v", got, want)
	}
	first := v.msgs[0]
	if first.Role != chat.RoleUser || first.Seq != 4 || !strings.HasPrefix(first.Text(), summaryPrefix) ||
		!strings.HasSuffix(first.Text(), "They talked about retries.") {
		t.Errorf("summary sent as %s seq %d %q; want a user message at seq 4 with the prefix and the text", first.Role, first.Seq, first.Text())
	}
	checkWellFormed(t, v.msgs)
	var want int64
	for _, m := range v.msgs {
		want += tokensOf(m)
	}
	if v.tokens != want {
		t.Errorf("view tokens %d; want the sum of its messages' %d", v.tokens, want)
	}
	// A newer summary replaces the view from scratch.
	tail = append(tail, summaryNode("s13", 8, "Later."))
	tail[len(tail)-1].Seq = 13
	v.update(trimThrough(tail, 8))
	if got, want := ids(v.msgs), []string{"s13", "u10", "f12"}; !slices.Equal(got, want) {
		t.Errorf("view after a second summary = %v; want %v", got, want)
	}
}

func TestViewElidesOldLargeResults(t *testing.T) {
	t.Parallel()
	var msgs []chat.Message
	for turn := range 12 {
		c := fmt.Sprintf("c%d", turn)
		msgs = append(msgs, userMsg(fmt.Sprintf("u%d", turn)), callMsg("a"+c, c), bigResult("t"+c, c), textMsg(fmt.Sprintf("f%d", turn), chat.StatusComplete))
	}
	tail := seq(msgs...)
	var v view
	for n := 1; n <= len(tail); n++ {
		v.update(tail[:n]) // grows as the runs go
		turns := (n + 3) / 4
		elided := 0
		for _, m := range v.msgs {
			if m.Role == chat.RoleTool && strings.Contains(string(m.Parts[0].(chat.ToolResultPart).Result.Data), `"elided"`) {
				elided++
			}
		}
		if want := elidedTurns(turns); elided != want || v.elided != want {
			t.Fatalf("after %d messages (%d turns): %d results elided, boundary %d; want %d", n, turns, elided, v.elided, want)
		}
		var fresh view
		fresh.update(tail[:n])
		if !reflect.DeepEqual(fresh.msgs, v.msgs) || fresh.tokens != v.tokens {
			t.Fatalf("after %d messages the view built step by step differs from one built at once", n)
		}
	}
	// The boundary moves four turns at a time.
	for turns, want := range map[int]int{4: 0, 7: 0, 8: 4, 11: 4, 12: 8, 13: 8, 16: 12} {
		if got := elidedTurns(turns); got != want {
			t.Errorf("elidedTurns(%d) = %d; want %d", turns, got, want)
		}
	}
	r := v.msgs[2].Parts[0].(chat.ToolResultPart).Result
	var body struct{ Elided, Preview string }
	if err := json.Unmarshal(r.Data, &body); err != nil || !strings.Contains(body.Elided, "call the tool again") ||
		len(body.Preview) != elidePreview || r.CallID != "c0" || !r.Successful {
		t.Errorf("elided result %+v (%s); want the call id, the outcome, a note and a %d-byte preview", r, r.Data, elidePreview)
	}
	if stored := tail[2].Parts[0].(chat.ToolResultPart).Result; !strings.Contains(string(stored.Data), strings.Repeat("x", 2*elideOver)) {
		t.Error("eliding changed the stored message")
	}
}

func TestKeepFrom(t *testing.T) {
	t.Parallel()
	// Each message is about 10 tokens.
	u := func(id string) chat.Message { m := userMsg(id); m.Tokens = 10; return m }
	a := func(id string, calls ...string) chat.Message { m := callMsg(id, calls...); m.Tokens = 10; return m }
	r := func(id string, calls ...string) chat.Message { m := resultMsg(id, calls...); m.Tokens = 10; return m }
	f := func(id string) chat.Message { m := textMsg(id, chat.StatusComplete); m.Tokens = 10; return m }
	msgs := []chat.Message{
		u("u0"), a("a0", "c0"), r("t0", "c0"), f("f0"), // 0–3
		u("u1"), f("f1"), // 4–5
		u("u2"), a("a2", "c1"), r("t2", "c1"), a("a2b", "c2"), r("t2b", "c2"), a("a2c", "c3"), r("t2c", "c3"), // 6–12
	}
	tests := []struct {
		keep int64
		want int
	}{
		{1000, 4}, // everything fits: the first turn is all that can go
		{90, 4},   // the current turn (70) and the one before (20) fit
		{70, 6},   // only the current turn
		{45, 9},   // the current turn does not fit: from its second step
		{15, 11},  // not even the last step (20): it is kept anyway
		{25, 11},  // the last step fits
		{0, 11},   // nothing fits
	}
	for _, tt := range tests {
		got := keepFrom(msgs, tt.keep)
		if got != tt.want {
			t.Errorf("keepFrom(keep %d) = %d (%s); want %d", tt.keep, got, msgs[got].ID, tt.want)
		}
	}
	if got := keepFrom(msgs[:2], 0); got != 0 {
		t.Errorf("keepFrom of a first turn with no step boundary = %d; want 0", got)
	}
}

// TestViewRandom: on random well-formed histories, compacted at random
// points the way compaction cuts, the view is well formed, leaves out
// everything the summary stands for, and is the same built step by step
// or at once.
func TestViewRandom(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 300 {
		var msgs []chat.Message
		call := 0
		for turn := range 1 + rng.IntN(12) {
			msgs = append(msgs, userMsg(fmt.Sprintf("u%d-%d", n, turn)))
			for step := range rng.IntN(4) {
				var cs []string
				for range 1 + rng.IntN(3) {
					cs = append(cs, fmt.Sprintf("c%d", call))
					call++
				}
				res := resultMsg(fmt.Sprintf("t%d-%d", turn, step), cs...)
				if rng.IntN(2) == 0 {
					res = bigResult(res.ID, cs...)
				}
				msgs = append(msgs, callMsg(fmt.Sprintf("a%d-%d", turn, step), cs...), res)
			}
			if rng.IntN(4) > 0 {
				msgs = append(msgs, textMsg(fmt.Sprintf("f%d", turn), chat.StatusComplete))
			}
		}
		tail := seq(msgs...)
		var v view
		v.update(tail)
		checkWellFormed(t, v.msgs)
		cut := keepFrom(v.msgs, int64(rng.IntN(400)))
		if cut == 0 {
			continue
		}
		through := v.msgs[cut-1].Seq
		node := summaryNode("s", through, "summary")
		node.Seq = tail[len(tail)-1].Seq + 1
		compacted := append(trimThrough(tail, through), node)
		v.update(compacted)
		checkWellFormed(t, v.msgs)
		for _, m := range v.msgs[1:] {
			if m.Seq <= through {
				t.Fatalf("view %v keeps %s, which the summary through %d stands for", ids(v.msgs), m.ID, through)
			}
		}
		var fresh view
		for i := 1; i <= len(compacted); i++ {
			fresh.update(compacted[:i])
		}
		if !reflect.DeepEqual(fresh.msgs, v.msgs) {
			t.Fatalf("incremental view %v; want %v", ids(fresh.msgs), ids(v.msgs))
		}
	}
}
