package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"maestro/backend/auth"
	"maestro/backend/chat"
)

// EventAuthLogin reports the progress of a browser sign-in (LoginEventDTO).
const EventAuthLogin = "auth:login"

// Accounts is what the app needs from the sign-in manager (auth.Manager).
type Accounts interface {
	Accounts(ctx context.Context) ([]auth.Account, error)
	StartLogin(ctx context.Context, provider string) (auth.Login, error)
	SubmitCode(ctx context.Context, loginID, code string) error
	CancelLogin(loginID string) error
	SignOut(ctx context.Context, provider string) error
	SetAPIKey(ctx context.Context, provider, key string) (auth.Account, error)
	RemoveAPIKey(ctx context.Context, provider string) error
}

// API key bounds. Real keys are 39 (Google) to about 200 (OpenAI project
// keys) characters; the bounds only catch a wrong paste.
const (
	minKeyLen = 16
	maxKeyLen = 1024
	// maxCodeLen bounds a pasted sign-in code (Claude's code#state).
	maxCodeLen = 4096
)

// loginStopWait is how long shutdown waits for a canceled sign-in to report
// its end before giving up on it.
const loginStopWait = 5 * time.Second

// signIn is a browser sign-in that app/ is watching. Its fields are set once;
// finished is guarded by App.loginMu.
type signIn struct {
	provider string
	authURL  string
	// manualURL is the paste flow's page (Claude), "" if there is none.
	manualURL string
	done      chan struct{} // closed on the login's terminal update
	finished  bool
}

// Accounts lists the providers that have credentials, in the page's order.
func (a *App) Accounts() ([]AccountDTO, error) {
	mgr, ctx, cancel, err := a.accountsReady()
	if err != nil {
		return nil, err
	}
	defer cancel()
	list, err := mgr.Accounts(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]AccountDTO, 0, len(list))
	for _, acc := range list {
		dto := accountDTO(acc)
		if acc.Method == auth.MethodAPIKey {
			dto.KeyHint = a.keyHint(ctx, acc.Provider)
		}
		out = append(out, dto)
	}
	order := chat.Providers()
	slices.SortStableFunc(out, func(x, y AccountDTO) int {
		return slices.Index(order, x.Provider) - slices.Index(order, y.Provider)
	})
	return out, nil
}

// SignIn starts a browser sign-in and returns at once; progress arrives as
// auth:login events, ending with exactly one signed_in, failed or canceled.
// A sign-in already running for the provider is canceled first.
func (a *App) SignIn(provider string) (LoginDTO, error) {
	if err := validProvider(provider); err != nil {
		return LoginDTO{}, err
	}
	mgr := a.cfg.Accounts
	if mgr == nil {
		return LoginDTO{}, errNoAccounts
	}
	// The WaitGroup slot is taken before the manager is called, so shutdown
	// waits for this sign-in from here on.
	root, err := a.beginWork()
	if err != nil {
		return LoginDTO{}, err
	}
	a.cancelSignIns(mgr, provider)
	ctx, cancel := context.WithCancel(root)
	l, err := mgr.StartLogin(ctx, provider)
	if err != nil {
		cancel()
		a.work.Done()
		return LoginDTO{}, err
	}
	dto := LoginDTO{LoginID: l.ID, Provider: l.Provider, AuthURL: l.AuthURL, Manual: l.Manual, BrowserError: l.BrowserError}
	s := &signIn{provider: l.Provider, authURL: l.AuthURL, manualURL: l.ManualURL, done: make(chan struct{})}
	a.loginMu.Lock()
	if a.ended[l.ID] {
		// It ended before StartLogin returned; its events are already out.
		delete(a.ended, l.ID)
		a.loginMu.Unlock()
		cancel()
		a.work.Done()
		return dto, nil
	}
	if a.logins == nil {
		a.logins = make(map[string]*signIn)
	}
	a.logins[l.ID] = s
	a.loginMu.Unlock()
	go a.watchSignIn(ctx, cancel, mgr, l.ID, s)
	return dto, nil
}

// watchSignIn owns a sign-in's context: it ends it after the terminal update,
// or at shutdown cancels the sign-in and waits (boundedly) for that update.
func (a *App) watchSignIn(ctx context.Context, cancel context.CancelFunc, mgr Accounts, id string, s *signIn) {
	defer a.work.Done()
	defer cancel()
	select {
	case <-s.done:
	case <-ctx.Done():
		if err := mgr.CancelLogin(id); err != nil && !errors.Is(err, chat.ErrNotFound) {
			a.log.Warn("cancel sign-in at shutdown", "login", id, "err", err)
		}
		select {
		case <-s.done:
		case <-time.After(loginStopWait):
			a.log.Warn("sign-in did not report its end", "login", id, "provider", s.provider)
		}
	}
	a.loginMu.Lock()
	delete(a.logins, id)
	a.loginMu.Unlock()
}

