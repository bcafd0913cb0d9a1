package agent_test

import (
	"strings"
	"testing"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
)

// What a process killed mid-turn leaves in the store: checkpoints still
// marked streaming. Recover settles them so the turn can be retried, and a
// retry continues from the completed tool results.
func TestRecoverSettlesACrashedTurn(t *testing.T) {
	t.Parallel()
	calls := []chat.ToolCall{
		{ID: "c1", Name: "demo.echo", Arguments: []byte(`{"text":"a"}`)},
		{ID: "c2", Name: "demo.echo", Arguments: []byte(`{"text":"b"}`)},
	}
	tests := []struct {
		name string
		// after is what the dead process wrote after the assistant's tool calls.
		after      []chat.Message
		wantFailed bool // the last assistant message is settled as failed
	}{
		{name: "killed while a tool ran", after: []chat.Message{
			{Role: chat.RoleTool, Status: chat.StatusStreaming, Parts: chat.Parts{chat.ToolResultPart{Result: chat.ToolResult{CallID: "c1", Name: "demo.echo", Successful: true, Data: []byte(`"a"`)}}}},
		}},
		{name: "killed while the next reply streamed", wantFailed: true, after: []chat.Message{
			{Role: chat.RoleTool, Status: chat.StatusComplete, Parts: chat.Parts{
				chat.ToolResultPart{Result: chat.ToolResult{CallID: "c1", Name: "demo.echo", Successful: true, Data: []byte(`"a"`)}},
				chat.ToolResultPart{Result: chat.ToolResult{CallID: "c2", Name: "demo.echo", Successful: true, Data: []byte(`"b"`)}}}},
			{Role: chat.RoleAssistant, Status: chat.StatusStreaming, Parts: chat.Parts{chat.TextPart{Text: "Both echoes ca"}}},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, "anthropic")
			ctx := t.Context()
			assistant := chat.Message{Role: chat.RoleAssistant, Status: chat.StatusComplete, Provider: "anthropic"}
			for _, c := range calls {
				assistant.Parts = append(assistant.Parts, chat.ToolCallPart{Call: c})
			}
			for _, m := range append([]chat.Message{
				{Role: chat.RoleUser, Status: chat.StatusComplete, Parts: chat.Parts{chat.TextPart{Text: "echo a and b"}}},
				assistant,
			}, tc.after...) {
				if _, err := h.store.AppendMessage(ctx, h.sessID, m); err != nil {
					t.Fatal(err)
				}
			}

			msgs, n, err := agent.Recover(ctx, h.store, h.sessID, h.messages())
			if err != nil || n != 1 {
				t.Fatalf("Recover rewrote %d messages (err %v), want 1", n, err)
			}
			stored := h.messages()
			for i, m := range stored {
				if m.Status == chat.StatusStreaming {
					t.Errorf("message %d (%s) is still streaming after Recover", i, m.Role)
				}
				if m.Status != msgs[i].Status {
					t.Errorf("message %d: returned status %s, stored %s", i, msgs[i].Status, m.Status)
				}
			}
			tool := stored[2]
			if got := len(tool.Parts); got != 2 {
				t.Fatalf("tool message has %d results after Recover, want 2 (one per call)", got)
			}
			if last := stored[len(stored)-1]; tc.wantFailed {
				if last.Status != chat.StatusFailed || !strings.Contains(last.Error, "closed before") || last.Text() != "Both echoes ca" {
					t.Errorf("interrupted reply = %s %q %q, want failed with its partial text kept", last.Status, last.Error, last.Text())
				}
				if last.Failure == nil || last.Failure.Kind != chat.KindInterrupted {
					t.Errorf("interrupted reply failure = %+v, want kind %q", last.Failure, chat.KindInterrupted)
				}
			} else if r := tool.Parts[1].(chat.ToolResultPart).Result; r.CallID != "c2" || !strings.Contains(r.Error, "closed before") {
				t.Errorf("missing result filled as %+v, want an error result for c2", r)
			}
			if _, n, _ := agent.Recover(ctx, h.store, h.sessID, h.messages()); n != 0 {
				t.Errorf("a second Recover rewrote %d messages, want 0", n)
			}

			// The turn can be retried and continues from the tool results.
			h.script("anthropic").Push(fakescript.Reply{Text: "Echoed a and b."})
			if _, err := h.run(ctx, agent.RunInput{Retry: true}, nil); err != nil {
				t.Fatalf("retry after Recover: %v", err)
			}
			reqs := h.requests("anthropic")
			body := string(reqs[len(reqs)-1].Body)
			if strings.Contains(body, "Both echoes ca") {
				t.Errorf("the interrupted partial reply was sent again: %s", body)
			}
			if c := strings.Count(body, `"type":"tool_result"`); c != 2 {
				t.Errorf("retry request has %d tool_result blocks, want 2: %s", c, body)
			}
			if got := h.messages(); got[len(got)-1].Text() != "Echoed a and b." {
				t.Errorf("last message after retry = %q", got[len(got)-1].Text())
			}
		})
	}
}
