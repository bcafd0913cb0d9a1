package tools

import (
	"maestro/backend/chat"
	"strings"
	"testing"
)

func TestErrorResult(t *testing.T) {
	t.Parallel()
	got := ErrorResult("c1", "github.create_issue", "unauthorized: sign in to GitHub")
	want := chat.ToolResult{CallID: "c1", Name: "github.create_issue", Successful: false, Error: "unauthorized: sign in to GitHub"}
	if got.CallID != want.CallID || got.Name != want.Name || got.Successful || got.Error != want.Error || got.Data != nil {
		t.Errorf("ErrorResult = %+v; want %+v", got, want)
	}
}

func TestHumanSize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n    int
		want string
	}{
		{0, "0 bytes"}, {1023, "1023 bytes"}, {1024, "1.0 KiB"}, {32 << 10, "32 KiB"},
		{812 << 10, "812 KiB"}, {1 << 20, "1.0 MiB"}, {15 << 20, "15 MiB"},
	}
	for _, tt := range tests {
		if got := HumanSize(tt.n); got != tt.want {
			t.Errorf("HumanSize(%d) = %q; want %q", tt.n, got, tt.want)
		}
	}
}

func TestEnvelope(t *testing.T) {
	t.Parallel()
	lim := ResultLimits{Model: 256}
	long := strings.Repeat("word ", 100)
	tests := []struct {
		name      string
		out       Output
		data, err string
		truncated bool
		size      int64
	}{
		{"no text", Output{}, `{}`, "", false, 0},
		{"a JSON object text is the data", Output{Texts: []Text{{Text: ` {"a": 1} `}}}, `{"a":1}`, "", false, 0},
		{"texts are joined", Output{Texts: []Text{{Text: "a"}, {Text: "b"}}}, `{"text":"a\nb"}`, "", false, 0},
		{"structured content wins", Output{Texts: []Text{{Text: "x"}}, Structured: []byte(`{"n":2}`)}, `{"n":2}`, "", false, 0},
		{"long text is cut", Output{Texts: []Text{{Text: long}}}, "", "", true, 500},
		{"a text the reader cut", Output{Texts: []Text{{Text: "abc", Size: 5000}}}, "", "", true, 5000},
		{"an error", Output{IsError: true, Texts: []Text{{Text: " denied "}}}, "", "denied", false, 0},
		{"an error without a message", Output{IsError: true}, "", "the tool reported an error without a message", false, 0},
	}
	for _, tt := range tests {
		got := Envelope(tt.out, lim)
		if got.Successful == tt.out.IsError {
			t.Errorf("%s: successful = %v", tt.name, got.Successful)
		}
		if tt.data != "" && string(got.Data) != tt.data {
			t.Errorf("%s: data = %s; want %s", tt.name, got.Data, tt.data)
		}
		if tt.truncated && (len(got.Data) > lim.Model || !strings.Contains(string(got.Data), "truncated: the result was")) {
			t.Errorf("%s: data = %s; want at most %d bytes with a note", tt.name, got.Data, lim.Model)
		}
		if got.Error != tt.err || got.Truncated != tt.truncated || got.Size != tt.size {
			t.Errorf("%s: error %q, truncated %v, size %d; want %q, %v, %d", tt.name, got.Error, got.Truncated, got.Size, tt.err, tt.truncated, tt.size)
		}
	}
}
