package gemini

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
)

func ids(ms []chat.ModelInfo) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}

func TestLookup(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id       string
		thinking string
		min, max int
		output   int
		preview  bool
	}{
		{"gemini-2.5-pro", chat.ThinkingBudget, 128, 32768, 65536, false},
		{"models/gemini-2.5-flash", chat.ThinkingBudget, 1, 24576, 65536, false},
		{"gemini-2.5-flash-lite", chat.ThinkingBudget, 512, 24576, 65536, false},
		{"gemini-2.5-flash-lite-preview-06-17", chat.ThinkingBudget, 512, 24576, 65536, true},
		{"gemini-2.0-flash", "", 0, 0, 8192, false},
		{"gemini-3-pro-preview", chat.ThinkingLevel, 0, 0, 65536, true},
		{"gemini-3.5-flash", chat.ThinkingLevel, 0, 0, 65536, false},
		{"gemini-3-flash", chat.ThinkingLevel, 0, 0, 65536, false},
	}
	for _, tt := range tests {
		got := Lookup(tt.id)
		if got.Thinking != tt.thinking || got.MinThinkingBudget != tt.min || got.MaxThinkingBudget != tt.max ||
			got.MaxOutputTokens != tt.output || got.ContextWindow != 1048576 || got.Preview != tt.preview || got.Name == "" {
			t.Errorf("Lookup(%q) = %+v; want thinking %q [%d,%d], output %d, preview %v", tt.id, got, tt.thinking, tt.min, tt.max, tt.output, tt.preview)
		}
	}
	if got := Lookup("claude-sonnet-4-5"); got.Known() {
		t.Errorf("Lookup of a foreign model: got %+v; want zero", got)
	}
	if got := Lookup("gemini-2.5-flash-lite").Name; got != "Gemini 2.5 Flash-Lite" {
		t.Errorf("got name %q; want Gemini 2.5 Flash-Lite", got)
	}
}

func TestBuiltin(t *testing.T) {
	t.Parallel()
	b := Builtin()
	want := []string{"gemini-2.5-pro", "gemini-3.1-flash-lite", "gemini-3.5-flash", "gemini-2.5-flash", "gemini-2.5-flash-lite"}
	if !slices.Equal(ids(b), want) {
		t.Fatalf("got %v; want %v", ids(b), want)
	}
	for _, m := range b {
		if m.ContextWindow == 0 || m.MaxOutputTokens == 0 || m.Preview || m.Thinking == "" {
			t.Errorf("got %+v; want limits filled, no preview", m)
		}
	}
}

// TestModels reads the list each mode offers from the fake.
func TestModels(t *testing.T) {
	t.Parallel()
	previews := []string{"gemini-2.5-pro", "gemini-3.1-flash-lite", "gemini-3.1-pro-preview", "gemini-3-pro-preview",
		"gemini-3-flash-preview", "gemini-3.5-flash", "gemini-2.5-flash", "gemini-2.5-flash-lite"}
	noPreviews := ids(Builtin())
	tests := []struct {
		name   string
		mode   string
		served []string // nil: the fake's defaults
		opts   []Option
		want   []string
	}{
		{"api key, defaults", "api key", nil, nil, []string{"gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-flash-lite",
			"gemini-3-pro-preview", "gemini-3-flash-preview", "gemini-3.1-pro-preview", "gemini-3.1-flash-lite", "gemini-3.5-flash"}},
		{"api key, default model moved first", "api key", []string{"gemini-2.5-flash", "gemini-2.5-pro"}, nil,
			[]string{"gemini-2.5-pro", "gemini-2.5-flash"}},
		{"code assist with a preview bucket", "code assist", nil, nil, previews},
		{"code assist with a 3.5 flash bucket only", "code assist", []string{"gemini-2.5-pro", "gemini-3.5-flash"}, nil, noPreviews},
		{"code assist, quota call refused", "code assist", nil, []Option{WithProject("other-project")}, noPreviews},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, srv := newFake(t)
			f.Script.SetModels(tt.served)
			m := modes(srv, tt.opts...)[tt.mode]
			got, err := m.Models(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids(got), tt.want) {
				t.Errorf("got %v; want %v", ids(got), tt.want)
			}
			for _, mi := range got {
				if mi.ContextWindow != 1048576 || mi.MaxOutputTokens != 65536 || mi.Name == "" || mi.Thinking == "" {
					t.Errorf("got %+v; want limits, a name and a thinking style", mi)
				}
			}
		})
	}
}

