package store

import (
	"encoding/json"
	"strings"
	"testing"

	"maestro/backend/chat"
)

func TestSearch(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := testStore(t)

	mk := func(title string, msgs ...chat.Message) chat.Session {
		t.Helper()
		sess, err := s.CreateSession(ctx, chat.Session{Title: title})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			if _, err := s.AppendMessage(ctx, sess.ID, m); err != nil {
				t.Fatal(err)
			}
		}
		return sess
	}
	text := func(role chat.Role, s string) chat.Message {
		return chat.Message{Role: role, Parts: chat.Parts{chat.TextPart{Text: s}}}
	}
	long := strings.Repeat("lorem ipsum ", 30) + "the NEEDLE sits here " + strings.Repeat("dolor sit ", 30)

	trip := mk("Trip plans", text(chat.RoleUser, "Where should we go in Kyoto?"))
	tools := mk("Files", chat.Message{Role: chat.RoleAssistant, Parts: chat.Parts{
		chat.ReasoningPart{Text: "secret kyoto thoughts"},
		chat.ToolCallPart{Call: chat.ToolCall{ID: "c1", Name: "files.read_file", Arguments: json.RawMessage(`{"path":"/tmp"}`)}},
	}})
	haystack := mk("Long", text(chat.RoleUser, long), text(chat.RoleAssistant, "nothing"))
	kyotoTitle := mk("Kyoto food", text(chat.RoleUser, "ramen"))
	attached := mk("Attachments", chat.Message{Role: chat.RoleUser, Parts: chat.Parts{
		chat.FilePart{Name: "diagram.png", MIMEType: "image/png", Data: "iVBORw0KGgo="},
		chat.ResourcePart{URI: "demo://resource/static/document/features.md", Name: "features.md", Server: "Everything",
			MIMEType: "text/markdown", Text: "the hidden resource body"},
	}})
	superseded := mk("Old", chat.Message{Role: chat.RoleAssistant, Status: "superseded", Parts: chat.Parts{chat.TextPart{Text: "ghostword"}}})

	tests := []struct {
		name     string
		query    string
		limit    int
		want     []string // session ids in order
		seqs     []uint64
		snippets []string // substrings each snippet must contain
	}{
		{name: "empty query", query: "  ", limit: 10, want: nil},
		{name: "no match", query: "zebra", limit: 10, want: nil},
		{name: "title first then recent", query: "KYOTO", limit: 10,
			want: []string{kyotoTitle.ID, trip.ID}, seqs: []uint64{0, 1}, snippets: []string{"Kyoto food", "in Kyoto?"}},
		{name: "tool call name", query: "read_file", limit: 10,
			want: []string{tools.ID}, seqs: []uint64{1}, snippets: []string{"files.read_file"}},
		{name: "reasoning not searched", query: "thoughts", limit: 10, want: nil},
		{name: "superseded skipped", query: "ghostword", limit: 10, want: nil},
		{name: "snippet context", query: "needle", limit: 10,
			want: []string{haystack.ID}, seqs: []uint64{1}, snippets: []string{"…"}},
		{name: "attached file name", query: "DIAGRAM.png", limit: 10,
			want: []string{attached.ID}, seqs: []uint64{1}, snippets: []string{"diagram.png"}},
		{name: "attached resource URI", query: "resource/static/document", limit: 10,
			want: []string{attached.ID}, seqs: []uint64{1}, snippets: []string{"features.md demo://resource/static/document/features.md"}},
		{name: "a resource's content is not searched", query: "hidden resource body", limit: 10, want: nil},
		{name: "limit", query: "o", limit: 2, want: []string{superseded.ID, kyotoTitle.ID}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hits, err := s.Search(ctx, tc.query, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range hits {
				got = append(got, h.SessionID)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("hits = %+v; want sessions %v", hits, tc.want)
			}
			for i, h := range hits {
				if tc.seqs != nil && h.Seq != tc.seqs[i] {
					t.Errorf("hit %d seq = %d, want %d", i, h.Seq, tc.seqs[i])
				}
				if tc.snippets != nil && !strings.Contains(h.Snippet, tc.snippets[i]) {
					t.Errorf("hit %d snippet = %q, want it to contain %q", i, h.Snippet, tc.snippets[i])
				}
				if n := len([]rune(h.Snippet)); n > 120 {
					t.Errorf("hit %d snippet is %d runes: %q", i, n, h.Snippet)
				}
			}
		})
	}
}

func TestSnippet(t *testing.T) {
	t.Parallel()
	snip, ok := Snippet("Straße ÜBER alles", "über")
	if !ok || snip != "Straße ÜBER alles" {
		t.Errorf("Snippet = %q, %v", snip, ok)
	}
	if _, ok := Snippet("abc", "x"); ok {
		t.Error("Snippet matched a missing query")
	}
}

// BenchmarkSearch searches 100 sessions of 100 messages each (10,000).
func BenchmarkSearch(b *testing.B) {
	ctx := b.Context()
	s, err := Open(ctx, b.TempDir(), Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	body := strings.Repeat("some ordinary chat text about code and plans ", 10)
	for i := range 100 {
		sess, err := s.CreateSession(ctx, chat.Session{Title: "Session"})
		if err != nil {
			b.Fatal(err)
		}
		for j := range 100 {
			text := body
			if i%10 == 0 && j == 50 {
				text += " needle"
			}
			if _, err := s.AppendMessage(ctx, sess.ID, chat.Message{Role: chat.RoleUser, Parts: chat.Parts{chat.TextPart{Text: text}}}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ResetTimer()
	for b.Loop() {
		hits, err := s.Search(ctx, "NEEDLE", 50)
		if err != nil || len(hits) != 10 {
			b.Fatalf("hits = %d, %v", len(hits), err)
		}
	}
}

func TestSearchEscapedQuery(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := testStore(t)
	sess, err := s.CreateSession(ctx, chat.Session{Title: "HTML"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendMessage(ctx, sess.ID, chat.Message{Role: chat.RoleUser, Parts: chat.Parts{chat.TextPart{Text: `use <div class="x"> & more`}}}); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`<DIV`, `"x"`, `& more`, `class=`} {
		hits, err := s.Search(ctx, q, 10)
		if err != nil || len(hits) != 1 || hits[0].Seq != 1 {
			t.Errorf("Search(%q) = %+v, %v; want the message", q, hits, err)
		}
	}
}
