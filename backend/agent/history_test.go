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

func userMsg(text string) chat.Message {
	return chat.Message{ID: text, Role: chat.RoleUser, Parts: chat.Parts{chat.TextPart{Text: text}}}
}

func callMsg(id string, callIDs ...string) chat.Message {
	m := chat.Message{ID: id, Role: chat.RoleAssistant, Status: chat.StatusComplete}
	for _, c := range callIDs {
		m.Parts = append(m.Parts, chat.ToolCallPart{Call: chat.ToolCall{ID: c, Name: "srv." + c}})
	}
	return m
}

func resultMsg(id string, callIDs ...string) chat.Message {
	m := chat.Message{ID: id, Role: chat.RoleTool, Status: chat.StatusComplete}
	for _, c := range callIDs {
		m.Parts = append(m.Parts, chat.ToolResultPart{Result: chat.ToolResult{CallID: c, Successful: true}})
	}
	return m
}

func textMsg(id string, status chat.Status) chat.Message {
	return chat.Message{ID: id, Role: chat.RoleAssistant, Status: status, Parts: chat.Parts{chat.TextPart{Text: id}}}
}

func ids(msgs []chat.Message) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.ID)
	}
	return out
}

func TestContextView(t *testing.T) {
	t.Parallel()
	history := []chat.Message{
		userMsg("u0"), callMsg("a0", "c0"), resultMsg("t0", "c0"), textMsg("f0", chat.StatusComplete),
		userMsg("u1"), callMsg("a1", "c1", "c2"), resultMsg("t1", "c1", "c2"), callMsg("a1b", "c3"), resultMsg("t1b", "c3"),
		textMsg("f1", chat.StatusComplete),
		userMsg("u2"), callMsg("a2", "c4"), resultMsg("t2", "c4"),
	}
	orig := slices.Clone(history)
	tests := []struct {
		drop int
		want string
	}{
		{0, "u0"}, {1, "u1"}, {2, "u2"}, {9, "u2"},
	}
	for _, tt := range tests {
		got := contextView(history, tt.drop)
		if got[0].ID != tt.want {
			t.Errorf("contextView(drop %d) starts at %s, want %s", tt.drop, got[0].ID, tt.want)
		}
		checkView(t, history, got)
	}
	if !reflect.DeepEqual(history, orig) {
		t.Errorf("contextView modified the history")
	}
	if got := droppableTurns(history); got != 2 {
		t.Errorf("droppableTurns = %d, want 2", got)
	}
}

