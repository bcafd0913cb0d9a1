package app

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"maestro/backend/auth"
	"maestro/backend/chat"
)

// Accounts is the bound service of the Accounts page: each provider's
// credentials, browser sign-ins (which report through auth:login events)
// and API keys. It does not need the data file.
//
// A browser sign-in returns at once; a goroutine app/ starts holds the
// login's context (a child of the root) until the manager reports the
// login's one terminal update through LoginUpdate. At shutdown that
// goroutine cancels the login and waits, boundedly, for the update. mu
// guards the logins being watched and is never held while calling the
// manager, which may report synchronously from inside a call.
type Accounts struct {
	core     *core
	signIns  SignIns
	keychain Keychain
	catalog  ModelCatalog

	mu     sync.Mutex
	logins map[string]*signIn // by login id
	ended  map[string]bool    // ids whose terminal update came before StartLogin returned
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
// finished is guarded by Accounts.mu.
type signIn struct {
	provider string
	authURL  string
	// manualURL is the paste flow's page (Claude), "" if there is none.
	manualURL string
	done      chan struct{} // closed on the login's terminal update
	finished  bool
}

// List lists the providers that have credentials, in the page's order.
func (a *Accounts) List() ([]AccountDTO, error) {
	ctx, cancel, err := a.core.rootCall()
	if err != nil {
		return nil, err
	}
	defer cancel()
	list, err := a.signIns.Accounts(ctx)
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
func (a *Accounts) SignIn(provider string) (LoginDTO, error) {
	if err := validProvider(provider); err != nil {
		return LoginDTO{}, err
	}
	mgr := a.signIns
	// The WaitGroup slot is taken before the manager is called, so shutdown
	// waits for this sign-in from here on.
	root, err := a.core.beginWork()
	if err != nil {
		return LoginDTO{}, err
	}
	a.cancelSignIns(provider)
	ctx, cancel := context.WithCancel(root)
	l, err := mgr.StartLogin(ctx, provider)
	if err != nil {
		cancel()
		a.core.work.Done()
		return LoginDTO{}, err
	}
	dto := LoginDTO{LoginID: l.ID, Provider: l.Provider, AuthURL: l.AuthURL, Manual: l.Manual, BrowserError: l.BrowserError}
	s := &signIn{provider: l.Provider, authURL: l.AuthURL, manualURL: l.ManualURL, done: make(chan struct{})}
	a.mu.Lock()
	if a.ended[l.ID] {
		// It ended before StartLogin returned; its events are already out.
		delete(a.ended, l.ID)
		a.mu.Unlock()
		cancel()
		a.core.work.Done()
		return dto, nil
	}
	if a.logins == nil {
		a.logins = make(map[string]*signIn)
	}
	a.logins[l.ID] = s
	a.mu.Unlock()
	go a.watchSignIn(ctx, cancel, l.ID, s)
	return dto, nil
}

// watchSignIn owns a sign-in's context: it ends it after the terminal update,
// or at shutdown cancels the sign-in and waits (boundedly) for that update.
func (a *Accounts) watchSignIn(ctx context.Context, cancel context.CancelFunc, id string, s *signIn) {
	defer a.core.work.Done()
	defer cancel()
	select {
	case <-s.done:
	case <-ctx.Done():
		if err := a.signIns.CancelLogin(id); err != nil && !errors.Is(err, chat.ErrNotFound) {
			a.core.log.Warn("cancel sign-in at shutdown", "login", id, "err", err)
		}
		select {
		case <-s.done:
		case <-time.After(loginStopWait):
			a.core.log.Warn("sign-in did not report its end", "login", id, "provider", s.provider)
		}
	}
	a.mu.Lock()
	delete(a.logins, id)
	a.mu.Unlock()
}

// cancelSignIns cancels the running sign-ins for provider.
func (a *Accounts) cancelSignIns(provider string) {
	var ids []string
	a.mu.Lock()
	for id, s := range a.logins {
		if s.provider == provider && !s.finished {
			ids = append(ids, id)
		}
	}
	a.mu.Unlock()
	for _, id := range ids {
		if err := a.signIns.CancelLogin(id); err != nil && !errors.Is(err, chat.ErrNotFound) {
			a.core.log.Warn("cancel previous sign-in", "login", id, "err", err)
		}
	}
}

// CancelSignIn stops a running sign-in; its canceled event follows.
func (a *Accounts) CancelSignIn(loginID string) error {
	if strings.TrimSpace(loginID) == "" {
		return chat.E(chat.ErrInvalid, "no sign-in was named")
	}
	return a.signIns.CancelLogin(loginID)
}

// SubmitSignInCode finishes a sign-in with a code the user pasted from the
// provider's page (Claude shows "code#state").
func (a *Accounts) SubmitSignInCode(loginID, code string) error {
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
	ctx, cancel, err := a.core.rootCall()
	if err != nil {
		return err
	}
	defer cancel()
	return a.signIns.SubmitCode(ctx, loginID, code)
}

// OpenSignInPage opens a running sign-in's page in the browser again, for
// when the first one was closed or went to the wrong window. With paste set
// it opens the provider's page that shows a code to paste into
// SubmitSignInCode instead (Claude), for when the browser cannot reach
// Maestro's loopback listener.
func (a *Accounts) OpenSignInPage(loginID string, paste bool) error {
	a.mu.Lock()
	s, ok := a.logins[loginID]
	running := ok && !s.finished
	a.mu.Unlock()
	switch {
	case !running:
		return chat.E(chat.ErrNotFound, "this sign-in has already ended: start it again")
	case paste && s.manualURL == "":
		return chat.E(chat.ErrInvalid, "this sign-in does not take a pasted code")
	case paste:
		return a.core.openURL(s.manualURL)
	default:
		return a.core.openURL(s.authURL)
	}
}

// SignOut removes the provider's sign-in from the keychain.
func (a *Accounts) SignOut(provider string) error {
	if err := validProvider(provider); err != nil {
		return err
	}
	ctx, cancel, err := a.core.rootCall()
	if err != nil {
		return err
	}
	defer cancel()
	if err := a.signIns.SignOut(ctx, provider); err != nil {
		return err
	}
	a.core.events.emit(EventModelsChanged, provider)
	return nil
}

// SetAPIKey stores an API key for the provider in the keychain. The key is
// never sent back: the account carries a masked hint such as "sk-…abcd".
func (a *Accounts) SetAPIKey(provider, key string) (AccountDTO, error) {
	if err := validProvider(provider); err != nil {
		return AccountDTO{}, err
	}
	key, err := normalizeKey(key)
	if err != nil {
		return AccountDTO{}, err
	}
	ctx, cancel, err := a.core.rootCall()
	if err != nil {
		return AccountDTO{}, err
	}
	defer cancel()
	acc, err := a.signIns.SetAPIKey(ctx, provider, key)
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
func (a *Accounts) refreshModels(provider string) {
	a.core.events.emit(EventModelsChanged, provider)
	a.catalog.RefreshSoon(provider)
}

// RemoveAPIKey deletes the provider's API key from the keychain.
func (a *Accounts) RemoveAPIKey(provider string) error {
	if err := validProvider(provider); err != nil {
		return err
	}
	ctx, cancel, err := a.core.rootCall()
	if err != nil {
		return err
	}
	defer cancel()
	if err := a.signIns.RemoveAPIKey(ctx, provider); err != nil {
		return err
	}
	a.core.events.emit(EventModelsChanged, provider)
	return nil
}

// loginUpdate is the manager's Notify: it forwards the update as an
// auth:login event and, on the terminal one, releases the watcher.
func (a *Accounts) loginUpdate(u auth.LoginUpdate) {
	a.core.events.emit(EventAuthLogin, loginEventDTO(u))
	if !terminal(u.Status) {
		return
	}
	if u.Status == auth.LoginSignedIn {
		a.refreshModels(u.Provider)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
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

// keyHint masks the provider's stored API key, or returns "" if it cannot
// be read. The key itself stays in Go.
func (a *Accounts) keyHint(ctx context.Context, provider string) string {
	key, err := a.keychain.Get(ctx, "apikey:"+provider)
	if err != nil {
		return ""
	}
	return maskKey(strings.TrimSpace(key))
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
	Provider string `json:"provider" ts:"ProviderId"`
	// Method is "oauth" (signed in with the provider's account) or "apikey".
	Method    string `json:"method" ts:"AccountMethod"`
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
	Provider string `json:"provider" ts:"ProviderId"`
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
	Provider string `json:"provider" ts:"ProviderId"`
	// Status is waiting, exchanging, signed_in, failed or canceled.
	Status  string      `json:"status" ts:"LoginStatus"`
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
