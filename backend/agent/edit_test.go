package agent_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
)

// TestEditForksTheConversation: a turn run with Edit stores the new user
// message next to the edited one, sends only the history before it, and
// keeps the old continuation as another branch.
func TestEditForksTheConversation(t *testing.T) {
	t.Parallel()
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, p)
			h.script(p).Push(
				fakescript.Reply{Text: "Lisbon is lovely in May."},
				fakescript.Reply{Text: "Pack light.", ToolCalls: []fakescript.ToolCall{call("srv__echo", `{"x":1}`)}},
				fakescript.Reply{Text: "Done packing."},
			)
			for _, q := range []string{"When should I visit Lisbon?", "What should I pack?"} {
				if _, err := h.run(t.Context(), user(q), nil); err != nil {
					t.Fatalf("turn %q: %v", q, err)
				}
			}
			old := h.messages()
			second := old[2] // user, assistant, [user], assistant, tool, assistant
			if second.Role != chat.RoleUser || second.Text() != "What should I pack?" {
				t.Fatalf("third message = %s %q", second.Role, second.Text())
			}

			h.script(p).Push(fakescript.Reply{Text: "Take the train from Porto."})
			sink := &recSink{}
			if _, err := h.run(t.Context(), agent.RunInput{Text: "How do I get there?", Edit: second.Seq}, sink); err != nil {
				t.Fatalf("edited turn: %v", err)
			}
			reqs := h.requests(p)
			body := string(reqs[len(reqs)-1].Body)
			for _, want := range []string{"When should I visit Lisbon?", "Lisbon is lovely in May.", "How do I get there?"} {
				if !strings.Contains(body, want) {
					t.Errorf("the edited turn's request lacks %q: %s", want, body)
				}
			}
			for _, gone := range []string{"What should I pack?", "Pack light.", "Done packing."} {
				if strings.Contains(body, gone) {
					t.Errorf("the edited turn's request still carries %q from the old branch", gone)
				}
			}

			msgs := h.messages()
			if got := texts(msgs); !reflect.DeepEqual(got, []string{"When should I visit Lisbon?", "Lisbon is lovely in May.", "How do I get there?", "Take the train from Porto."}) {
				t.Fatalf("active branch after the edit = %q", got)
			}
			edited := msgs[2]
			if edited.Parent != second.Parent || edited.Seq <= old[len(old)-1].Seq {
				t.Errorf("edited message: seq %d parent %d; want a new seq with parent %d", edited.Seq, edited.Parent, second.Parent)
			}
			saved := eventsOf[agent.MessageSaved](sink)
			if len(saved) == 0 || saved[0].Seq != edited.Seq || saved[0].Role != chat.RoleUser {
				t.Errorf("first MessageSaved = %+v; want the new user message %d", saved, edited.Seq)
			}
			sibs, err := h.store.Siblings(t.Context(), h.sessID, edited.Seq)
			if err != nil || !reflect.DeepEqual(sibs, []uint64{second.Seq, edited.Seq}) {
				t.Errorf("Siblings = %v, %v; want the old and the new message", sibs, err)
			}
			if _, err := h.store.SwitchBranch(t.Context(), h.sessID, second.Seq); err != nil {
				t.Fatal(err)
			}
			if got := texts(h.messages()); !reflect.DeepEqual(got, texts(old)) {
				t.Errorf("old branch = %q, want it unchanged: %q", got, texts(old))
			}
		})
	}
}

// TestEditRefusesBeforeWriting: an edit of a message that is not a user
// message of the active branch fails before anything is stored.
func TestEditRefusesBeforeWriting(t *testing.T) {
	t.Parallel()
	h := newHarness(t, chat.ProviderGemini)
	h.script(chat.ProviderGemini).Push(fakescript.Reply{Text: "Hi."})
	if _, err := h.run(t.Context(), user("hello"), nil); err != nil {
		t.Fatal(err)
	}
	// The last case first forks message 1, which puts 1 on another branch.
	tests := []struct {
		name string
		in   agent.RunInput
		want error
	}{
		{"an assistant message", agent.RunInput{Text: "x", Edit: 2}, chat.ErrInvalid},
		{"an unknown message", agent.RunInput{Text: "x", Edit: 42}, chat.ErrNotFound},
		{"an empty edit", agent.RunInput{Edit: 1}, chat.ErrInvalid},
		{"retry and edit", agent.RunInput{Retry: true, Edit: 1}, chat.ErrInvalid},
		{"a message on another branch", agent.RunInput{Text: "x", Edit: 1}, chat.ErrNotFound},
	}
	for _, tt := range tests {
		if tt.name == "a message on another branch" {
			if _, err := h.store.ForkMessage(t.Context(), h.sessID, 1, chat.Message{Role: chat.RoleUser, Parts: chat.Parts{chat.TextPart{Text: "hi"}}}); err != nil {
				t.Fatal(err)
			}
		}
		sink := &recSink{}
		_, err := h.run(t.Context(), tt.in, sink)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
		if n := len(eventsOf[agent.MessageSaved](sink)); n != 0 {
			t.Errorf("%s: %d messages saved, want none", tt.name, n)
		}
	}
	if got := texts(h.messages()); !reflect.DeepEqual(got, []string{"hi"}) {
		t.Errorf("active branch = %q, want only the fork made by the test", got)
	}
	if n := len(h.requests(chat.ProviderGemini)); n != 1 {
		t.Errorf("%d requests sent, want only the first turn's", n)
	}
}

func texts(msgs []chat.Message) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.Text())
	}
	return out
}
