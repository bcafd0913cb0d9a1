package openai

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"maestro/backend/chat"
	"maestro/backend/chat/chattest"
	"maestro/backend/providers/fakescript"
)

// turn folds a stream's events into the assistant message the agent would
// store, so the next request can replay it.
func turn(evs []chat.Event) (chat.Message, []chat.ToolCallDone, chat.Finish) {
	m := chat.Message{Role: chat.RoleAssistant, Provider: chat.ProviderOpenAI}
	var text, thinking strings.Builder
	var calls []chat.ToolCallDone
	var fin chat.Finish
	for _, ev := range evs {
		switch ev := ev.(type) {
		case chat.TextDelta:
			text.WriteString(ev.Text)
		case chat.ReasoningDelta:
			thinking.WriteString(ev.Text)
		case chat.ReasoningDone:
			m.Parts = append(m.Parts, chat.ReasoningPart{Text: thinking.String(), ProviderData: ev.ProviderData})
			thinking.Reset()
		case chat.ToolCallDone:
			calls = append(calls, ev)
		case chat.Finish:
			fin = ev
		}
	}
	if text.Len() > 0 {
		m.Parts = append(m.Parts, chat.TextPart{Text: text.String()})
	}
	for i, c := range calls {
		m.Parts = append(m.Parts, chat.ToolCallPart{Call: chat.ToolCall{ID: "canon-" + c.ID, Name: "fs.read_file",
			Arguments: c.Arguments, ProviderIDs: map[string]string{chat.ProviderOpenAI: calls[i].ID}}})
	}
	return m, calls, fin
}

// A full tool loop against the fake: thinking, text and a call in
// fragments; then the follow-up replays the reasoning item and the call.
func TestRoundTripToolLoop(t *testing.T) {
	t.Parallel()
	f, m, _ := newFake(t)
	f.Script.Push(fakescript.Reply{Thinking: "**Reading** the file first.", Text: "Let me read it.",
		ToolCalls: []fakescript.ToolCall{{Name: "fs__read_file", Args: json.RawMessage(`{"path": "/etc/hosts"}`), Fragments: 5}}},
		fakescript.Reply{Text: "It maps localhost."})
	req := baseRequest(user("What is in /etc/hosts?"))
	req.Reasoning = &chat.Reasoning{Effort: "low"}
	evs, err := run(t.Context(), m, req)
	if err != nil {
		t.Fatal(err)
	}
	msg, calls, fin := turn(evs)
	if len(calls) != 1 || string(calls[0].Arguments) != `{"path":"/etc/hosts"}` || calls[0].Name != "fs__read_file" || fin.Reason != "tool_calls" {
		t.Fatalf("calls %+v, finish %+v; want one fs__read_file call and reason tool_calls", calls, fin)
	}
	deltas := 0
	for _, ev := range evs {
		if _, ok := ev.(chat.ToolCallDelta); ok {
			deltas++
		}
	}
	if deltas != 5 {
		t.Errorf("got %d argument deltas; want 5", deltas)
	}
	if _, ok := msg.Parts[0].(chat.ReasoningPart).ProviderData["openai"]; !ok {
		t.Fatalf("first part %#v; want reasoning with openai data", msg.Parts[0])
	}

	req.Messages = append(req.Messages, msg, results(ok("canon-"+calls[0].ID, "fs.read_file", `{"text":"127.0.0.1 localhost"}`)))
	evs, err = run(t.Context(), m, req)
	if err != nil {
		t.Fatalf("follow-up: %v (rejection %q)", err, f.Script.Requests()[1].Rejection)
	}
	if _, _, fin := turn(evs); fin.Reason != "stop" {
		t.Errorf("follow-up finish = %+v; want stop", fin)
	}
	var body struct {
		Input             []map[string]any `json:"input"`
		ParallelToolCalls bool             `json:"parallel_tool_calls"`
	}
	_ = json.Unmarshal(f.Script.Requests()[1].Body, &body)
	types := make([]string, len(body.Input))
	for i, it := range body.Input {
		types[i], _ = it["type"].(string)
	}
	want := []string{"message", "reasoning", "message", "function_call", "function_call_output"}
	if !reflect.DeepEqual(types, want) || !body.ParallelToolCalls {
		t.Errorf("follow-up input %v, parallel %v; want %v and gpt-5.5's true", types, body.ParallelToolCalls, want)
	}
}

