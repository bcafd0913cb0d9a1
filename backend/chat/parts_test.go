package chat_test

import (
	"encoding/json"
	"errors"
	"maestro/backend/chat"
	"maestro/backend/chat/chattest"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestPartsRoundTrip(t *testing.T) {
	t.Parallel()
	for _, want := range chattest.Messages() {
		t.Run(want.ID, func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(want)
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			var got chat.Message
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatalf("unmarshal %s: %v", b, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("round trip changed the message\n got: %#v\nwant: %#v\njson: %s", got, want, b)
			}
		})
	}
}

func TestPartsTaggedForm(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(chat.Parts{chat.TextPart{Text: "a"}, chat.ToolCallPart{Call: chat.ToolCall{ID: "c", Name: "s.t"}}, chat.ReasoningPart{}})
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"type":"text","text":"a"},{"type":"tool_call","call":{"id":"c","name":"s.t"}},{"type":"reasoning"}]`
	if string(b) != want {
		t.Errorf("got %s\nwant %s", b, want)
	}
}

func TestPartsRejectsBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, wantErr string
	}{
		{"unknown type", `[{"type":"video"}]`, `unknown part type "video"`},
		{"not an array", `{"type":"text"}`, "cannot unmarshal"},
		{"bad field", `[{"type":"text","text":5}]`, "cannot unmarshal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var ps chat.Parts
			err := json.Unmarshal([]byte(tt.in), &ps)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Unmarshal(%s) error = %v, want it to contain %q", tt.in, err, tt.wantErr)
			}
		})
	}
	if _, err := json.Marshal(chat.Parts{nil}); !errors.Is(err, chat.ErrInvalid) {
		t.Errorf("marshal nil part: got %v, want ErrInvalid", err)
	}
}

func TestKind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want string
	}{
		{nil, ""},
		{errors.New("boom"), chat.KindInternal},
		{chat.ErrNotFound, chat.KindNotFound},
		{errors.Join(errors.New("x"), chat.ErrUnavailable), chat.KindUnavailable},
		{wrap(wrap(chat.ErrAuthRequired)), chat.KindAuthRequired},
	}
	for _, tt := range tests {
		if got := chat.Kind(tt.err); got != tt.want {
			t.Errorf("Kind(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

func TestE(t *testing.T) {
	t.Parallel()
	cause := errors.New("invalid database")
	err := chat.E(chat.ErrUnavailable, "the data file %s is damaged (%w)", "/x/maestro.db", cause)
	if got, want := err.Error(), "the data file /x/maestro.db is damaged (invalid database)"; got != want {
		t.Errorf("E message = %q, want %q (the kind's word must not be appended)", got, want)
	}
	if !errors.Is(err, chat.ErrUnavailable) || !errors.Is(err, cause) || chat.Kind(err) != chat.KindUnavailable {
		t.Errorf("E(%v) should be both its kind and its cause", err)
	}
}

func wrap(err error) error { return errors.Join(errors.New("ctx"), err) }

func TestNormalizeTitle(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want, wantErr string }{
		{"  Trip   plans \n", "Trip plans", ""},
		{"   ", "", "empty"},
		{strings.Repeat("é", chat.MaxTitleLen), strings.Repeat("é", chat.MaxTitleLen), ""},
		{strings.Repeat("é", chat.MaxTitleLen+1), "", "at most"},
	}
	for _, tt := range tests {
		got, err := chat.NormalizeTitle(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, chat.ErrInvalid) {
				t.Errorf("NormalizeTitle(%q) error = %v, want chat.ErrInvalid containing %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("NormalizeTitle(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestNewIDSortsByCreation(t *testing.T) {
	t.Parallel()
	prev := chat.NewID()
	for i := range 10_000 { // many fall in the same millisecond
		if i == 5000 {
			time.Sleep(2 * time.Millisecond)
		}
		id := chat.NewID()
		if len(id) != 32 || id <= prev {
			t.Fatalf("NewID #%d = %q after %q; want 32 hex chars, strictly increasing", i, id, prev)
		}
		prev = id
	}
}

func TestReplayArguments(t *testing.T) {
	t.Parallel()
	tests := []struct {
		call chat.ToolCall
		want string
	}{
		{chat.ToolCall{Arguments: json.RawMessage(`{"a":1}`)}, `{"a":1}`},
		{chat.ToolCall{Arguments: json.RawMessage(`{}`), InvalidArguments: `{"a": <1>`}, `{"INVALID_JSON":"{\"a\": \u003c1\u003e"}`},
		{chat.ToolCall{Arguments: json.RawMessage(`{}`), InvalidArguments: "[1]\n"}, `{"INVALID_JSON":"[1]\n"}`},
	}
	for _, tt := range tests {
		got := tt.call.ReplayArguments()
		if string(got) != tt.want || !json.Valid(got) {
			t.Errorf("ReplayArguments(%+v) = %s; want %s", tt.call, got, tt.want)
		}
	}
}
