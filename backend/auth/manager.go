package auth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"maestro/backend/chat"
)

// Method is how a provider is signed in.
type Method string

const (
	MethodOAuth  Method = "oauth"
	MethodAPIKey Method = "apikey"
)

// Account is what the Accounts page shows for one provider. Never holds
// secrets.
type Account struct {
	Provider  string    `json:"provider"` // chat.ProviderGemini | ProviderAnthropic | ProviderOpenAI
	Method    Method    `json:"method"`
	Email     string    `json:"email,omitempty"`
	Plan      string    `json:"plan,omitempty"`      // ChatGPT plan_type; Gemini tier name; Claude organization
	AccountID string    `json:"accountId,omitempty"` // ChatGPT account id
	Project   string    `json:"project,omitempty"`   // Gemini Code Assist project
	ExpiresAt time.Time `json:"expiresAt,omitempty"` // of the current access token
}

// ManagerConfig configures a Manager.
type ManagerConfig struct {
	OpenURL func(url string) error // opens the browser; an error means none could be
	// opened, and the login says so (Login.BrowserError) so the UI offers the link and
	// the paste flow at once
	Notify    func(LoginUpdate) // the app turns these into "auth:login" events
	Endpoints Endpoints         // every OAuth and API base URL (zero fields: defaults)
	Logger    *slog.Logger
}

// providers lists the providers in the order Accounts reports them.
var providers = []string{chat.ProviderGemini, chat.ProviderAnthropic, chat.ProviderOpenAI}

// Manager runs browser sign-ins and hands out credentials. See the package
// doc for its concurrency contract.
type Manager struct {
	kc     *Keychain
	open   func(string) error
	notify func(LoginUpdate)
	ep     Endpoints
	log    *slog.Logger

	basesMu  sync.RWMutex      // guards apiBases
	apiBases map[string]string // Settings' API hosts, over ep's (SetAPIBases)
	// hc talks to token endpoints and Code Assist setup; base sends the
	// requests of the OAuth clients Credentials hands out.
	hc   *http.Client
	base http.RoundTripper
	now  func() time.Time

	// Fixed after NewManager; tests adjust them before the first call.
	flows        map[string]flow
	loginTimeout time.Duration

	mu     sync.Mutex // guards logins and closed
	logins map[string]*login
	closed bool
	wg     sync.WaitGroup // login goroutines

	provs map[string]*provState // one per provider, fixed keys
}

// provState is one provider's credentials in memory.
type provState struct {
	// start serializes StartLogin, so one login per provider runs.
	start sync.Mutex
	// mu serializes the provider's keychain writes and guards the fields.
	mu     sync.Mutex
	src    *SavingTokenSource // nil until Credentials needs it
	client *http.Client
	entry  *tokenEntry // mirror of oauth:<provider> while src is set
}

// NewManager returns a Manager storing secrets in kc.
func NewManager(kc *Keychain, cfg ManagerConfig) *Manager {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	m := &Manager{
		kc: kc, open: cfg.OpenURL, notify: cfg.Notify, ep: cfg.Endpoints.withDefaults(), log: log,
		hc:           &http.Client{Timeout: 30 * time.Second},
		base:         http.DefaultTransport,
		now:          time.Now,
		loginTimeout: DefaultLoginTimeout,
		logins:       map[string]*login{},
		provs:        map[string]*provState{},
	}
	now := func() time.Time { return m.now() }
	m.flows = map[string]flow{
		chat.ProviderOpenAI:    &openaiFlow{ports: openaiPorts, now: now},
		chat.ProviderAnthropic: &anthropicFlow{now: now},
		chat.ProviderGemini:    &geminiFlow{now: now, poll: defaultOnboardPoll},
	}
	for _, p := range providers {
		m.provs[p] = &provState{}
	}
	return m
}

func (m *Manager) flow(provider string) (flow, *provState, error) {
	f, ok := m.flows[provider]
	if !ok {
		return nil, nil, chat.E(chat.ErrInvalid, "unknown provider %q", provider)
	}
	return f, m.provs[provider], nil
}

// Accounts returns one entry per provider that has credentials: the method
// in use (see Credentials) and what is known of the account.
func (m *Manager) Accounts(ctx context.Context) ([]Account, error) {
	out := []Account{}
	for _, p := range providers {
		f, ps, _ := m.flow(p)
		ps.mu.Lock()
		method, e, _, err := m.resolveLocked(ctx, f, ps)
		ps.mu.Unlock()
		switch {
		case errors.Is(err, chat.ErrAuthRequired):
			// An unreadable sign-in is no sign-in here; Credentials
			// reports it, and signing in again replaces it.
			continue
		case err != nil:
			return nil, err
		case method == MethodOAuth:
			out = append(out, e.account())
		case method == MethodAPIKey:
			out = append(out, Account{Provider: p, Method: MethodAPIKey})
		}
	}
	return out, nil
}

