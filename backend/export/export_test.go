package export

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"maestro/backend/agent"
	"maestro/backend/chat"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// sample is a session that uses every part type, with secrets in the
// places an export must drop.
func sample() (chat.Session, []chat.Message) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	sess := chat.Session{
		ID: "sess1", Title: "Read the notes", Provider: "gemini", Model: "gemini-2.5-pro",
		EnabledConnectors: []string{"files"}, Grants: []string{"files.read_file"}, Roots: []string{"/home/me/private"},
		SystemPrompt: "Answer briefly.\nUse metric units.",
		Usage:        chat.Usage{InputTokens: 3300, OutputTokens: 64, CacheReadTokens: 1000, ReasoningTokens: 20},
		CreatedAt:    at, UpdatedAt: at.Add(time.Minute),
	}
	secret := chat.ProviderData{"gemini": json.RawMessage(`{"thoughtSignature":"c2lnbmF0dXJl"}`),
		"openai": json.RawMessage(`{"encrypted_content":"gAAAAB-secret"}`)}
	msgs := []chat.Message{
		{ID: "m1", Role: chat.RoleUser, Status: chat.StatusComplete, Parts: chat.Parts{chat.TextPart{Text: "What is in notes.txt?"},
			chat.ResourcePart{URI: "file:///notes/plan.md", ConnectorID: "files", Server: "Files", Name: "plan.md", Title: "The plan",
				MIMEType: "text/markdown", Text: "resource body, never exported"},
			chat.FilePart{Name: "dot [1].png", MIMEType: "image/png", Size: 68, Data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="},
			chat.FilePart{Name: "todo.md", MIMEType: "text/markdown; charset=utf-8", Size: 21, Data: "IyBUb2RvCi0gYnV5IG1pbGsK"},
			chat.FilePart{Name: "report.pdf", MIMEType: "application/pdf", Size: 9, Data: "JVBERi0xLjQK"}}},
		{ID: "m2", Role: chat.RoleAssistant, Status: chat.StatusComplete, Provider: "gemini", Model: "gemini-2.5-pro",
			Usage: &chat.Usage{InputTokens: 1200, OutputTokens: 40, ReasoningTokens: 20}, Parts: chat.Parts{
				chat.ReasoningPart{Text: "I should read the file.", ProviderData: secret},
				chat.TextPart{Text: "Let me look.", ProviderData: secret},
				chat.ToolCallPart{Call: chat.ToolCall{ID: "call1", Name: "files.read_file", Arguments: json.RawMessage(`{"path":"notes.txt"}`),
					ProviderIDs: map[string]string{"gemini": "g-1"}, ProviderData: secret}},
			}},
		{ID: "m3", Role: chat.RoleTool, Status: chat.StatusComplete, Parts: chat.Parts{chat.ToolResultPart{Result: chat.ToolResult{
			CallID: "call1", Name: "files.read_file", Successful: true, Data: json.RawMessage(`{"text":"buy milk"}`),
			Raw: json.RawMessage(`{"content":[{"type":"text","text":"buy milk"}],"_meta":{"token":"raw-secret"}}`), DurationMS: 12,
		}}}},
		{ID: "m4", Role: chat.RoleAssistant, Status: agent.StatusSuperseded, Parts: chat.Parts{chat.TextPart{Text: "abandoned attempt"}}},
		{ID: "m5", Role: chat.RoleAssistant, Status: chat.StatusComplete, Usage: &chat.Usage{InputTokens: 2100, OutputTokens: 24, CacheReadTokens: 1000},
			Parts: chat.Parts{chat.TextPart{Text: "It says: buy milk.", ProviderData: secret}}},
	}
	for i := range msgs {
		msgs[i].Seq = uint64(i + 1)
		msgs[i].CreatedAt = at.Add(time.Duration(i+1) * time.Second)
	}
	return sess, msgs
}

// secrets lists what no export may contain.
var secrets = []string{"providerData", "thoughtSignature", "encrypted_content", "c2lnbmF0dXJl",
	"gAAAAB", "raw-secret", "providerIds", "g-1", "/home/me/private", "abandoned attempt", "enabledConnectors", "grants",
	"resource body"}