// cancelSignIns cancels the running sign-ins for provider.
func (a *App) cancelSignIns(mgr Accounts, provider string) {
	var ids []string
	a.loginMu.Lock()
	for id, s := range a.logins {
		if s.provider == provider && !s.finished {
			ids = append(ids, id)
		}
	}
	a.loginMu.Unlock()
	for _, id := range ids {
		if err := mgr.CancelLogin(id); err != nil && !errors.Is(err, chat.ErrNotFound) {
			a.log.Warn("cancel previous sign-in", "login", id, "err", err)
		}
	}
}

// CancelSignIn stops a running sign-in; its canceled event follows.
func (a *App) CancelSignIn(loginID string) error {
	if a.cfg.Accounts == nil {
		return errNoAccounts
	}
	if strings.TrimSpace(loginID) == "" {
		return chat.E(chat.ErrInvalid, "no sign-in was named")
	}
	return a.cfg.Accounts.CancelLogin(loginID)
}

// SubmitSignInCode finishes a sign-in with a code the user pasted from the
// provider's page (Claude shows "code#state").
func (a *App) SubmitSignInCode(loginID, code string) error {
	code = strings.TrimSpace(code)
	switch {
	case strings.TrimSpace(loginID) == "":
		return chat.E(chat.ErrInvalid, "no sign-in was named")
	case code == "":
		return chat.E(chat.ErrInvalid, "the code is empty: paste the code the sign-in page showed")
	case len(code) > maxCodeLen:
		return chat.E(chat.ErrInvalid, "the code is too long (%d characters): paste only the code the sign-in page showed", len(code))
	case strings.ContainsFunc(code, unicode.IsSpace):
		return chat.E(chat.ErrInvalid, "the code has spaces or line breaks inside: paste only the code the sign-in page showed")
	}
	mgr, ctx, cancel, err := a.accountsReady()
	if err != nil {
		return err
	}
	defer cancel()
	return mgr.SubmitCode(ctx, loginID, code)
}

// OpenSignInPage opens a running sign-in's page in the browser again, for
// when the first one was closed or went to the wrong window. With paste set
// it opens the provider's page that shows a code to paste into
// SubmitSignInCode instead (Claude), for when the browser cannot reach
// Maestro's loopback listener.
func (a *App) OpenSignInPage(loginID string, paste bool) error {
	a.loginMu.Lock()
	s, ok := a.logins[loginID]
	running := ok && !s.finished
	a.loginMu.Unlock()
	switch {
	case !running:
		return chat.E(chat.ErrNotFound, "this sign-in has already ended: start it again")
	case paste && s.manualURL == "":
		return chat.E(chat.ErrInvalid, "this sign-in does not take a pasted code")
	case paste:
		return a.openURL(s.manualURL)
	default:
		return a.openURL(s.authURL)
	}
}

// SignOut removes the provider's sign-in from the keychain.
func (a *App) SignOut(provider string) error {
	if err := validProvider(provider); err != nil {
		return err
	}
	mgr, ctx, cancel, err := a.accountsReady()
	if err != nil {
		return err
	}
	defer cancel()
	if err := mgr.SignOut(ctx, provider); err != nil {
		return err
	}
	a.emit(EventModelsChanged, provider)
	return nil
}

// SetAPIKey stores an API key for the provider in the keychain. The key is
// never sent back: the account carries a masked hint such as "sk-…abcd".
func (a *App) SetAPIKey(provider, key string) (AccountDTO, error) {
	if err := validProvider(provider); err != nil {
		return AccountDTO{}, err
	}
	key, err := normalizeKey(key)
	if err != nil {
		return AccountDTO{}, err
	}
	mgr, ctx, cancel, err := a.accountsReady()
	if err != nil {
		return AccountDTO{}, err
	}
	defer cancel()
	acc, err := mgr.SetAPIKey(ctx, provider, key)
	if err != nil {
		return AccountDTO{}, err
	}
	a.refreshModels(provider)
	dto := accountDTO(acc)
	dto.KeyHint = maskKey(key)
	return dto, nil
}

