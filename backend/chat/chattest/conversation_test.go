package chattest

import (
	"encoding/json"
	"testing"

	"maestro/backend/chat"
)

func TestConversation(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 7, 1000} {
		msgs := Conversation(n)
		if len(msgs) != n {
			t.Fatalf("Conversation(%d) has %d messages", n, len(msgs))
		}
		calls := map[string]bool{}
		for i, m := range msgs {
			if i > 0 && !m.CreatedAt.After(msgs[i-1].CreatedAt) {
				t.Errorf("message %d: CreatedAt %v is not after %v", i, m.CreatedAt, msgs[i-1].CreatedAt)
			}
			for _, c := range m.ToolCalls() {
				calls[c.ID] = true
			}
			for _, p := range m.Parts {
				if r, ok := p.(chat.ToolResultPart); ok && !calls[r.Result.CallID] {
					t.Errorf("message %d: result for %s comes before its call", i, r.Result.CallID)
				}
			}
			if _, err := json.Marshal(m); err != nil {
				t.Errorf("message %d does not encode: %v", i, err)
			}
		}
	}
	if a, b := Conversation(50), Conversation(50); mustJSON(t, a) != mustJSON(t, b) {
		t.Error("Conversation is not deterministic")
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
