package prefs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/url"
	"strings"
	"unicode/utf8"

	"maestro/backend/chat"
)

// Store is where the rows live (backend/store's settings bucket).
type Store interface {
	Setting(ctx context.Context, key string, v any) error
	PutSetting(ctx context.Context, key string, v any) error
}

// Theme is the app's theme; system follows the desktop.
type Theme string

// The themes.
const (
	ThemeSystem Theme = "system"
	ThemeLight  Theme = "light"
	ThemeDark   Theme = "dark"
)

// LogLevel is how much the log keeps.
type LogLevel string

// The log levels.
const (
	LogDebug LogLevel = "debug"
	LogInfo  LogLevel = "info"
	LogWarn  LogLevel = "warn"
	LogError LogLevel = "error"
)

// Slog is the level for log/slog.
func (l LogLevel) Slog() slog.Level {
	switch l {
	case LogDebug:
		return slog.LevelDebug
	case LogWarn:
		return slog.LevelWarn
	case LogError:
		return slog.LevelError
	}
	return slog.LevelInfo
}

// ModelChoice is a provider and one of its models; zero means "the model
// last used".
type ModelChoice struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

// Limits of the rows.
const (
	// MaxInstructions caps the default instructions (and a chat's own):
	// they go with every request.
	MaxInstructions = 32 << 10
	// MinCompactPercent and MaxCompactPercent bound the compaction
	// threshold (backend/agent's MinCompactThreshold, MaxCompactThreshold).
	MinCompactPercent = 30
	MaxCompactPercent = 95
	// DefaultCompactPercent is the threshold until the user picks one.
	DefaultCompactPercent = 80
	maxURL                = 2048
)

// Prefs are the settings rows.
type Prefs struct {
	Theme        Theme       `json:"theme"`
	DefaultModel ModelChoice `json:"defaultModel"`
	// Instructions are copied into a new chat's system prompt.
	Instructions string `json:"instructions"`
	// Approval is the policy of connectors that set none.
	Approval chat.ToolPolicy `json:"approval"`
	// CompactPercent is the share of the context window past which a
	// conversation is compacted.
	CompactPercent int      `json:"compactPercent"`
	LogLevel       LogLevel `json:"logLevel"`
	// BaseURLs override a provider's API host used with an API key
	// (chat.Providers() keys; APIBases says which apply).
	BaseURLs map[string]string `json:"baseUrls"`
}

// Defaults are the rows before the user changes any.
func Defaults() Prefs {
	return Prefs{
		Theme: ThemeSystem, Approval: chat.PolicyAsk, CompactPercent: DefaultCompactPercent,
		LogLevel: LogInfo, BaseURLs: map[string]string{},
	}
}

// row is one setting: its key in the store and where it lives in Prefs.
type row struct {
	key   string
	field func(*Prefs) any
}

// rows are every setting. The theme and default-model keys are the ones
// the app stored before this package existed.
var rows = []row{
	{"theme", func(p *Prefs) any { return &p.Theme }},
	{"defaultModel", func(p *Prefs) any { return &p.DefaultModel }},
	{"instructions", func(p *Prefs) any { return &p.Instructions }},
	{"approvalDefault", func(p *Prefs) any { return &p.Approval }},
	{"compactPercent", func(p *Prefs) any { return &p.CompactPercent }},
	{"logLevel", func(p *Prefs) any { return &p.LogLevel }},
	{"baseUrls", func(p *Prefs) any { return &p.BaseURLs }},
}

// Load reads every row. A row never set, unreadable or invalid is its
// default; the error reports only a store that cannot be read at all.
func Load(ctx context.Context, st Store) (Prefs, error) {
	p := Defaults()
	for _, r := range rows {
		cand := p
		cand.BaseURLs = maps.Clone(p.BaseURLs)
		err := st.Setting(ctx, r.key, r.field(&cand))
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return Defaults(), err
		}
		// Not set, damaged or invalid: the default stays (Settings shows
		// it and saving writes over the damaged row).
		if err == nil && cand.normalized().validRow(r.key) == nil {
			p = cand
		}
	}
	return p.normalized(), nil
}

// Save validates p as a whole and writes the rows that differ from old.
func Save(ctx context.Context, st Store, old, p Prefs) (Prefs, error) {
	p = p.normalized()
	if err := p.Validate(); err != nil {
		return old, err
	}
	for _, r := range rows {
		was, _ := json.Marshal(r.field(&old))
		now, _ := json.Marshal(r.field(&p))
		if bytes.Equal(was, now) {
			continue
		}
		if err := st.PutSetting(ctx, r.key, r.field(&p)); err != nil {
			return old, fmt.Errorf("prefs: save %s: %w", r.key, err)
		}
	}
	return p, nil
}

