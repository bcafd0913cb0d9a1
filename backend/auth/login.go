package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"maestro/backend/chat"
)

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

// DefaultLoginTimeout is how long a sign-in waits for the browser.
const DefaultLoginTimeout = 5 * time.Minute

// Errors that end a login; context.Cause tells them apart.
var (
	errLoginTimeout  = errors.New("sign-in timed out")
	errLoginCanceled = errors.New("sign-in canceled")
	errLoginReplaced = errors.New("sign-in replaced by a new one")
	errManagerClosed = errors.New("sign-in manager closed")
)

// login is one running sign-in.
type login struct {
	id, provider string
	flow         flow
	pkce         PKCE
	state        string
	manual       string // the paste flow's redirect URI, "" if none
	cancel       context.CancelCauseFunc
	arrivals     chan arrival
	ended        chan struct{} // closed once the outcome is known: no more arrivals
	done         chan struct{} // closed once the listener is shut and the login forgotten
}

// arrival is a sign-in code, or the provider's refusal, reaching a login
// from the loopback listener or from SubmitCode. The login answers on
// reply (buffered) with the outcome of the exchange.
type arrival struct {
	code        string
	redirectURI string // the redirect_uri the exchange must repeat
	err         error
	reply       chan error
}

// arrivalOf reads the loopback listener's query.
func arrivalOf(display, redirectURI string, q url.Values) arrival {
	a := arrival{code: q.Get("code"), redirectURI: redirectURI, err: RedirectError(display, q)}
	if a.err != nil {
		a.code = ""
	}
	return a
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
	ln, err := ListenLoopback(host, spec.ports)
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
	cb := ServeCallback(ln, CallbackConfig{Path: spec.path, State: state, Display: f.display(), Log: m.log,
		Deliver: func(ctx context.Context, q url.Values) (bool, error) {
			return l.deliver(ctx, arrivalOf(f.display(), redirect, q))
		}})

	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		l.cancel(errManagerClosed)
		cb.Close()
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
func (m *Manager) run(ctx context.Context, l *login, cb *Callback) {
	defer m.wg.Done()
	m.update(ctx, l, LoginWaiting, nil, nil)
	st, acct, err := m.wait(ctx, l)
	// In this order: a handler waiting to deliver gives up (ended), so the
	// listener can shut without waiting for it (a handler that delivered
	// has its reply and finishes its page first); then the terminal
	// update; only then is the login gone for CancelLogin's waiters (done).
	close(l.ended)
	cb.Close()
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