// Every scripted failure reaches the caller as the right kind.
func TestRoundTripErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reply    fakescript.Reply
		inStream bool
		kind     chat.ProviderKind
		code     string
		check    func(*chat.ProviderError) bool
	}{
		{fakescript.Reply{Error: "401"}, false, chat.ProviderKindAuth, "token_expired", nil},
		{fakescript.Reply{Error: "429", RetryAfter: 3}, false, chat.ProviderKindRateLimit, "rate_limit_exceeded",
			func(e *chat.ProviderError) bool { return e.RetryAfter == 3*time.Second }},
		{fakescript.Reply{Error: "529"}, false, chat.ProviderKindOverloaded, "server_is_overloaded", nil},
		{fakescript.Reply{Error: "usage_limit", RetryAfter: 600}, false, chat.ProviderKindQuota, "usage_limit_reached",
			func(e *chat.ProviderError) bool {
				return time.Until(e.ResetAt) > 590*time.Second && strings.Contains(e.Message, "plus")
			}},
		{fakescript.Reply{Error: "usage_not_included"}, false, chat.ProviderKindEntitlement, "usage_not_included", nil},
		{fakescript.Reply{Error: "instructions_not_valid"}, false, chat.ProviderKindInvalidRequest, "instructions_not_valid", nil},
		{fakescript.Reply{Error: "originator_rejected"}, false, chat.ProviderKindForbidden, "originator_rejected", nil},
		{fakescript.Reply{Error: "server"}, false, chat.ProviderKindServer, "server_error", nil},
		{fakescript.Reply{Error: "context_too_large"}, true, chat.ProviderKindContextTooLarge, "context_length_exceeded", nil},
		{fakescript.Reply{Error: "stream_error"}, true, chat.ProviderKindServer, "server_error", nil},
		{fakescript.Reply{Error: "insufficient_quota"}, true, chat.ProviderKindQuota, "insufficient_quota", nil},
		{fakescript.Reply{Text: "cut short", DisconnectAfter: 5}, true, chat.ProviderKindStream, "", nil},
	}
	for _, tt := range tests {
		name := tt.reply.Error
		if name == "" {
			name = "disconnect"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f, m, _ := newFake(t)
			f.Script.Push(tt.reply)
			seq, err := m.Stream(t.Context(), baseRequest(user("x")))
			if !tt.inStream {
				if seq != nil {
					t.Fatalf("Stream returned a sequence; want the %s error before streaming", tt.kind)
				}
			} else {
				if err != nil {
					t.Fatalf("Stream: %v; want the failure inside the stream", err)
				}
				for _, e := range seq {
					err = e
				}
			}
			var he *chat.ProviderError
			if !errors.As(err, &he) || he.Kind != tt.kind || he.Code != tt.code || tt.check != nil && !tt.check(he) {
				t.Errorf("err = %+v; want kind %s, code %q", err, tt.kind, tt.code)
			}
		})
	}
}

// The shared sample history (every part shape, from three providers) is a
// request the fake accepts.
func TestSampleHistoryAccepted(t *testing.T) {
	t.Parallel()
	f, m, _ := newFake(t)
	req := baseRequest(append(chattest.Messages(), user("and now?"))...)
	req.ToolNames["everything.echo"] = "everything__echo"
	if _, err := run(t.Context(), m, req); err != nil {
		t.Fatalf("err = %v (rejection %q)", err, f.Script.Requests()[0].Rejection)
	}
}