// checkView asserts the view invariants: a suffix of history that starts
// with a user message, in which every assistant message with tool calls is
// directly followed by the tool message answering them.
func checkView(t *testing.T, history, view []chat.Message) {
	t.Helper()
	if len(view) == 0 || view[0].Role != chat.RoleUser {
		t.Fatalf("view %v does not start with a user message", ids(view))
	}
	if !slices.Equal(ids(history[len(history)-len(view):]), ids(view)) {
		t.Fatalf("view %v is not a suffix of the history", ids(view))
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

// TestContextViewRandom checks the invariants on random well-formed
// histories for every drop count.
func TestContextViewRandom(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 200 {
		var history []chat.Message
		call := 0
		for turn := range 1 + rng.IntN(6) {
			history = append(history, userMsg(fmt.Sprintf("u%d-%d", n, turn)))
			for step := range rng.IntN(4) {
				var cs []string
				for range 1 + rng.IntN(3) {
					cs = append(cs, fmt.Sprintf("c%d", call))
					call++
				}
				history = append(history, callMsg(fmt.Sprintf("a%d-%d", turn, step), cs...), resultMsg(fmt.Sprintf("t%d-%d", turn, step), cs...))
			}
			if rng.IntN(4) > 0 {
				history = append(history, textMsg(fmt.Sprintf("f%d", turn), chat.StatusComplete))
			}
		}
		for drop := range droppableTurns(history) + 2 {
			checkView(t, history, contextView(history, drop))
		}
	}
}

func TestNextDrop(t *testing.T) {
	t.Parallel()
	tests := []struct {
		current, droppable, want int
		ok                       bool
	}{
		{0, 0, 0, false},
		{0, 1, 1, true},
		{1, 1, 1, false},
		{0, 4, 1, true},
		{1, 4, 2, true},
		{2, 4, 4, true},
		{4, 4, 4, false},
		{0, 10, 3, true},
		{3, 10, 5, true},
		{5, 10, 10, true},
	}
	for _, tt := range tests {
		got, ok := nextDrop(tt.current, tt.droppable)
		if got != tt.want || ok != tt.ok {
			t.Errorf("nextDrop(%d, %d) = %d, %v; want %d, %v", tt.current, tt.droppable, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSendable(t *testing.T) {
	t.Parallel()
	history := []chat.Message{
		userMsg("u"), textMsg("superseded", StatusSuperseded), textMsg("failed", chat.StatusFailed),
		textMsg("stopped", chat.StatusCanceled), textMsg("crashed", chat.StatusStreaming), textMsg("done", chat.StatusComplete),
		resultMsg("tool"),
	}
	if got, want := ids(sendableHistory(history)), []string{"u", "stopped", "crashed", "done", "tool"}; !slices.Equal(got, want) {
		t.Errorf("sendable = %v, want %v", got, want)
	}
}

func TestUsedTools(t *testing.T) {
	t.Parallel()
	history := []chat.Message{userMsg("u"), callMsg("a", "x", "y"), resultMsg("t", "x", "y"), callMsg("b", "x")}
	if got, want := usedTools(history), []string{"srv.x", "srv.y"}; !slices.Equal(got, want) {
		t.Errorf("usedTools = %v, want %v (most recent first)", got, want)
	}
}

func TestAssembler(t *testing.T) {
	t.Parallel()
	sig := func(s string) chat.ProviderData {
		return chat.ProviderData{"gemini": json.RawMessage(`{"thoughtSignature":"` + s + `"}`)}
	}
	ov := Overlay{Tools: []chat.Tool{{Name: "srv__echo", Canonical: "srv.echo"}}}
	var events []Event
	a := newAssembler("run", "gemini", ov, func(ev Event) { events = append(events, ev) })
	for _, ev := range []chat.Event{
		chat.ReasoningDelta{Text: "hm"}, chat.ReasoningDelta{Text: "m"}, chat.ReasoningDone{ProviderData: sig("r")},
		chat.TextDelta{Text: "Hel"}, chat.TextDelta{Text: "lo", ProviderData: sig("t")}, chat.TextDelta{Text: "!", ProviderData: sig("u")},
		chat.ToolCallDelta{Index: 0, Fragment: `{"x"`}, // a fragment before its start
		chat.ToolCallDone{Index: 0, Name: "srv__echo", ID: "g1", Arguments: json.RawMessage(`{"x":1}`), ProviderData: sig("c")},
		chat.ToolCallStart{Index: 1, Name: "other__tool"},
		chat.ToolCallDone{Index: 1, Name: "other__tool"},
		chat.Finish{Reason: "tool_calls"},
	} {
		a.add(ev)
	}
	parts := a.message()
	if len(parts) != 5 {
		t.Fatalf("got %d parts %#v, want reasoning, 2 text, 2 calls", len(parts), parts)
	}
	if r := parts[0].(chat.ReasoningPart); r.Text != "hmm" || r.ProviderData == nil {
		t.Errorf("reasoning part %+v", r)
	}
	if tp := parts[1].(chat.TextPart); tp.Text != "Hello" || string(tp.ProviderData["gemini"]) != `{"thoughtSignature":"t"}` {
		t.Errorf("first text part %+v, want Hello signed t", tp)
	}
	if tp := parts[2].(chat.TextPart); tp.Text != "!" {
		t.Errorf("second text part %+v, want the separately signed !", tp)
	}
	c := parts[3].(chat.ToolCallPart).Call
	if c.Name != "srv.echo" || c.ProviderIDs["gemini"] != "g1" || string(c.Arguments) != `{"x":1}` || c.ProviderData == nil {
		t.Errorf("call %+v", c)
	}
	if u := parts[4].(chat.ToolCallPart).Call; u.Name != "other__tool" || string(u.Arguments) != "{}" || a.calls[1].known {
		t.Errorf("unknown call %+v (known %v)", u, a.calls[1].known)
	}
	var started []ToolCallStarted
	for _, ev := range events {
		if s, ok := ev.(ToolCallStarted); ok {
			started = append(started, s)
		}
	}
	if len(started) != 3 || started[1].CallID != c.ID || started[1].Name != "srv.echo" {
		t.Errorf("ToolCallStarted events %+v, want the canonical id and name once known", started)
	}
}

// TestAssemblerOutputOrder: a call keeps the place it started in, among
// text and other calls, when calls complete in another order; a call
// still streaming is left out of the message.
func TestAssemblerOutputOrder(t *testing.T) {
	t.Parallel()
	ov := Overlay{Tools: []chat.Tool{{Name: "srv__echo", Canonical: "srv.echo"}}}
	a := newAssembler("run", "openai", ov, func(Event) {})
	for _, ev := range []chat.Event{
		chat.TextDelta{Text: "a"},
		chat.ToolCallStart{Index: 0, ID: "c0", Name: "srv__echo"},
		chat.ToolCallStart{Index: 1, ID: "c1", Name: "srv__echo"},
		chat.ToolCallStart{Index: 2, ID: "c2", Name: "srv__echo"},
		chat.ToolCallDone{Index: 2, ID: "c2", Name: "srv__echo", Arguments: json.RawMessage(`{"n":2}`)},
		chat.TextDelta{Text: "b"},
		chat.ToolCallDone{Index: 0, ID: "c0", Name: "srv__echo", Arguments: json.RawMessage(`{"n":0}`)},
	} {
		a.add(ev)
	}
	var got []string
	for _, p := range a.message() {
		switch p := p.(type) {
		case chat.TextPart:
			got = append(got, p.Text)
		case chat.ToolCallPart:
			got = append(got, p.Call.ProviderIDs["openai"])
		}
	}
	if want := "a c0 c2 b"; strings.Join(got, " ") != want {
		t.Errorf("parts %v; want %s (c1 still streaming)", got, want)
	}
	a.add(chat.ToolCallDone{Index: 1, ID: "c1", Name: "srv__echo", Arguments: json.RawMessage(`{"n":1}`)})
	var ids []string
	for _, c := range (chat.Message{Parts: a.message()}).ToolCalls() {
		ids = append(ids, c.ProviderIDs["openai"])
	}
	if strings.Join(ids, " ") != "c0 c1 c2" || len(a.calls) != 3 {
		t.Errorf("calls %v (%d infos); want c0 c1 c2", ids, len(a.calls))
	}
}