// normalized trims what the user typed and drops empty base URLs.
func (p Prefs) normalized() Prefs {
	p.Instructions = strings.TrimSpace(p.Instructions)
	urls := map[string]string{}
	for k, v := range p.BaseURLs {
		if v = strings.TrimRight(strings.TrimSpace(v), "/"); v != "" {
			urls[k] = v
		}
	}
	p.BaseURLs = urls
	if p.DefaultModel.Provider == "" {
		p.DefaultModel = ModelChoice{}
	}
	return p
}

// Validate checks every row, naming the first one wrong.
func (p Prefs) Validate() error {
	for _, r := range rows {
		if err := p.validRow(r.key); err != nil {
			return err
		}
	}
	return nil
}

func (p Prefs) validRow(key string) error {
	switch key {
	case "theme":
		if p.Theme != ThemeSystem && p.Theme != ThemeLight && p.Theme != ThemeDark {
			return chat.E(chat.ErrInvalid, "the theme is system, light or dark, not %.40q", p.Theme)
		}
	case "defaultModel":
		return p.validModel()
	case "instructions":
		if n := len(p.Instructions); n > MaxInstructions || !utf8.ValidString(p.Instructions) {
			return chat.E(chat.ErrInvalid, "the instructions are %d KiB; at most %d KiB of text", n>>10, MaxInstructions>>10)
		}
	case "approvalDefault":
		if !p.Approval.Valid() {
			return chat.E(chat.ErrInvalid, "the approval default is ask, read_only or all, not %.40q", p.Approval)
		}
	case "compactPercent":
		if p.CompactPercent < MinCompactPercent || p.CompactPercent > MaxCompactPercent {
			return chat.E(chat.ErrInvalid, "compact at %d%% to %d%% of the context window, not %d%%", MinCompactPercent, MaxCompactPercent, p.CompactPercent)
		}
	case "logLevel":
		switch p.LogLevel {
		case LogDebug, LogInfo, LogWarn, LogError:
		default:
			return chat.E(chat.ErrInvalid, "the log level is debug, info, warn or error, not %.40q", p.LogLevel)
		}
	case "baseUrls":
		return p.validURLs()
	}
	return nil
}

func (p Prefs) validModel() error {
	c := p.DefaultModel
	if c.Provider == "" && c.Model == "" {
		return nil
	}
	if !knownProvider(c.Provider) || c.Model == "" {
		return chat.E(chat.ErrInvalid, "choose a provider and one of its models, or none")
	}
	return nil
}

func knownProvider(id string) bool {
	for _, p := range chat.Providers() {
		if p == id {
			return true
		}
	}
	return false
}

// validURLs accepts https hosts, and http only on the loopback (a local
// proxy); no credentials, query or fragment (the URL is shown and logged).
func (p Prefs) validURLs() error {
	for provider, raw := range p.BaseURLs {
		if !knownProvider(provider) {
			return chat.E(chat.ErrInvalid, "no provider %.40q for a base URL", provider)
		}
		if err := ValidBaseURL(raw); err != nil {
			return chat.E(chat.ErrInvalid, "the %s base URL %w", provider, err)
		}
	}
	return nil
}

// ValidBaseURL reports what is wrong with a base URL, or nil.
func ValidBaseURL(raw string) error {
	if raw == "" {
		return nil
	}
	if len(raw) > maxURL {
		return fmt.Errorf("is longer than %d characters", maxURL)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return fmt.Errorf("%.80q is not a URL like https://host", raw)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return errors.New("may not carry a user, password, query or fragment")
	}
	switch u.Scheme {
	case "https":
	case "http":
		if h := u.Hostname(); h != "localhost" && h != "127.0.0.1" && h != "::1" {
			return errors.New("uses http, which is allowed only for localhost; use https")
		}
	default:
		return fmt.Errorf("has scheme %.20q; use https", u.Scheme)
	}
	return nil
}

// BaseURLEnv names, per provider, the environment variable its base URL
// row stands for (backend/auth's Endpoints): the API hosts used with an
// API key, where a proxy sits.
var BaseURLEnv = map[string]string{
	"openai":    "MAESTRO_OPENAI_API_URL",
	"anthropic": "MAESTRO_ANTHROPIC_BASE_URL",
	"gemini":    "MAESTRO_GEMINI_BASE_URL",
}

// APIBases are the base URL rows that apply: a provider whose
// environment variable is set keeps it (tests and packagers set it), the
// others take the row, and "" (no row) is the provider's own host.
func (p Prefs) APIBases(getenv func(string) string) map[string]string {
	out := map[string]string{}
	for _, provider := range chat.Providers() {
		if strings.TrimSpace(getenv(BaseURLEnv[provider])) != "" {
			continue
		}
		out[provider] = p.BaseURLs[provider]
	}
	return out
}
