// Package catalog turns stored credentials into provider adapters and lists
// the providers and models a session can pick. It is the agent's Models
// (agent.Models, satisfied without importing the agent):
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
	"iter"
	"log/slog"
	"net/http"
	"sync"
	"time"

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

// Provider is one provider as the model picker shows it.
type Provider struct {
	ID          string
	DisplayName string
	// Available is set when the user has a sign-in or an API key for it.
	Available bool
	// Models are what the account can use, default first: the provider's
	// own list when it was fetched (Source SourceService, at FetchedAt), else
	// the adapter's built-in list (SourceBuiltin).
	Models    []Model
	Source    string
	FetchedAt time.Time
	// Err is why the last refresh of the list failed, if it did.
	Err string
}

// kit is what the catalog knows of a provider without asking it.
type kit struct {
	id, name string
	builtin  func() []chat.ModelInfo
	lookup   func(id string) chat.ModelInfo
	rules    func() chat.ToolRules
}

// kitsByID has a kit for each of chat.Providers (TestEveryProviderHasAKit).
var kitsByID = map[string]kit{
	chat.ProviderAnthropic: {chat.ProviderAnthropic, "Claude", anthropic.Builtin, anthropic.Lookup, anthropic.ToolRules},
	chat.ProviderOpenAI:    {chat.ProviderOpenAI, "ChatGPT", openai.Builtin, openai.Lookup, openai.ToolRules},
	chat.ProviderGemini:    {chat.ProviderGemini, "Gemini", gemini.Builtin, gemini.Lookup, gemini.ToolRules},
}

// kits lists the providers' kits in chat.Providers order (the picker's).
func kits() []kit {
	ids := chat.Providers()
	out := make([]kit, 0, len(ids))
	for _, id := range ids {
		if k, ok := kitsByID[id]; ok {
			out = append(out, k)
		}
	}
	return out
}

// ToolRules lists every provider's rules for declared tools (each
// adapter's ToolRules), in picker order: what backend/tools names, counts
// and shapes tools by.
func ToolRules() []chat.ToolRules {
	var out []chat.ToolRules
	for _, k := range kits() {
		out = append(out, k.rules())
	}
	return out
}

func kitFor(provider string) (kit, bool) {
	k, ok := kitsByID[provider]
	return k, ok
}

// DefaultModel returns the first built-in model of provider, or "".
func DefaultModel(provider string) string {
	if k, ok := kitFor(provider); ok {
		if b := k.builtin(); len(b) > 0 {
			return b[0].ID
		}
	}
	return ""
}

// Catalog builds adapters from credentials.
type Catalog struct {
	creds   Credentialer
	version string
	log     *slog.Logger
	now     func() time.Time
	// build makes an adapter from credentials (c.adapter; tests replace it).
	build func(auth.Credentials) (chat.Model, error)

	// wg counts background refreshes; Close waits for them.
	wg sync.WaitGroup

	// mu guards everything below.
	mu         sync.Mutex
	cache      map[string]cached    // adapters by provider
	lists      map[string]modelList // model lists by provider
	refreshing map[string]bool      // providers with a refresh running
	closed     bool
	store      Lists
	changed    func(provider string)
}

type cached struct {
	key   string
	model chat.Model
}

// Consumer-side views of an adapter.
type (
	modelStreamer = chat.Model
	chatSeq       = iter.Seq2[chat.Event, error]
	modelLister   interface {
		Models(ctx context.Context) ([]chat.ModelInfo, error)
	}
)

// Option configures a Catalog.
type Option func(*Catalog)

// WithVersion sets the app version adapters put in their User-Agent.
func WithVersion(v string) Option { return func(c *Catalog) { c.version = v } }

// WithLogger sets where adapters log render warnings.
func WithLogger(l *slog.Logger) Option { return func(c *Catalog) { c.log = l } }

// WithClock sets the clock that dates and ages model lists.
func WithClock(now func() time.Time) Option { return func(c *Catalog) { c.now = now } }

// New returns a Catalog over creds.
func New(creds Credentialer, opts ...Option) *Catalog {
	c := &Catalog{creds: creds, version: "dev", log: slog.Default(), now: time.Now,
		cache: map[string]cached{}, lists: map[string]modelList{}, refreshing: map[string]bool{}}
	c.build = c.adapter
	for _, o := range opts {
		o(c)
	}
	return c
}

// Model returns the adapter for provider, built from its current
// credentials. An adapter is reused while the credentials stay the same,
// so per-adapter caches (e.g. Anthropic's schema cache) survive between
// steps.
func (c *Catalog) Model(ctx context.Context, provider string) (chat.Model, error) {
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
	w := c.watch(m, provider)
	c.cache[provider] = cached{key: key, model: w}
	return w, nil
}

// fingerprint identifies credentials without keeping the secret itself.
func fingerprint(cr auth.Credentials) string {
	sum := sha256.Sum256([]byte(cr.APIKey))
	return fmt.Sprintf("%s|%s|%x|%p|%s|%s|%s", cr.Provider, cr.Method, sum[:8], cr.HTTPClient, cr.AccountID, cr.Project, cr.BaseURL)
}

func (c *Catalog) adapter(cr auth.Credentials) (chat.Model, error) {
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

// Providers lists every provider with whether the user has credentials for
// it and the models its account can use. A list that was never fetched for
// the account, or is older than MaxAge, is refreshed in the background;
// the change is reported through Attach's function.
func (c *Catalog) Providers(ctx context.Context) []Provider {
	have := map[string]auth.Account{}
	if accts, err := c.creds.Accounts(ctx); err == nil {
		for _, a := range accts {
			have[a.Provider] = a
		}
	} else {
		c.log.Warn("catalog: list accounts", "err", err)
	}
	ks := kits()
	out := make([]Provider, 0, len(ks))
	for _, k := range ks {
		p := Provider{ID: k.id, DisplayName: k.name}
		acct, ok := have[k.id]
		if !ok {
			p.Models, p.Source = builtinModels(k), SourceBuiltin
			out = append(out, p)
			continue
		}
		var l modelList
		p.Available = true
		p.Models, p.Source, l = c.models(ctx, k, acct)
		p.FetchedAt, p.Err = l.FetchedAt, l.Err
		out = append(out, p)
	}
	return out
}