// TestListModelsPages follows nextPageToken and filters non-chat models.
func TestListModelsPages(t *testing.T) {
	t.Parallel()
	pages := map[string]string{
		"": `{"models":[{"name":"models/gemini-2.5-flash","displayName":"Gemini 2.5 Flash","inputTokenLimit":1048576,"outputTokenLimit":65536,
			"supportedGenerationMethods":["generateContent","countTokens"],"thinking":true},
			{"name":"models/gemini-embedding-001","supportedGenerationMethods":["embedContent"]},
			{"name":"models/gemini-2.5-flash-preview-tts","supportedGenerationMethods":["generateContent"]}],"nextPageToken":"p2"}`,
		"p2": `{"models":[{"name":"models/gemini-2.5-flash-image","supportedGenerationMethods":["generateContent"]},
			{"name":"models/gemma-3-27b-it","supportedGenerationMethods":["generateContent"]},
			{"name":"models/gemini-live-2.5-flash","supportedGenerationMethods":["bidiGenerateContent"]},
			{"name":"models/gemini-2.5-pro","displayName":"Gemini 2.5 Pro","inputTokenLimit":1048576,"outputTokenLimit":65536,
			"supportedGenerationMethods":["generateContent"],"thinking":true}]}`,
	}
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("x-goog-api-key") != testKey || r.URL.Query().Get("pageSize") != "1000" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		seen = append(seen, r.URL.Query().Get("pageToken"))
		_, _ = w.Write([]byte(pages[r.URL.Query().Get("pageToken")]))
	}))
	t.Cleanup(srv.Close)
	got, err := New(WithBaseURL(srv.URL), WithAPIKey(testKey)).Models(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"gemini-2.5-pro", "gemini-2.5-flash"}; !slices.Equal(ids(got), want) || !slices.Equal(seen, []string{"", "p2"}) {
		t.Errorf("got %v after pages %q; want %v after both pages", ids(got), seen, want)
	}
	if got[1].Name != "Gemini 2.5 Flash" || got[1].MinThinkingBudget != 1 || !got[1].Reasoning {
		t.Errorf("got %+v; want the list's name and the table's thinking range", got[1])
	}
}

func TestModelsErrors(t *testing.T) {
	t.Parallel()
	_, srv := newFake(t)
	_, err := New(WithBaseURL(srv.URL), WithAPIKey("wrong")).Models(t.Context())
	if he, ok := chat.AsProviderError(err); !ok || he.Kind != chat.ProviderKindAuth {
		t.Errorf("wrong key: got %v; want an auth-kind *chat.ProviderError", err)
	}
}

// TestModelNotServed: a model the account is not served is
// KindModelUnavailable in both modes.
func TestModelNotServed(t *testing.T) {
	t.Parallel()
	f, srv := newFake(t)
	f.Script.SetModels([]string{"gemini-2.5-flash"})
	for mode, m := range modes(srv) {
		_, err := run(t.Context(), m, base(user("u1", "hi")))
		he, ok := chat.AsProviderError(err)
		if !ok || he.Kind != chat.ProviderKindModelUnavailable || he.Status != 404 {
			t.Errorf("%s: got %v; want a 404 KindModelUnavailable", mode, err)
		}
	}
	for _, r := range f.Script.Requests() {
		if r.Rejection != "model not served" {
			t.Errorf("got rejection %q; want model not served", r.Rejection)
		}
	}
}

