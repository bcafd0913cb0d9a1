// Package catalog turns stored credentials into provider adapters and lists
// the providers and models a session can pick. It is the agent's Models:
// the adapter for a provider is built from whatever sign-in or API key the
// user has now, so signing in or out applies from the next request.
//
// Concurrency: a Catalog is safe for concurrent use; mu guards the adapter
// cache. Credentials calls may block on the keychain (each bounded by its
// timeout) and are made without holding mu.
package catalog

import (
	"context"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"net/http"
	"sync"

	"maestro/backend/agent"
	"maestro/backend/auth"
	"maestro/backend/chat"
	"maestro/backend/providers/anthropic"
	"maestro/backend/providers/gemini"
	"maestro/backend/providers/openai"
)

// Credentialer is what the catalog needs from backend/auth's Manager.
type Credentialer interface {
	Credentials(ctx context.Context, provider string) (auth.Credentials, error)
	Accounts(ctx context.Context) ([]auth.Account, error)
}

// Model is one model a provider offers.
type Model struct {
	ID   string
	Name string
}

// Provider is one provider as the model picker shows it.
type Provider struct {
	ID          string
	DisplayName string
	// Available is set when the user has a sign-in or an API key for it.
	Available bool
	Models    []Model
}

// providers lists the providers in picker order with their models. The
// first model of each is the default. ChatGPT sign-in and the OpenAI API
// offer the same families.
var providers = []Provider{
	{ID: chat.ProviderAnthropic, DisplayName: "Claude", Models: []Model{
		{"claude-sonnet-4-5", "Claude Sonnet 4.5"},
		{"claude-opus-4-1", "Claude Opus 4.1"},
		{"claude-haiku-4-5", "Claude Haiku 4.5"},
	}},
	{ID: chat.ProviderOpenAI, DisplayName: "ChatGPT", Models: []Model{
		{"gpt-5", "GPT-5"},
		{"gpt-5-codex", "GPT-5 Codex"},
		{"gpt-5-mini", "GPT-5 mini"},
	}},
	{ID: chat.ProviderGemini, DisplayName: "Gemini", Models: []Model{
		{"gemini-2.5-pro", "Gemini 2.5 Pro"},
		{"gemini-2.5-flash", "Gemini 2.5 Flash"},
	}},
}

// DefaultModel returns the default model of provider, or "".
func DefaultModel(provider string) string {
	for _, p := range providers {
		if p.ID == provider {
			return p.Models[0].ID
		}
	}
	return ""
}

// Catalog builds adapters from credentials.
type Catalog struct {
	creds   Credentialer
	version string
	log     *slog.Logger

	mu    sync.Mutex
	cache map[string]cached // by provider
}

type cached struct {
	key   string
	model agent.Model
}

// Option configures a Catalog.
type Option func(*Catalog)

// WithVersion sets the app version adapters put in their User-Agent.
func WithVersion(v string) Option { return func(c *Catalog) { c.version = v } }

// WithLogger sets where adapters log render warnings.
func WithLogger(l *slog.Logger) Option { return func(c *Catalog) { c.log = l } }

// New returns a Catalog over creds.
func New(creds Credentialer, opts ...Option) *Catalog {
	c := &Catalog{creds: creds, version: "dev", log: slog.Default(), cache: map[string]cached{}}
	for _, o := range opts {
		o(c)
	}
	return c
}

var _ agent.Models = (*Catalog)(nil)

// Model returns the adapter for provider, built from its current
// credentials. An adapter is reused while the credentials stay the same,
// so per-adapter caches (e.g. Anthropic's schema cache) survive between
// steps.
func (c *Catalog) Model(ctx context.Context, provider string) (agent.Model, error) {
	if provider == "" {
		return nil, chat.E(chat.ErrAuthRequired, "choose a model for this chat; sign in to Claude, ChatGPT or Gemini in Accounts, or add an API key")
	}
	cr, err := c.creds.Credentials(ctx, provider)
	if err != nil {
		return nil, err
	}
	key := fingerprint(cr)
	c.mu.Lock()
	defer c.mu.Unlock()
	if hit, ok := c.cache[provider]; ok && hit.key == key {
		return hit.model, nil
	}
	m, err := c.build(cr)
	if err != nil {
		return nil, err
	}
	c.cache[provider] = cached{key: key, model: m}
	return m, nil
}

// Info says what is known about model of provider.
// TODO(issue 10): the live lists; until then every model is unknown and
// adapters use their built-in tables.
func (c *Catalog) Info(ctx context.Context, provider, model string) chat.ModelInfo {
	return chat.ModelInfo{}
}

// fingerprint identifies credentials without keeping the secret itself.
func fingerprint(cr auth.Credentials) string {
	sum := sha256.Sum256([]byte(cr.APIKey))
	return fmt.Sprintf("%s|%s|%x|%p|%s|%s|%s", cr.Provider, cr.Method, sum[:8], cr.HTTPClient, cr.AccountID, cr.Project, cr.BaseURL)
}

func (c *Catalog) build(cr auth.Credentials) (agent.Model, error) {
	apiKey := cr.Method == auth.MethodAPIKey
	client := cr.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	switch cr.Provider {
	case chat.ProviderGemini:
		opts := []gemini.Option{gemini.WithBaseURL(cr.BaseURL), gemini.WithVersion(c.version), gemini.WithLogger(c.log), gemini.WithHTTPClient(client)}
		if apiKey {
			opts = append(opts, gemini.WithAPIKey(cr.APIKey))
		} else {
			opts = append(opts, gemini.WithProject(cr.Project))
		}
		return gemini.New(opts...), nil
	case chat.ProviderAnthropic:
		opts := []anthropic.Option{anthropic.WithBaseURL(cr.BaseURL), anthropic.WithLogger(c.log), anthropic.WithHTTPClient(client)}
		if apiKey {
			opts = append(opts, anthropic.WithAPIKey(cr.APIKey))
		}
		return anthropic.New(opts...), nil
	case chat.ProviderOpenAI:
		opts := []openai.Option{openai.WithBaseURL(cr.BaseURL), openai.WithVersion(c.version), openai.WithLogger(c.log), openai.WithHTTPClient(client)}
		if apiKey {
			opts = append(opts, openai.WithAPIKey(cr.APIKey))
		} else {
			opts = append(opts, openai.WithAccountID(cr.AccountID))
		}
		return openai.New(opts...), nil
	}
	return nil, chat.E(chat.ErrInvalid, "unknown provider %q", cr.Provider)
}

// Providers lists every provider with its models and whether the user has
// credentials for it.
func (c *Catalog) Providers(ctx context.Context) []Provider {
	have := map[string]bool{}
	if accts, err := c.creds.Accounts(ctx); err == nil {
		for _, a := range accts {
			have[a.Provider] = true
		}
	} else {
		c.log.Warn("catalog: list accounts", "err", err)
	}
	out := make([]Provider, len(providers))
	for i, p := range providers {
		p.Models = append([]Model(nil), p.Models...)
		p.Available = have[p.ID]
		out[i] = p
	}
	return out
}
