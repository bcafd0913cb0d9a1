package agent

import (
	"encoding/json"
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

func TestSendable(t *testing.T) {
	t.Parallel()
	history := []chat.Message{
		userMsg("u"), textMsg("superseded", StatusSuperseded), textMsg("failed", chat.StatusFailed),
		textMsg("stopped", chat.StatusCanceled), textMsg("crashed", chat.StatusStreaming), textMsg("done", chat.StatusComplete),
		resultMsg("tool"),
	}
	var got []string
	for _, m := range history {
		if sendable(m) {
			got = append(got, m.ID)
		}
	}
	if want := []string{"u", "stopped", "crashed", "done", "tool"}; !slices.Equal(got, want) {
		t.Errorf("sendable = %v, want %v", got, want)
	}
}

func TestUsedTools(t *testing.T) {
	t.Parallel()
	history := seq(userMsg("u"), callMsg("a", "x", "y"), resultMsg("t", "x", "y"), callMsg("b", "x"))
	var v view
	v.update(history)
	if got, want := v.usedTools(), []string{"srv.x", "srv.y"}; !slices.Equal(got, want) {
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
