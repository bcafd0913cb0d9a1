package app

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/mcp"
)

// recBases records what SetAPIBases was given.
type recBases struct {
	mu   sync.Mutex
	last map[string]string
}

func (r *recBases) set(m map[string]string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.last = m
}

func (r *recBases) get() map[string]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

// The rows are read at startup and applied, saved and applied at once,
// kept across a restart, and a refused set changes nothing.
func TestPrefs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	level, bases := new(slog.LevelVar), &recBases{}
	withPrefs := func(d *Deps) { d.LogLevel, d.APIBases = level, bases.set }
	a, _ := startApp(t, dir, withPrefs)
	p, err := a.Settings.Prefs()
	if err != nil || p.Theme != ThemeSystem || p.Approval != "ask" || p.CompactPercent != 80 || p.LogLevel != "info" || p.BaseURLs == nil || p.BaseURLsFromEnv == nil {
		t.Fatalf("Prefs on a new data file = %+v, %v; want the defaults, lists not null", p, err)
	}
	p.Instructions, p.CompactPercent, p.LogLevel, p.Approval = "Answer in French.", 60, "debug", "all"
	p.BaseURLs = map[string]string{"anthropic": "https://proxy.example.com/"}
	got, err := a.Settings.SavePrefs(p)
	if err != nil || got.BaseURLs["anthropic"] != "https://proxy.example.com" {
		t.Fatalf("SavePrefs = %+v, %v", got, err)
	}
	run, _, cancel, _ := a.core.call()
	cancel()
	if th := run.agent.CompactThreshold(); th != 0.6 || level.Level() != slog.LevelDebug || bases.get()["anthropic"] != "https://proxy.example.com" {
		t.Errorf("after SavePrefs: threshold %v, log level %v, bases %v; want 0.6, debug, the proxy", th, level.Level(), bases.get())
	}

	bad := got
	bad.CompactPercent = 20
	if _, err := a.Settings.SavePrefs(bad); chat.Kind(err) != chat.KindInvalid || !strings.Contains(err.Error(), "not 20%") {
		t.Errorf("SavePrefs(20%%) = %v; want an invalid error naming it", err)
	}
	a.Shutdown(context.Background())

	level.Set(slog.LevelInfo)
	b, _ := startApp(t, dir, withPrefs)
	if again, err := b.Settings.Prefs(); err != nil || again.CompactPercent != 60 || again.Instructions != "Answer in French." {
		t.Errorf("Prefs after a restart = %+v, %v; want the saved rows", again, err)
	}
	if level.Level() != slog.LevelDebug {
		t.Errorf("log level after a restart = %v; want debug applied at startup", level.Level())
	}
}

// A new chat starts with the default instructions; its own are edited
// apart from them, within the same limit.
func TestChatInstructions(t *testing.T) {
	t.Parallel()
	a, _ := startApp(t, "")
	p, _ := a.Settings.Prefs()
	p.Instructions = "Use metric units."
	if _, err := a.Settings.SavePrefs(p); err != nil {
		t.Fatal(err)
	}
	s, err := a.Sessions.Create("")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := a.Sessions.Instructions(s.ID); err != nil || got != "Use metric units." {
		t.Errorf("Instructions of a new chat = %q, %v; want the default ones", got, err)
	}
	if got, err := a.Sessions.SetInstructions(s.ID, "  Be terse.\n"); err != nil || got != "Be terse." {
		t.Errorf("SetInstructions = %q, %v", got, err)
	}
	if got, _ := a.Sessions.Instructions(s.ID); got != "Be terse." {
		t.Errorf("Instructions after SetInstructions = %q", got)
	}
	if p2, _ := a.Settings.Prefs(); p2.Instructions != "Use metric units." {
		t.Errorf("default instructions = %q; want them unchanged by a chat's", p2.Instructions)
	}
	if _, err := a.Sessions.SetInstructions(s.ID, strings.Repeat("x", 33<<10)); chat.Kind(err) != chat.KindInvalid {
		t.Errorf("SetInstructions(33 KiB) = %v; want invalid", err)
	}
	if _, err := a.Sessions.SetInstructions("nope", "x"); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("SetInstructions(unknown chat) = %v; want not found", err)
	}
}

// Copy diagnostics: the report names versions, the data folder, the
// providers and connectors, and keeps the log tail, with every planted
// secret (stored API key, connector env value, tokens in the log) gone.
func TestDiagnosticsRemovesSecrets(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const apiKey, envSecret, logToken = "sk-ant-planted-0123456789abcdef", "planted-env-value-424242", "ya29.planted-access-token-777"
	if err := os.WriteFile(filepath.Join(dir, logName),
		[]byte(`{"level":"INFO","msg":"ok line"}`+"\n"+
			`{"level":"WARN","msg":"request","key":"`+apiKey+`","env":"`+envSecret+`"}`+"\n"+
			`{"level":"INFO","msg":"refresh","header":"Authorization: Bearer `+logToken+`"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	secrets := mcp.NewMemorySecrets()
	a, _ := startApp(t, dir, func(d *Deps) {
		d.Keychain = fakeKeychain{secrets: map[string]string{"apikey:anthropic": apiKey}}
		d.Secrets = secrets
		d.SignIns = &fakeManager{}
		d.Catalog = staticCatalog{{ID: "anthropic", DisplayName: "Claude", Available: true}, {ID: "openai", DisplayName: "ChatGPT"}}
	})
	if _, err := a.Connectors.Save(ConnectorInputDTO{Name: "Planted", Transport: "stdio", Command: "/nonexistent/server",
		Env: []KeyValueInputDTO{{Key: "API_TOKEN", Value: envSecret}}}); err != nil {
		t.Fatal(err)
	}
	text, err := a.Settings.Diagnostics()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{apiKey, envSecret, logToken, "planted"} {
		if strings.Contains(text, s) {
			t.Errorf("diagnostics contain the secret %q:\n%s", s, text)
		}
	}
	for _, want := range []string{"Maestro diagnostics", "Maestro:   test", "Data:      " + dir, "- Claude:", "- ChatGPT: signed out", "Connectors (1)", "- Planted (", "ok line", "[redacted]"} {
		if !strings.Contains(text, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, text)
		}
	}
}