// TestThinkingConfig: what each model gets for each request.
func TestThinkingConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		model  string
		info   chat.ModelInfo
		rs     *chat.Reasoning
		budget *int
		level  string
	}{
		{"2.5 default", "gemini-2.5-pro", chat.ModelInfo{}, nil, ptr(8192), ""},
		{"2.5 pro high", "gemini-2.5-pro", chat.ModelInfo{}, &chat.Reasoning{Effort: "high"}, ptr(24576), ""},
		{"2.5 pro over max", "gemini-2.5-pro", chat.ModelInfo{}, &chat.Reasoning{BudgetTokens: 100000}, ptr(32768), ""},
		{"2.5 pro under min", "gemini-2.5-pro", chat.ModelInfo{}, &chat.Reasoning{BudgetTokens: 10}, ptr(128), ""},
		{"2.5 flash over max", "gemini-2.5-flash", chat.ModelInfo{}, &chat.Reasoning{BudgetTokens: 32768}, ptr(24576), ""},
		{"2.5 dynamic", "gemini-2.5-flash", chat.ModelInfo{}, &chat.Reasoning{}, ptr(-1), ""},
		{"catalog range wins", "gemini-2.5-pro", chat.ModelInfo{ID: "gemini-2.5-pro", MaxThinkingBudget: 16000},
			&chat.Reasoning{BudgetTokens: 20000}, ptr(16000), ""},
		{"3 default", "gemini-3-pro-preview", chat.ModelInfo{}, nil, nil, "HIGH"},
		{"3 low effort", "gemini-3.5-flash", chat.ModelInfo{}, &chat.Reasoning{Effort: "low"}, nil, "LOW"},
		{"3 small budget", "gemini-3-flash-preview", chat.ModelInfo{}, &chat.Reasoning{BudgetTokens: 512}, nil, "LOW"},
		{"3 large budget", "gemini-3-flash-preview", chat.ModelInfo{}, &chat.Reasoning{BudgetTokens: 50000}, nil, "HIGH"},
		{"unknown model, nothing asked", "gemini-next", chat.ModelInfo{}, nil, nil, ""},
		{"unknown model, budget asked", "gemini-next", chat.ModelInfo{}, &chat.Reasoning{BudgetTokens: 99999}, ptr(99999), ""},
		{"unknown id, catalog says level", "gemini-next", chat.ModelInfo{ID: "gemini-next", Thinking: chat.ThinkingLevel}, nil, nil, "HIGH"},
	}
	for _, tt := range tests {
		req := chat.Request{Model: tt.model, Info: tt.info, Reasoning: tt.rs, Messages: []chat.Message{user("u", "x")}}
		env, _ := toRequest(req)
		var tc *thinkingConfig
		if gc := env.Request.GenerationConfig; gc != nil {
			tc = gc.ThinkingConfig
		}
		if tt.budget == nil && tt.level == "" {
			if tc != nil {
				t.Errorf("%s: got %+v; want no thinkingConfig", tt.name, tc)
			}
			continue
		}
		if tc == nil || !tc.IncludeThoughts || tc.ThinkingLevel != tt.level || (tc.ThinkingBudget == nil) != (tt.budget == nil) ||
			tc.ThinkingBudget != nil && *tc.ThinkingBudget != *tt.budget {
			b, _ := json.Marshal(tc)
			t.Errorf("%s: got %s; want budget %v level %q", tt.name, b, deref(tt.budget), tt.level)
		}
	}
}

func ptr(n int) *int { return &n }

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestRenderedStepsAccepted plays a tool loop whose turn is interrupted
// after the results, then continued by a new prompt, with thinking and an
// audio result, against the fake in both modes.
func TestRenderedStepsAccepted(t *testing.T) {
	t.Parallel()
	f, srv := newFake(t)
	for mode, m := range modes(srv) {
		req := base(user("u1", "Play a.mp3"))
		req.Model = "gemini-2.5-flash"
		req.Reasoning = &chat.Reasoning{BudgetTokens: 1 << 20}
		f.Script.Push(fakescript.Reply{Thinking: "Need the file.", ToolCalls: []fakescript.ToolCall{{Name: "files__read_file", Args: raw(`{"path":"a.mp3"}`)}}})
		evs, err := run(t.Context(), m, req)
		if err != nil {
			t.Fatalf("%s step 1: %v", mode, err)
		}
		asst := messageFrom("a1", evs)
		c := asst.ToolCalls()[0]
		req.Messages = append(req.Messages, asst, results("t1", chat.ToolResult{CallID: c.ID, Name: c.Name, Successful: true,
			Attachments: []chat.Attachment{{Type: "audio", MIMEType: "audio/mpeg", Data: "SUQzBA=="}}}),
			user("u2", "Stop, what time is it?"))
		f.Script.Push(fakescript.Reply{Text: "Noon."})
		if _, err := run(t.Context(), m, req); err != nil {
			t.Fatalf("%s step 2: %v", mode, err)
		}
	}
	for _, r := range f.Script.Requests() {
		if r.Status != 200 {
			t.Errorf("%s: got %d (%s); want 200", r.Path, r.Status, r.Rejection)
		}
	}
}
