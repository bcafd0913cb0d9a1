package prefs_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/prefs"
	"maestro/backend/store"
)

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(t.Context(), t.TempDir(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// counting records the keys written, to check Save writes only changes.
type counting struct {
	*store.Store
	mu   sync.Mutex
	puts []string
}

func (c *counting) PutSetting(ctx context.Context, key string, v any) error {
	c.mu.Lock()
	c.puts = append(c.puts, key)
	c.mu.Unlock()
	return c.Store.PutSetting(ctx, key, v)
}

func TestValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit func(*prefs.Prefs)
		want string // "" for valid
	}{
		{"defaults", func(*prefs.Prefs) {}, ""},
		{"dark theme", func(p *prefs.Prefs) { p.Theme = prefs.ThemeDark }, ""},
		{"unknown theme", func(p *prefs.Prefs) { p.Theme = "sepia" }, `not "sepia"`},
		{"model", func(p *prefs.Prefs) {
			p.DefaultModel = prefs.ModelChoice{Provider: "anthropic", Model: "claude-sonnet-4-5"}
		}, ""},
		{"model without provider", func(p *prefs.Prefs) { p.DefaultModel = prefs.ModelChoice{Provider: "mistral", Model: "x"} }, "choose a provider"},
		{"provider without model", func(p *prefs.Prefs) { p.DefaultModel = prefs.ModelChoice{Provider: "gemini"} }, "choose a provider"},
		{"instructions at the cap", func(p *prefs.Prefs) { p.Instructions = strings.Repeat("a", prefs.MaxInstructions) }, ""},
		{"instructions over the cap", func(p *prefs.Prefs) { p.Instructions = strings.Repeat("a", prefs.MaxInstructions+1) }, "at most 32 KiB"},
		{"instructions not UTF-8", func(p *prefs.Prefs) { p.Instructions = "\xff" }, "of text"},
		{"approval all", func(p *prefs.Prefs) { p.Approval = chat.PolicyAll }, ""},
		{"approval unknown", func(p *prefs.Prefs) { p.Approval = "never" }, "ask, read_only or all"},
		{"compact low", func(p *prefs.Prefs) { p.CompactPercent = 29 }, "30% to 95%"},
		{"compact high", func(p *prefs.Prefs) { p.CompactPercent = 96 }, "not 96%"},
		{"compact bounds", func(p *prefs.Prefs) { p.CompactPercent = 95 }, ""},
		{"log level", func(p *prefs.Prefs) { p.LogLevel = prefs.LogDebug }, ""},
		{"log level unknown", func(p *prefs.Prefs) { p.LogLevel = "trace" }, "debug, info, warn or error"},
		{"https base", func(p *prefs.Prefs) { p.BaseURLs = map[string]string{"openai": "https://proxy.example.com/v"} }, ""},
		{"http on localhost", func(p *prefs.Prefs) { p.BaseURLs = map[string]string{"gemini": "http://127.0.0.1:8080"} }, ""},
		{"http elsewhere", func(p *prefs.Prefs) { p.BaseURLs = map[string]string{"gemini": "http://proxy.example.com"} }, "only for localhost"},
		{"credentials in the URL", func(p *prefs.Prefs) { p.BaseURLs = map[string]string{"anthropic": "https://u:sk-secret@h.example"} }, "user, password"},
		{"query", func(p *prefs.Prefs) { p.BaseURLs = map[string]string{"anthropic": "https://h.example?key=1"} }, "query"},
		{"not a URL", func(p *prefs.Prefs) { p.BaseURLs = map[string]string{"anthropic": "proxy"} }, "not a URL"},
		{"ftp", func(p *prefs.Prefs) { p.BaseURLs = map[string]string{"anthropic": "ftp://h.example"} }, `scheme "ftp"`},
		{"unknown provider", func(p *prefs.Prefs) { p.BaseURLs = map[string]string{"mistral": "https://h.example"} }, `no provider "mistral"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := prefs.Defaults()
			tt.edit(&p)
			err := p.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Validate = %v; want valid", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Validate = %v; want an error containing %q", err, tt.want)
			case err != nil && !errors.Is(err, chat.ErrInvalid):
				t.Errorf("Validate = %v; want kind invalid", err)
			}
		})
	}
}

// Save writes only the rows that changed, Load reads them back, and a
// rejected set writes nothing.
func TestSaveLoad(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	st := &counting{Store: openStore(t)}
	old, err := prefs.Load(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	want := old
	want.Instructions = "  Answer in French.\n"
	want.CompactPercent = 70
	want.BaseURLs = map[string]string{"openai": "https://proxy.example.com/", "gemini": "  "}
	saved, err := prefs.Save(ctx, st, old, want)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(st.puts, ","); got != "instructions,compactPercent,baseUrls" {
		t.Errorf("rows written = %s; want only the three changed", got)
	}
	if saved.Instructions != "Answer in French." || saved.BaseURLs["openai"] != "https://proxy.example.com" || len(saved.BaseURLs) != 1 {
		t.Errorf("saved = %+v; want trimmed instructions and the empty URL dropped", saved)
	}
	got, err := prefs.Load(ctx, st)
	if err != nil || got.Instructions != saved.Instructions || got.CompactPercent != 70 || got.BaseURLs["openai"] != saved.BaseURLs["openai"] {
		t.Errorf("Load = %+v, %v; want what was saved", got, err)
	}
	st.puts = nil
	bad := got
	bad.LogLevel = "loud"
	if back, err := prefs.Save(ctx, st, got, bad); err == nil || len(st.puts) != 0 || back.LogLevel != prefs.LogInfo {
		t.Errorf("Save(invalid) = %+v, %v after writing %v; want an error, nothing written, the old prefs", back, err, st.puts)
	}
}

// Rows written by older versions or damaged read as what they can: the
// app's theme and default-model keys are kept, a damaged row is its
// default and the others survive it.
func TestLoadOldAndDamagedRows(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	st := openStore(t)
	for k, v := range map[string]any{
		"theme":           "dark",
		"defaultModel":    map[string]string{"provider": "gemini", "model": "gemini-2.5-pro"},
		"compactPercent":  "lots",  // wrong type
		"logLevel":        "trace", // not a level
		"approvalDefault": "all",
		"baseUrls":        map[string]string{"anthropic": "http://evil.example"},
	} {
		if err := st.PutSetting(ctx, k, v); err != nil {
			t.Fatal(err)
		}
	}
	got, err := prefs.Load(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	want := prefs.Defaults()
	want.Theme, want.Approval = prefs.ThemeDark, chat.PolicyAll
	want.DefaultModel = prefs.ModelChoice{Provider: "gemini", Model: "gemini-2.5-pro"}
	if got.Theme != want.Theme || got.DefaultModel != want.DefaultModel || got.Approval != want.Approval ||
		got.CompactPercent != want.CompactPercent || got.LogLevel != want.LogLevel || len(got.BaseURLs) != 0 {
		t.Errorf("Load = %+v; want %+v", got, want)
	}
	if err := got.Validate(); err != nil {
		t.Errorf("loaded prefs are invalid: %v", err)
	}
}

func TestLogLevelSlog(t *testing.T) {
	t.Parallel()
	for _, l := range []prefs.LogLevel{prefs.LogDebug, prefs.LogInfo, prefs.LogWarn, prefs.LogError} {
		if got := l.Slog().String(); !strings.EqualFold(got, string(l)) {
			t.Errorf("%s.Slog() = %s", l, got)
		}
	}
}

func TestAPIBases(t *testing.T) {
	t.Parallel()
	p := prefs.Defaults()
	p.BaseURLs = map[string]string{"openai": "https://proxy.example.com", "gemini": "https://g.example"}
	env := map[string]string{"MAESTRO_GEMINI_BASE_URL": "http://127.0.0.1:9"}
	got := p.APIBases(func(k string) string { return env[k] })
	want := map[string]string{"openai": "https://proxy.example.com", "anthropic": ""} // gemini: the environment wins
	if len(got) != len(want) || got["openai"] != want["openai"] || got["anthropic"] != "" {
		t.Errorf("APIBases = %v; want %v", got, want)
	}
	if _, ok := got["gemini"]; ok {
		t.Errorf("APIBases = %v; want gemini left to its environment variable", got)
	}
}
