package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/export"
)

// seedExportSession stores a session with fixed ids and times that uses
// every part type, with secrets in the places an export must drop.
func seedExportSession(t *testing.T, a *App) string {
	t.Helper()
	run, ctx := a.running(t)
	st := run.store
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	sess, err := st.CreateSession(ctx, chat.Session{
		ID: "sess1", Title: "Read the notes", Provider: "gemini", Model: "gemini-2.5-pro",
		EnabledConnectors: []string{"files"}, Grants: []string{"files.read_file"}, Roots: []string{"/home/me/private"},
		CreatedAt: at,
	})
	if err != nil {
		t.Fatal(err)
	}
	secret := chat.ProviderData{"gemini": json.RawMessage(`{"thoughtSignature":"c2lnbmF0dXJl"}`),
		"openai": json.RawMessage(`{"encrypted_content":"gAAAAB-secret"}`)}
	msgs := []chat.Message{
		{ID: "m1", Role: chat.RoleUser, Status: chat.StatusComplete, Parts: chat.Parts{chat.TextPart{Text: "What is in notes.txt?"}}},
		{ID: "m2", Role: chat.RoleAssistant, Status: chat.StatusComplete, Provider: "gemini", Model: "gemini-2.5-pro", Parts: chat.Parts{
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
		{ID: "m5", Role: chat.RoleAssistant, Status: chat.StatusComplete, Parts: chat.Parts{chat.TextPart{Text: "It says: buy milk.", ProviderData: secret}}},
	}
	for i, m := range msgs {
		m.CreatedAt = at.Add(time.Duration(i+1) * time.Second)
		if _, err := st.AppendMessage(ctx, sess.ID, m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.UpdateSession(ctx, sess.ID, func(s *chat.Session) error {
		s.UpdatedAt = at.Add(time.Minute)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return sess.ID
}

// TestExportSession: the bound call exports the stored session as
// backend/export writes it (its tests hold the goldens), without secrets.
func TestExportSession(t *testing.T) {
	t.Parallel()
	a, _ := startApp(t, t.TempDir())
	id := seedExportSession(t, a)
	run, ctx := a.running(t)
	st := run.store
	sess, _ := st.Session(ctx, id)
	msgs, _ := st.Messages(ctx, id)
	for _, f := range export.Formats() {
		t.Run(string(f), func(t *testing.T) {
			got, err := a.Sessions.Export(id, ExportFormat(f))
			if err != nil {
				t.Fatal(err)
			}
			var want strings.Builder
			if err := export.Write(&want, f, sess, slices.Values(msgs)); err != nil {
				t.Fatal(err)
			}
			if got != want.String() {
				t.Errorf("ExportSession(%s) =\n%s\nwant\n%s", f, got, want.String())
			}
			for _, secret := range []string{"thoughtSignature", "raw-secret", "/home/me/private", "abandoned attempt"} {
				if strings.Contains(got, secret) {
					t.Errorf("%s export contains %q", f, secret)
				}
			}
		})
	}
	if _, err := a.Sessions.Export(id, "pdf"); chat.Kind(err) != chat.KindInvalid {
		t.Errorf("unknown format: kind %q, want invalid", chat.Kind(err))
	}
	if _, err := a.Sessions.Export("missing", "json"); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("missing session: kind %q, want not_found", chat.Kind(err))
	}
}

func TestExportSessionToFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "out.md")
	var mu sync.Mutex
	var asked []FileDialog
	answer := out
	a, _ := startApp(t, "", withRuntime(Runtime{
		SaveFileDialog: func(_ context.Context, d FileDialog) (string, error) {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, d)
			return answer, nil
		},
	}))
	id := seedExportSession(t, a)

	path, err := a.Sessions.ExportToFile(id, "markdown")
	if err != nil || path != out {
		t.Fatalf("ExportSessionToFile = %q, %v", path, err)
	}
	body, err := os.ReadFile(out)
	if err != nil || !strings.HasPrefix(string(body), "# Read the notes") {
		t.Errorf("file = %q, %v", body, err)
	}
	mu.Lock()
	if len(asked) != 1 || asked[0].DefaultFilename != "Read the notes.md" || asked[0].Filters[0].Pattern != "*.md" {
		t.Errorf("dialog = %+v", asked)
	}
	answer = "" // cancelled
	mu.Unlock()
	if path, err := a.Sessions.ExportToFile(id, "json"); err != nil || path != "" {
		t.Errorf("cancelled export = %q, %v; want \"\", nil", path, err)
	}
}

func TestSearchSessions(t *testing.T) {
	t.Parallel()
	a, _ := startApp(t, t.TempDir())
	id := seedExportSession(t, a)
	other, err := a.Sessions.Create("Milk prices")
	if err != nil {
		t.Fatal(err)
	}
	hits, err := a.Sessions.Search("MILK")
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 2 || hits[0].SessionID != other.ID || hits[0].Seq != 0 ||
		hits[1].SessionID != id || hits[1].Seq != 5 || hits[1].Snippet != "It says: buy milk." || hits[1].Title != "Read the notes" {
		t.Fatalf("hits = %+v", hits)
	}
	if hits, err := a.Sessions.Search(""); err != nil || len(hits) != 0 || hits == nil {
		t.Errorf("empty query = %#v, %v; want an empty list", hits, err)
	}
}
