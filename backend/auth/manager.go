package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

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

// LoginStatus is the progress of a Login.
type LoginStatus string

const (
	LoginWaiting    LoginStatus = "waiting"
	LoginExchanging LoginStatus = "exchanging"
	LoginSignedIn   LoginStatus = "signed_in"
	LoginFailed     LoginStatus = "failed"
	LoginCanceled   LoginStatus = "canceled"
)

// Login is a started browser sign-in.
type Login struct {
	ID       string
	Provider string
	// AuthURL is the URL handed to the browser (its redirect comes back to
	// the loopback listener).
	AuthURL string
	// Manual is true when the provider also supports pasting a code
	// (Claude: code#state).
	Manual bool
	// ManualURL is the sign-in URL of the paste flow (same PKCE and state,
	// but its redirect shows code#state to copy instead of coming back to
	// the listener); a code from it goes to SubmitCode. "" unless Manual.
	ManualURL string
	// BrowserError says why no browser could be opened on AuthURL; "" when
	// one was. The sign-in still waits: the user can open the link elsewhere.
	BrowserError string
}

// LoginUpdate reports progress of a Login; exactly one terminal update
// (signed_in, failed or canceled) per login.
type LoginUpdate struct {
	LoginID  string
	Provider string
	Status   LoginStatus
	Err      error    // set when failed or canceled: a plain-words message wrapping a chat kind
	Account  *Account // set when signed_in
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

// DefaultLoginTimeout is how long a sign-in waits for the browser.
const DefaultLoginTimeout = 5 * time.Minute

// providers lists the providers in the order Accounts reports them.
var providers = []string{chat.ProviderGemini, chat.ProviderAnthropic, chat.ProviderOpenAI}

// Errors that end a login; context.Cause tells them apart.
var (
	errLoginTimeout  = errors.New("sign-in timed out")
	errLoginCanceled = errors.New("sign-in canceled")
	errLoginReplaced = errors.New("sign-in replaced by a new one")
	errManagerClosed = errors.New("sign-in manager closed")
)

// Manager runs browser sign-ins and hands out credentials. See the package
// doc for its concurrency contract.
type Manager struct {
	kc     *Keychain
	open   func(string) error
	notify func(LoginUpdate)
	ep     Endpoints
	log    *slog.Logger
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

// login is one running sign-in.
type login struct {
	id, provider string
	flow         flow
	pkce         pkce
	state        string
	manual       string // the paste flow's redirect URI, "" if none
	cancel       context.CancelCauseFunc
	arrivals     chan arrival
	ended        chan struct{} // closed once the outcome is known: no more arrivals
	done         chan struct{} // closed once the listener is shut and the login forgotten
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

// StartLogin starts a browser sign-in for provider: it binds the loopback
// listener, opens the authorize URL through OpenURL and returns at once.
// Progress arrives through Notify. A login already running for the same
// provider is canceled first. The keychain is probed up front, so a
// missing or locked one fails here with a hint rather than after the
// browser round trip.
func (m *Manager) StartLogin(ctx context.Context, provider string) (Login, error) {
	f, ps, err := m.flow(provider)
	if err != nil {
		return Login{}, err
	}
	host, err := m.ep.callbackBindHost()
	if err != nil {
		return Login{}, err
	}
	if err := m.kc.Probe(ctx); err != nil {
		return Login{}, fmt.Errorf("%s sign-in needs the keychain: %w", f.display(), err)
	}
	ps.start.Lock()
	defer ps.start.Unlock()
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return Login{}, chat.E(chat.ErrCanceled, "%s sign-in: the app is shutting down", f.display())
	}
	var prev *login
	for _, l := range m.logins {
		if l.provider == provider {
			prev = l
		}
	}
	m.mu.Unlock()
	if prev != nil {
		prev.cancel(errLoginReplaced)
		<-prev.done
	}

	spec := f.listen()
	ln, err := listenLoopback(host, spec.ports)
	if err != nil {
		return Login{}, listenError(f, host, spec.ports, err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	rhost := spec.redirectHost
	if rhost == "" {
		rhost = host
	}
	redirect := "http://" + net.JoinHostPort(rhost, strconv.Itoa(port)) + spec.path
	p, state := f.secrets()
	l := &login{
		id: "login-" + strings.ToLower(rand.Text()), provider: provider, flow: f, pkce: p, state: state,
		manual: f.manualRedirect(m.ep), arrivals: make(chan arrival), ended: make(chan struct{}), done: make(chan struct{}),
	}
	lg := Login{ID: l.id, Provider: provider, AuthURL: f.authURL(m.ep, redirect, p, state)}
	if l.manual != "" {
		lg.Manual, lg.ManualURL = true, f.authURL(m.ep, l.manual, p, state)
	}

	base, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	lctx, stop := context.WithTimeoutCause(base, m.loginTimeout, errLoginTimeout)
	l.cancel = func(cause error) { cancel(cause); stop() }
	cb := newCallbackServer(ln, spec.path, state, f.display(), redirect, m.log, l.deliver)

	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		l.cancel(errManagerClosed)
		cb.close()
		return Login{}, chat.E(chat.ErrCanceled, "%s sign-in: the app is shutting down", f.display())
	}
	m.logins[l.id] = l
	m.wg.Add(1)
	m.mu.Unlock()
	go m.run(lctx, l, cb)

	m.log.InfoContext(ctx, "auth: sign-in started", "provider", provider, "login", l.id, "port", port)
	if m.open != nil {
		if err := m.open(lg.AuthURL); err != nil {
			lg.BrowserError = err.Error()
			m.log.WarnContext(ctx, "auth: open the browser", "provider", provider, "login", l.id, "err", err)
		}
	}
	return lg, nil
}

func listenError(f flow, host string, ports []int, err error) error {
	if len(ports) > 1 {
		ps := make([]string, len(ports))
		for i, p := range ports {
			ps[i] = strconv.Itoa(p)
		}
		return chat.E(chat.ErrUnavailable, "%s sign-in needs port %s on %s, and all are in use "+
			"(another %s or Codex sign-in may be open); close it and try again: %w",
			f.display(), strings.Join(ps, " or "), host, f.display(), err)
	}
	return chat.E(chat.ErrUnavailable, "%s sign-in: cannot listen on %s for the browser's answer: %w", f.display(), host, err)
}

// run waits for the login's one arrival (or its end) and reports the
// outcome. It owns the callback server and closes it before the terminal
// update, as the package doc promises: whoever sees the update can rely on
// the listener being gone.
func (m *Manager) run(ctx context.Context, l *login, cb *callbackServer) {
	defer m.wg.Done()
	m.update(ctx, l, LoginWaiting, nil, nil)
	st, acct, err := m.wait(ctx, l)
	// In this order: a handler waiting to deliver gives up (ended), so the
	// listener can shut without waiting for it (a handler that delivered
	// has its reply and finishes its page first); then the terminal
	// update; only then is the login gone for CancelLogin's waiters (done).
	close(l.ended)
	cb.close()
	l.cancel(nil)
	m.update(ctx, l, st, err, acct)
	m.mu.Lock()
	delete(m.logins, l.id)
	m.mu.Unlock()
	close(l.done)
}

// wait returns the login's outcome: its arrival exchanged (the arrival
// answered), or why its context ended.
func (m *Manager) wait(ctx context.Context, l *login) (LoginStatus, *Account, error) {
	var err error
	select {
	case a := <-l.arrivals:
		if a.err != nil {
			a.reply <- a.err
			return LoginFailed, nil, a.err
		}
		m.update(ctx, l, LoginExchanging, nil, nil)
		var acct *Account
		acct, err = m.complete(ctx, l, a)
		if err != nil && ctx.Err() != nil {
			err = m.endedError(ctx, l)
		}
		a.reply <- err
		if err == nil {
			return LoginSignedIn, acct, nil
		}
	case <-ctx.Done():
		err = m.endedError(ctx, l)
	}
	if errors.Is(err, chat.ErrCanceled) {
		return LoginCanceled, nil, err
	}
	return LoginFailed, nil, err
}

// endedError puts the reason a login's context ended into words.
func (m *Manager) endedError(ctx context.Context, l *login) error {
	d := l.flow.display()
	switch context.Cause(ctx) {
	case errLoginTimeout:
		return chat.E(chat.ErrAuthRequired, "%s sign-in timed out: the browser did not come back within %s; try again",
			d, m.loginTimeout.Round(time.Second))
	case errLoginReplaced:
		return chat.E(chat.ErrCanceled, "%s sign-in was replaced by a new one", d)
	case errManagerClosed:
		return chat.E(chat.ErrCanceled, "%s sign-in was stopped: the app is shutting down", d)
	}
	return chat.E(chat.ErrCanceled, "%s sign-in was canceled", d)
}

// complete exchanges the code, finishes the account setup and saves the
// sign-in. The save runs even if the user cancels at that moment: the
// tokens exist by then and are only safe in the keychain.
func (m *Manager) complete(ctx context.Context, l *login, a arrival) (*Account, error) {
	f := l.flow
	e, err := f.exchange(ctx, m.hc, m.ep, grant{code: a.code, redirectURI: a.redirectURI, pkce: l.pkce, state: l.state})
	if err != nil {
		return nil, err
	}
	e.Provider, e.SignedInAt = f.provider(), m.now()
	if e.TokenType == "" {
		e.TokenType = "Bearer"
	}
	if err := f.finish(ctx, finishDeps{hc: m.hc, ep: m.ep, log: m.log}, e); err != nil {
		return nil, err
	}
	if err := m.install(context.WithoutCancel(ctx), f, e); err != nil {
		return nil, fmt.Errorf("%s sign-in: save to the keychain: %w", f.display(), err)
	}
	acct := e.account()
	return &acct, nil
}

// install saves a new sign-in and drops the provider's old token source,
// whose late refreshes are then not saved.
func (m *Manager) install(ctx context.Context, f flow, e *tokenEntry) error {
	ps := m.provs[f.provider()]
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if err := saveEntry(ctx, m.kc, e); err != nil {
		return err
	}
	ps.src, ps.client, ps.entry = nil, nil, nil
	return nil
}

func (m *Manager) update(ctx context.Context, l *login, st LoginStatus, err error, acct *Account) {
	u := LoginUpdate{LoginID: l.id, Provider: l.provider, Status: st, Err: err, Account: acct}
	if err != nil {
		m.log.WarnContext(ctx, "auth: sign-in", "provider", l.provider, "login", l.id, "status", st, "err", err)
	} else {
		m.log.InfoContext(ctx, "auth: sign-in", "provider", l.provider, "login", l.id, "status", st)
	}
	if m.notify != nil {
		m.notify(u)
	}
}

// deliver hands a to the login and waits for the outcome of its exchange.
// delivered is false when the login is no longer waiting.
func (l *login) deliver(ctx context.Context, a arrival) (delivered bool, err error) {
	a.reply = make(chan error, 1)
	select {
	case l.arrivals <- a:
	case <-l.ended:
		return false, nil
	case <-ctx.Done():
		return false, chat.E(chat.ErrCanceled, "hand the code to the sign-in: %w", context.Cause(ctx))
	}
	select {
	case err := <-a.reply:
		return true, err
	case <-ctx.Done():
		return true, chat.E(chat.ErrCanceled, "wait for the sign-in to finish: %w", context.Cause(ctx))
	}
}

func (m *Manager) lookup(id string) *login {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.logins[id]
}

// SubmitCode completes a paste-flow login with what the provider's page
// showed: "code#state" (Claude). A malformed paste, or one whose state is
// another login's, is refused and the login keeps waiting; otherwise the
// code is exchanged and SubmitCode returns the outcome, which is also
// reported through Notify.
func (m *Manager) SubmitCode(ctx context.Context, loginID, code string) error {
	l := m.lookup(loginID)
	if l == nil {
		return chat.E(chat.ErrNotFound, "no sign-in %q is waiting", loginID)
	}
	d := l.flow.display()
	if l.manual == "" {
		return chat.E(chat.ErrInvalid, "%s sign-in does not take a pasted code", d)
	}
	c, st, ok := strings.Cut(strings.TrimSpace(code), "#")
	c, st = strings.TrimSpace(c), strings.TrimSpace(st)
	if !ok || c == "" || st == "" {
		return chat.E(chat.ErrInvalid, "paste the whole code %s shows, including the part after #", d)
	}
	if subtle.ConstantTimeCompare([]byte(st), []byte(l.state)) != 1 {
		return chat.E(chat.ErrInvalid, "the pasted code belongs to another sign-in; paste the code shown for this one")
	}
	delivered, err := l.deliver(ctx, arrival{code: c, redirectURI: l.manual})
	if !delivered && err == nil {
		return chat.E(chat.ErrConflict, "this %s sign-in is no longer waiting for a code", d)
	}
	return err
}

// CancelLogin stops a running login; it returns once the login has
// reported its terminal update.
func (m *Manager) CancelLogin(loginID string) error {
	l := m.lookup(loginID)
	if l == nil {
		return chat.E(chat.ErrNotFound, "no sign-in %q is running", loginID)
	}
	l.cancel(errLoginCanceled)
	<-l.done
	return nil
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