// resolveLocked reads the provider's keychain entries and picks the method
// in use: the most recently set one (an API key set after the sign-in
// marks the sign-in's entry APIKeyPreferred; a new sign-in clears it).
// method is "" when there are no credentials.
func (m *Manager) resolveLocked(ctx context.Context, f flow, ps *provState) (Method, *tokenEntry, string, error) {
	key, err := m.kc.Get(ctx, apiKeyEntryName(f.provider()))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return "", nil, "", err
	}
	e := ps.entry
	if e == nil {
		e, err = loadEntry(ctx, m.kc, f.provider(), f.display())
		if errors.Is(err, ErrNotFound) {
			e, err = nil, nil
		}
		if err != nil && key == "" {
			return "", nil, "", err
		}
	}
	switch {
	case key != "" && (e == nil || e.APIKeyPreferred):
		return MethodAPIKey, nil, key, nil
	case e != nil:
		return MethodOAuth, e, "", nil
	}
	return "", nil, "", nil
}

// SignOut deletes the provider's OAuth keychain entry and forgets its
// tokens. An API key, if any, stays. Signing out when not signed in is not
// an error.
func (m *Manager) SignOut(ctx context.Context, provider string) error {
	f, ps, err := m.flow(provider)
	if err != nil {
		return err
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if err := deleteEntry(ctx, m.kc, oauthEntryName(provider)); err != nil {
		return fmt.Errorf("%s: sign out: %w", f.display(), err)
	}
	ps.src, ps.client, ps.entry = nil, nil, nil
	m.log.InfoContext(ctx, "auth: signed out", "provider", provider)
	return nil
}

// SetAPIKey stores an API key for provider. Being the most recently set
// method, it is used from now on, until the next sign-in.
func (m *Manager) SetAPIKey(ctx context.Context, provider, key string) (Account, error) {
	f, ps, err := m.flow(provider)
	if err != nil {
		return Account{}, err
	}
	key = strings.TrimSpace(key)
	if key == "" || strings.ContainsFunc(key, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return Account{}, chat.E(chat.ErrInvalid, "the %s API key is empty or contains spaces or control characters", f.display())
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if err := m.kc.Set(ctx, apiKeyEntryName(provider), key); err != nil {
		return Account{}, fmt.Errorf("%s: save the API key: %w", f.display(), err)
	}
	e := ps.entry
	if e == nil {
		e, err = loadEntry(ctx, m.kc, provider, f.display())
		if err != nil && !errors.Is(err, ErrNotFound) && !errors.Is(err, chat.ErrAuthRequired) {
			return Account{}, fmt.Errorf("%s: save the API key: %w", f.display(), err)
		}
	}
	if e != nil && !e.APIKeyPreferred {
		ne := *e
		ne.APIKeyPreferred = true
		if err := saveEntry(ctx, m.kc, &ne); err != nil {
			return Account{}, fmt.Errorf("%s: save the API key: %w", f.display(), err)
		}
		if ps.entry != nil {
			ps.entry = &ne
		}
	}
	m.log.InfoContext(ctx, "auth: API key set", "provider", provider)
	return Account{Provider: provider, Method: MethodAPIKey}, nil
}

// RemoveAPIKey deletes the provider's API key; a sign-in, if any, is used
// again. Removing a missing key is not an error.
func (m *Manager) RemoveAPIKey(ctx context.Context, provider string) error {
	f, ps, err := m.flow(provider)
	if err != nil {
		return err
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if err := deleteEntry(ctx, m.kc, apiKeyEntryName(provider)); err != nil {
		return fmt.Errorf("%s: remove the API key: %w", f.display(), err)
	}
	m.log.InfoContext(ctx, "auth: API key removed", "provider", provider)
	return nil
}

// Close cancels running logins, waits for them and for refreshes in
// flight. The Manager is unusable afterwards.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	running := make([]*login, 0, len(m.logins))
	for _, l := range m.logins {
		running = append(running, l)
	}
	m.mu.Unlock()
	for _, l := range running {
		l.cancel(errManagerClosed)
	}
	m.wg.Wait()
	for _, p := range providers {
		ps := m.provs[p]
		ps.mu.Lock()
		src := ps.src
		ps.mu.Unlock()
		if src != nil {
			src.Wait()
		}
	}
}