// refreshModels tells the picker the provider's credentials changed (it
// shows at once whether the provider is usable) and fetches the model list
// the new account can use; models:changed follows again when it lands.
func (a *App) refreshModels(provider string) {
	a.emit(EventModelsChanged, provider)
	if a.chat != nil && a.chat.deps.Catalog != nil {
		a.chat.deps.Catalog.RefreshSoon(provider)
	}
}

// RemoveAPIKey deletes the provider's API key from the keychain.
func (a *App) RemoveAPIKey(provider string) error {
	if err := validProvider(provider); err != nil {
		return err
	}
	mgr, ctx, cancel, err := a.accountsReady()
	if err != nil {
		return err
	}
	defer cancel()
	if err := mgr.RemoveAPIKey(ctx, provider); err != nil {
		return err
	}
	a.emit(EventModelsChanged, provider)
	return nil
}

// loginUpdate is the manager's Notify: it forwards the update as an
// auth:login event and, on the terminal one, releases the watcher.
func (a *App) loginUpdate(u auth.LoginUpdate) {
	a.emit(EventAuthLogin, loginEventDTO(u))
	if !terminal(u.Status) {
		return
	}
	if u.Status == auth.LoginSignedIn {
		a.refreshModels(u.Provider)
	}
	a.loginMu.Lock()
	defer a.loginMu.Unlock()
	s, ok := a.logins[u.LoginID]
	if !ok {
		// StartLogin has not returned yet; SignIn will see this.
		if a.ended == nil || len(a.ended) > 64 {
			a.ended = make(map[string]bool)
		}
		a.ended[u.LoginID] = true
		return
	}
	if !s.finished {
		s.finished = true
		close(s.done)
	}
}

// openURL opens url in the user's browser through the runtime; the error
// says why none could be opened.
func (a *App) openURL(url string) error {
	a.mu.RLock()
	ctx := a.wailsCtx
	a.mu.RUnlock()
	if ctx == nil {
		return chat.E(chat.ErrUnavailable, "the window is not open yet, so no browser can be opened")
	}
	if err := a.cfg.Runtime.OpenURL(ctx, url); err != nil {
		a.log.Warn("open the browser", "err", err)
		return err
	}
	return nil
}

var errNoAccounts = chat.E(chat.ErrUnavailable, "sign-in is not available in this build of Maestro")

// accountsReady returns the manager and a context for one bound call: a child
// of the root context bounded by a timeout. Accounts do not need the data
// file, so unlike ready this works when the store failed to open.
func (a *App) accountsReady() (Accounts, context.Context, context.CancelFunc, error) {
	if a.cfg.Accounts == nil {
		return nil, nil, nil, errNoAccounts
	}
	a.mu.RLock()
	root := a.root
	a.mu.RUnlock()
	switch {
	case root == nil:
		return nil, nil, nil, fmt.Errorf("maestro is still starting: %w", chat.ErrUnavailable)
	case root.Err() != nil:
		return nil, nil, nil, fmt.Errorf("maestro is shutting down: %w", chat.ErrUnavailable)
	}
	ctx, cancel := context.WithTimeout(root, 30*time.Second)
	return a.cfg.Accounts, ctx, cancel, nil
}

// beginWork takes a WaitGroup slot for long work and returns the root
// context, or fails once shutdown has begun. Holding mu while checking and
// adding means no Add can race shutdown's Wait: shutdown cancels the root
// before it waits, and a canceled root refuses new work here.
func (a *App) beginWork() (context.Context, error) {
	a.mu.RLock()
	defer a.mu.RUnlock()
	switch {
	case a.root == nil:
		return nil, fmt.Errorf("maestro is still starting: %w", chat.ErrUnavailable)
	case a.root.Err() != nil:
		return nil, fmt.Errorf("maestro is shutting down: %w", chat.ErrUnavailable)
	}
	a.work.Add(1)
	return a.root, nil
}

// keyHint masks the provider's stored API key, or returns "" if it cannot
// be read. The key itself stays in Go.
func (a *App) keyHint(ctx context.Context, provider string) string {
	if a.cfg.Keychain == nil {
		return ""
	}
	key, err := a.cfg.Keychain.Get(ctx, "apikey:"+provider)
	if err != nil {
		return ""
	}
	return maskKey(strings.TrimSpace(key))
}

func validProvider(p string) error {
	if knownProvider(p) {
		return nil
	}
	return chat.E(chat.ErrInvalid, "unknown provider %q: want %s", p, strings.Join(chat.Providers(), ", "))
}