func TestWriteGolden(t *testing.T) {
	t.Parallel()
	sess, msgs := sample()
	for _, tc := range []struct {
		format Format
		file   string
	}{{Markdown, "export.md.golden"}, {JSON, "export.json.golden"}} {
		t.Run(string(tc.format), func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			if err := Write(&buf, tc.format, sess, slices.Values(msgs)); err != nil {
				t.Fatal(err)
			}
			got := buf.String()
			for _, secret := range secrets {
				if strings.Contains(got, secret) {
					t.Errorf("%s export contains %q:\n%s", tc.format, secret, got)
				}
			}
			if tc.format == JSON && !json.Valid(buf.Bytes()) {
				t.Errorf("the JSON export is not valid JSON:\n%s", got)
			}
			path := filepath.Join("testdata", tc.file)
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("%s export differs from %s (run with -update to accept):\n%s", tc.format, path, got)
			}
		})
	}
}

// TestWriteJSONFraming: the hand-framed JSON document reads back as what
// encoding/json would have written, with no messages, one, or several.
func TestWriteJSONFraming(t *testing.T) {
	t.Parallel()
	sess, msgs := sample()
	for _, n := range []int{0, 1, len(msgs)} {
		var buf bytes.Buffer
		if err := Write(&buf, JSON, sess, slices.Values(msgs[:n])); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Format   string            `json:"format"`
			Session  jsonSession       `json:"session"`
			Messages []json.RawMessage `json:"messages"`
		}
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatalf("%d messages: %v\n%s", n, err, buf.String())
		}
		want := n
		if n == len(msgs) {
			want-- // the superseded attempt is left out
		}
		if doc.Format != jsonFormat || doc.Session.ID != sess.ID || doc.Messages == nil || len(doc.Messages) != want {
			t.Errorf("%d messages: format %q, session %q, %d messages; want %q, %q, %d", n, doc.Format, doc.Session.ID,
				len(doc.Messages), jsonFormat, sess.ID, want)
		}
		indented, _ := json.MarshalIndent(json.RawMessage(buf.Bytes()), "", "  ")
		if got := buf.String(); got != string(indented)+"\n" {
			t.Errorf("%d messages: not indented as encoding/json indents:\n%s", n, got)
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteErrors(t *testing.T) {
	t.Parallel()
	sess, msgs := sample()
	if err := Write(&bytes.Buffer{}, "pdf", sess, slices.Values(msgs)); chat.Kind(err) != chat.KindInvalid {
		t.Errorf("unknown format: %v; want kind invalid", err)
	}
	for _, f := range Formats() {
		if err := Write(failingWriter{}, f, sess, slices.Values(msgs)); err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("%s to a failing writer: %v; want the writer's error", f, err)
		}
	}
}

func TestParseFormat(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want Format
		ok   bool
	}{{"markdown", Markdown, true}, {"json", JSON, true}, {"pdf", "", false}, {"", "", false}, {"JSON", "", false}} {
		got, err := ParseFormat(tt.in)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("ParseFormat(%q) = %q, %v; want %q, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestFileName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		title  string
		format Format
		want   string
	}{
		{"Read the notes", Markdown, "Read the notes.md"},
		{"Summarise notes.md", Markdown, "Summarise notes.md"},
		{"Summarise notes.MD", Markdown, "Summarise notes.MD"},
		{"Parse config.json", Markdown, "Parse config.json.md"},
		{"Parse config.json", JSON, "Parse config.json"},
		{"Ends with a dot.", Markdown, "Ends with a dot.md"},
		{"a/b: c?", JSON, "a-b- c-.json"},
		{"  ", Markdown, "chat.md"},
		{"..", JSON, "chat.json"},
	}
	for _, tt := range tests {
		if got := FileName(tt.title, tt.format); got != tt.want {
			t.Errorf("FileName(%q, %s) = %q; want %q", tt.title, tt.format, got, tt.want)
		}
	}
}
