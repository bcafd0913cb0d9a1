package anthropic

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/providers/anthropic/anthropicfake"
)

func TestModels(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			f, m, _ := newFake(t, nil, mode.opts...)
			got, err := m.Models(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			ids := make([]string, len(got))
			for i, mi := range got {
				ids[i] = mi.ID
			}
			want := append([]string{"claude-sonnet-4-6"}, slices.DeleteFunc(anthropicfake.DefaultModels(), func(id string) bool { return id == "claude-sonnet-4-6" })...)
			if !slices.Equal(ids, want) {
				t.Errorf("got ids %v; want %v", ids, want)
			}
			opus := got[1]
			if opus.ID != "claude-opus-5" || opus.Name != "Claude Opus 5" || opus.ContextWindow != 1_000_000 || opus.MaxOutputTokens != 128_000 ||
				opus.Thinking != chat.ThinkingAdaptive || !slices.Equal(opus.Efforts, []string{"low", "medium", "high", "xhigh", "max"}) {
				t.Errorf("got %+v; want claude-opus-5 as listed", opus)
			}
			haiku := got[len(got)-3]
			if haiku.ID != "claude-haiku-4-5-20251001" || haiku.Thinking != chat.ThinkingBudget || haiku.MinThinkingBudget != 1024 || haiku.Efforts != nil {
				t.Errorf("got %+v; want haiku with budget thinking", haiku)
			}
			rec := f.Script.Requests()[0]
			h := rec.Header
			if rec.Method != http.MethodGet || rec.Path != "/v1/models" || rec.Query != "limit=1000" || h.Get("anthropic-version") != APIVersion ||
				(h.Get("anthropic-beta") == BetaOAuth) == (mode.opts != nil) || (h.Get("x-api-key") != "") != (mode.opts != nil) {
				t.Errorf("got %s %s?%s headers %v", rec.Method, rec.Path, rec.Query, h)
			}
		})
	}
}

func TestModelsPagesAndFills(t *testing.T) {
	t.Parallel()
	f, m, _ := newFake(t, nil)
	var ids []string
	for i := range 1500 {
		ids = append(ids, fmt.Sprintf("claude-test-%04d", i))
	}
	ids = append(ids, "claude-opus-4-1-20250805", "gpt-not-claude")
	f.Script.SetModels(ids)
	got, err := m.Models(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1501 || got[0].ID != "claude-test-0000" || got[1500].ID != "claude-opus-4-1-20250805" {
		t.Fatalf("got %d models, first %s; want 1501 (the non-Claude id left out)", len(got), got[0].ID)
	}
	if recs := f.Script.Requests(); len(recs) != 2 || recs[1].Query != "after_id=claude-test-0999&limit=1000" {
		t.Errorf("requests %+v; want two pages", recs)
	}
	if opus := got[1500]; opus.Name != "Claude Opus 4.1" || opus.MaxOutputTokens != 32_000 {
		t.Errorf("got %+v", opus)
	}
}

func TestModelsErrors(t *testing.T) {
	t.Parallel()
	_, m, _ := newFake(t, []anthropicfake.Option{anthropicfake.WithAPIKey("good")}, WithAPIKey("bad"))
	_, err := m.Models(t.Context())
	if he, ok := chat.AsProviderError(err); !ok || he.Kind != chat.ProviderKindAuth || he.Status != 401 {
		t.Errorf("got %v; want a 401 auth error", err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "<html>Bad Gateway</html>", http.StatusBadGateway)
	}))
	t.Cleanup(srv.Close)
	_, err = New(WithBaseURL(srv.URL)).Models(t.Context())
	if he, ok := chat.AsProviderError(err); !ok || he.Kind != chat.ProviderKindServer || he.Status != 502 {
		t.Errorf("got %v; want a 502 server error", err)
	}
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "{not json") }))
	t.Cleanup(bad.Close)
	if _, err := New(WithBaseURL(bad.URL)).Models(t.Context()); err == nil {
		t.Error("got no error for a body that is not JSON")
	}
}

func TestBuiltinAndLookup(t *testing.T) {
	t.Parallel()
	b := Builtin()
	if len(b) == 0 || b[0].ID != "claude-sonnet-4-6" {
		t.Fatalf("Builtin()[0] = %+v; want claude-sonnet-4-6 first", b)
	}
	for _, mi := range b {
		if mi.Name == "" || mi.ContextWindow == 0 || mi.MaxOutputTokens == 0 || mi.Thinking == "" {
			t.Errorf("built-in %+v lacks limits", mi)
		}
	}
	tests := []struct {
		id       string
		out      int
		thinking string
	}{
		{"claude-haiku-4-5-20251001", 64_000, chat.ThinkingBudget},
		{"claude-opus-4-1-20250805", 32_000, chat.ThinkingBudget},
		{"claude-opus-4-20250514", 32_000, chat.ThinkingBudget},
		{"claude-sonnet-4-20250514", 64_000, chat.ThinkingBudget},
		{"claude-opus-4-6", 128_000, chat.ThinkingAdaptive},
		{"claude-opus-4-7", 128_000, chat.ThinkingAdaptive},
		{"claude-sonnet-4-6", 64_000, chat.ThinkingAdaptive},
		{"claude-opus-5-5", 128_000, chat.ThinkingAdaptive},
		{"claude-haiku-5-5", 128_000, chat.ThinkingAdaptive},
		{"gpt-5", 0, ""},
	}
	for _, tt := range tests {
		if got := Lookup(tt.id); got.MaxOutputTokens != tt.out || got.Thinking != tt.thinking || (tt.out > 0) != (got.ID == tt.id) {
			t.Errorf("Lookup(%q) = %+v; want output %d, thinking %q", tt.id, got, tt.out, tt.thinking)
		}
	}
}
