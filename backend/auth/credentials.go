package auth

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"golang.org/x/oauth2"

	"maestro/backend/chat"
)

// Credentials is what a provider adapter is built with: either an API key
// or an OAuth *http.Client, plus the account details the adapter needs and
// the base URL that goes with the method.
//
//	switch c.Method {
//	case auth.MethodAPIKey:
//	    m = openai.New(openai.WithAPIKey(c.APIKey), openai.WithBaseURL(c.BaseURL))
//	case auth.MethodOAuth:
//	    m = openai.New(openai.WithHTTPClient(c.HTTPClient), openai.WithAccountID(c.AccountID),
//	        openai.WithBaseURL(c.BaseURL))
//	}
//
// It holds a secret (the key, or a client that adds a token): never log it
// whole; String and LogValue leave the secret out.
type Credentials struct {
	Provider string
	Method   Method
	// APIKey is set for MethodAPIKey.
	APIKey string
	// HTTPClient is set for MethodOAuth: it adds the bearer, refreshes it
	// RefreshEarly before expiry (saving the result), and on a 401
	// refreshes once and retries. It is shared by every adapter of the
	// provider, so refreshes are never duplicated. It has no timeout:
	// streams are bounded by their context.
	HTTPClient *http.Client
	// AccountID is the ChatGPT account (openai.WithAccountID).
	AccountID string
	// Project is the Gemini Code Assist project (gemini.WithProject).
	Project string
	// BaseURL is the host for this method (WithBaseURL): the ChatGPT backend
	// or the public API, Code Assist or the Generative Language API,
	// api.anthropic.com either way.
	BaseURL string
}

// String describes c without its secret.
func (c Credentials) String() string {
	return fmt.Sprintf("auth.Credentials{Provider:%s Method:%s AccountID:%s Project:%s BaseURL:%s}",
		c.Provider, c.Method, c.AccountID, c.Project, c.BaseURL)
}

// GoString is String, so %#v does not print the key either.
func (c Credentials) GoString() string { return c.String() }

// LogValue implements slog.LogValuer without the secret.
func (c Credentials) LogValue() slog.Value {
	return slog.GroupValue(slog.String("provider", c.Provider), slog.String("method", string(c.Method)),
		slog.String("accountId", c.AccountID), slog.String("project", c.Project), slog.String("baseUrl", c.BaseURL))
}

// Credentials returns what the provider's adapter needs. When both a
// sign-in and an API key exist, the most recently set one is used
// (SetAPIKey after a sign-in prefers the key; a new sign-in prefers
// itself). For a sign-in the token is made valid first, so an expired or
// revoked sign-in fails here as chat.ErrAuthRequired ("sign in to … again")
// rather than in the middle of a request. With no credentials at all the
// error is chat.ErrAuthRequired too.
func (m *Manager) Credentials(ctx context.Context, provider string) (Credentials, error) {
	f, ps, err := m.flow(provider)
	if err != nil {
		return Credentials{}, err
	}
	ps.mu.Lock()
	method, e, key, err := m.resolveLocked(ctx, f, ps)
	if err != nil {
		ps.mu.Unlock()
		return Credentials{}, err
	}
	switch method {
	case MethodAPIKey:
		ps.mu.Unlock()
		return Credentials{Provider: provider, Method: MethodAPIKey, APIKey: key, BaseURL: m.apiBase(provider)}, nil
	case MethodOAuth:
	default:
		ps.mu.Unlock()
		return Credentials{}, chat.E(chat.ErrAuthRequired, "sign in to %s or add an API key in Accounts", f.display())
	}
	src, client := m.sourceLocked(f, ps, e)
	ps.mu.Unlock()
	// Not under ps.mu: a refresh saves through it.
	if _, err := src.TokenContext(ctx); err != nil {
		return Credentials{}, err
	}
	ps.mu.Lock()
	e = ps.entry
	ps.mu.Unlock()
	c := Credentials{Provider: provider, Method: MethodOAuth, HTTPClient: client, BaseURL: m.oauthBase(provider)}
	if e != nil {
		c.AccountID, c.Project = e.AccountID, e.Project
	}
	if provider == chat.ProviderGemini && c.Project == "" {
		return Credentials{}, chat.E(chat.ErrAuthRequired, "the saved Gemini sign-in has no Code Assist project; sign in to Gemini again")
	}
	return c, nil
}

func (m *Manager) apiBase(provider string) string {
	m.basesMu.RLock()
	b := m.apiBases[provider]
	m.basesMu.RUnlock()
	if b != "" {
		return b
	}
	switch provider {
	case chat.ProviderOpenAI:
		return m.ep.OpenAIAPI
	case chat.ProviderGemini:
		return m.ep.GeminiBase
	}
	return m.ep.AnthropicBase
}

func (m *Manager) oauthBase(provider string) string {
	switch provider {
	case chat.ProviderOpenAI:
		return m.ep.OpenAIBase
	case chat.ProviderGemini:
		return m.ep.GeminiCodeAssist
	}
	return m.ep.AnthropicBase
}

// sourceLocked returns the provider's token source and client, building
// them from e on first use.
func (m *Manager) sourceLocked(f flow, ps *provState, e *tokenEntry) (*SavingTokenSource, *http.Client) {
	if ps.src != nil {
		return ps.src, ps.client
	}
	var src *SavingTokenSource
	refresh := func(ctx context.Context, rt string) (*oauth2.Token, error) {
		return f.refresh(ctx, m.hc, m.ep, rt)
	}
	save := func(ctx context.Context, t *oauth2.Token) error { return m.saveRefreshed(ctx, f, ps, src, t) }
	src = NewSavingTokenSource(e.token(), refresh, save, WithClock(func() time.Time { return m.now() }), WithLogger(m.log))
	ps.src, ps.entry = src, e
	ps.client = &http.Client{Transport: &Transport{Source: src, Base: m.base, Log: m.log}}
	return ps.src, ps.client
}

// saveRefreshed writes a refreshed token, whole, unless src is no longer
// the provider's source (signed out or signed in again meanwhile).
func (m *Manager) saveRefreshed(ctx context.Context, f flow, ps *provState, src *SavingTokenSource, t *oauth2.Token) error {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.src != src || ps.entry == nil {
		return nil
	}
	e := *ps.entry
	e.setToken(t, m.now())
	f.refreshed(&e)
	ps.entry = &e
	if err := saveEntry(ctx, m.kc, &e); err != nil {
		return fmt.Errorf("%s: save the refreshed sign-in: %w", f.display(), err)
	}
	return nil
}

// SetAPIBases sets the hosts used with an API key, per provider (the
// base URL rows of Settings, docs/SETTINGS.md); "" restores the
// endpoint's own, and providers not named keep theirs. Credentials handed
// out from then on carry them (the catalog builds a new adapter for a new
// base URL). Safe for concurrent use.
func (m *Manager) SetAPIBases(bases map[string]string) {
	m.basesMu.Lock()
	defer m.basesMu.Unlock()
	if m.apiBases == nil {
		m.apiBases = map[string]string{}
	}
	for provider, base := range bases {
		m.apiBases[provider] = base
	}
}