func terminal(s auth.LoginStatus) bool {
	switch s {
	case auth.LoginSignedIn, auth.LoginFailed, auth.LoginCanceled:
		return true
	}
	return false
}

// normalizeKey trims a pasted API key and rejects what cannot be one. The
// messages never contain the key.
func normalizeKey(key string) (string, error) {
	k := strings.TrimFunc(key, unicode.IsSpace)
	switch {
	case k == "":
		return "", chat.E(chat.ErrInvalid, "the API key is empty")
	case strings.ContainsFunc(k, unicode.IsSpace):
		return "", chat.E(chat.ErrInvalid, "the API key has spaces or line breaks inside: copy it again from the provider's console")
	case len(k) < minKeyLen:
		return "", chat.E(chat.ErrInvalid, "the API key is too short (%d characters): API keys have at least %d", len(k), minKeyLen)
	case len(k) > maxKeyLen:
		return "", chat.E(chat.ErrInvalid, "the API key is too long (%d characters): API keys have at most %d", len(k), maxKeyLen)
	case strings.ContainsFunc(k, func(r rune) bool { return r < 0x21 || r > 0x7e }):
		return "", chat.E(chat.ErrInvalid, "the API key has characters API keys never contain: copy it again from the provider's console")
	}
	return k, nil
}

// keyPrefixes are the public prefixes a masked key keeps, longest first.
var keyPrefixes = []string{"sk-ant-", "sk-proj-", "sk-svcacct-", "sk-", "AIza"}

// maskKey shows a key's public prefix and its last four characters, e.g.
// "sk-…abcd"; the tail is shown only when at least 12 characters stay hidden.
func maskKey(key string) string {
	prefix := ""
	for _, p := range keyPrefixes {
		if strings.HasPrefix(key, p) {
			prefix = p
			break
		}
	}
	rest := key[len(prefix):]
	tail := ""
	if len(rest) >= 16 {
		tail = rest[len(rest)-4:]
	}
	return prefix + "…" + tail
}

// AccountDTO is a provider's credentials as the Accounts page shows them. It
// never carries a secret.
type AccountDTO struct {
	Provider string `json:"provider"`
	// Method is "oauth" (signed in with the provider's account) or "apikey".
	Method    string `json:"method"`
	Email     string `json:"email,omitempty"`
	Plan      string `json:"plan,omitempty"`
	AccountID string `json:"accountId,omitempty"`
	Project   string `json:"project,omitempty"`
	// ExpiresAt is when the access token expires, in Unix milliseconds; 0 if unknown.
	ExpiresAt int64 `json:"expiresAt,omitempty"`
	// KeyHint is the API key masked, e.g. "sk-…abcd".
	KeyHint string `json:"keyHint,omitempty"`
}

// LoginDTO is a started browser sign-in.
type LoginDTO struct {
	LoginID  string `json:"loginId"`
	Provider string `json:"provider"`
	// AuthURL is the page the browser was sent to, shown as a fallback link.
	AuthURL string `json:"authUrl"`
	// Manual is true when the provider also accepts a pasted code (Claude).
	Manual bool `json:"manual"`
	// BrowserError says why no browser could be opened: the page shows the
	// link to open elsewhere, and the paste flow, at once.
	BrowserError string `json:"browserError,omitempty"`
}

// LoginEventDTO is the payload of an auth:login event.
type LoginEventDTO struct {
	LoginID  string `json:"loginId"`
	Provider string `json:"provider"`
	// Status is waiting, exchanging, signed_in, failed or canceled.
	Status  string      `json:"status"`
	Error   *ErrorDTO   `json:"error,omitempty"`
	Account *AccountDTO `json:"account,omitempty"`
}

func accountDTO(acc auth.Account) AccountDTO {
	return AccountDTO{
		Provider: acc.Provider, Method: string(acc.Method), Email: acc.Email, Plan: acc.Plan,
		AccountID: acc.AccountID, Project: acc.Project, ExpiresAt: millis(acc.ExpiresAt),
	}
}

func loginEventDTO(u auth.LoginUpdate) LoginEventDTO {
	dto := LoginEventDTO{LoginID: u.LoginID, Provider: u.Provider, Status: string(u.Status)}
	if u.Err != nil {
		dto.Error = errorDTO(u.Err)
	} else if u.Status == auth.LoginFailed {
		dto.Error = &ErrorDTO{Kind: chat.KindInternal, Message: "the sign-in failed"}
	}
	if u.Account != nil {
		acc := accountDTO(*u.Account)
		dto.Account = &acc
	}
	return dto
}
