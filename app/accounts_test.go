package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"maestro/backend/auth"
	"maestro/backend/chat"
)

// fakeManager is a hand-written auth.Manager: it records calls and, like the
// real one, reports exactly one terminal update per login through notify.
type fakeManager struct {
	notify func(auth.LoginUpdate)

	// err fails every call. early makes StartLogin report this terminal
	// status before it returns.
	err   error
	early auth.LoginStatus
	// browserErr is what the real manager puts in Login.BrowserError when
	// its OpenURL fails.
	browserErr string

	mu       sync.Mutex
	accounts []auth.Account
	calls    []string
	next     int
	live     map[string]context.Context // running logins and their contexts
}

func (m *fakeManager) record(format string, args ...any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls = append(m.calls, fmt.Sprintf(format, args...))
}

func (m *fakeManager) callLog() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.calls...)
}

func (m *fakeManager) Accounts(context.Context) ([]auth.Account, error) {
	m.record("Accounts")
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]auth.Account(nil), m.accounts...), m.err
}

func (m *fakeManager) StartLogin(ctx context.Context, provider string) (auth.Login, error) {
	m.record("StartLogin %s", provider)
	if m.err != nil {
		return auth.Login{}, m.err
	}
	m.mu.Lock()
	m.next++
	id := fmt.Sprintf("login-%d", m.next)
	if m.live == nil {
		m.live = make(map[string]context.Context)
	}
	m.live[id] = ctx
	m.mu.Unlock()
	l := auth.Login{ID: id, Provider: provider, AuthURL: "https://auth.example/authorize?state=" + id, BrowserError: m.browserErr}
	if provider == chat.ProviderAnthropic {
		l.Manual, l.ManualURL = true, "https://auth.example/authorize?paste=1&state="+id
	}
	m.notify(auth.LoginUpdate{LoginID: id, Provider: provider, Status: auth.LoginWaiting})
	if m.early != "" {
		m.finish(id, provider, m.early, nil)
	}
	return l, nil
}

// finish sends the terminal update for a running login.
func (m *fakeManager) finish(id, provider string, status auth.LoginStatus, err error) {
	m.mu.Lock()
	_, ok := m.live[id]
	delete(m.live, id)
	m.mu.Unlock()
	if !ok {
		return
	}
	u := auth.LoginUpdate{LoginID: id, Provider: provider, Status: status, Err: err}
	if status == auth.LoginSignedIn {
		u.Account = &auth.Account{Provider: provider, Method: auth.MethodOAuth, Email: "ada@example.com", Plan: "plus",
			ExpiresAt: time.UnixMilli(1_900_000_000_000)}
	}
	m.notify(u)
}

func (m *fakeManager) loginCtx(id string) context.Context {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.live[id]
}

func (m *fakeManager) SubmitCode(_ context.Context, loginID, code string) error {
	m.record("SubmitCode %s %s", loginID, code)
	return m.err
}

func (m *fakeManager) CancelLogin(loginID string) error {
	m.record("CancelLogin %s", loginID)
	if m.err != nil {
		return m.err
	}
	m.mu.Lock()
	_, ok := m.live[loginID]
	m.mu.Unlock()
	if !ok {
		return chat.E(chat.ErrNotFound, "no sign-in %s", loginID)
	}
	m.finish(loginID, "", auth.LoginCanceled, nil)
	return nil
}

func (m *fakeManager) SignOut(_ context.Context, provider string) error {
	m.record("SignOut %s", provider)
	return m.err
}

func (m *fakeManager) SetAPIKey(_ context.Context, provider, key string) (auth.Account, error) {
	m.record("SetAPIKey %s %s", provider, key)
	return auth.Account{Provider: provider, Method: auth.MethodAPIKey}, m.err
}

func (m *fakeManager) RemoveAPIKey(_ context.Context, provider string) error {
	m.record("RemoveAPIKey %s", provider)
	return m.err
}

func statuses(evs []LoginEventDTO) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Status
	}
	return out
}

const (
	testKey    = "sk-proj-Abcdefghijklmnop0123456789wxyz"
	storedKey  = "AIzaSyStoredKey0123456789abcdefgh1234"
	googleHint = "AIza…1234"
)

type accountsRig struct {
	a       *App
	rec     *eventLog
	mgr     *fakeManager
	mu      sync.Mutex
	opened  []string
	openErr error // what Runtime.OpenURL returns
}

func (r *accountsRig) openedURLs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.opened...)
}

// startAccounts starts an app whose Accounts is mgr and whose keychain holds
// a Gemini API key.
func startAccounts(t *testing.T, mgr *fakeManager) *accountsRig {
	t.Helper()
	r := &accountsRig{mgr: mgr}
	r.a, r.rec = startApp(t, "", func(d *Deps) {
		d.SignIns = mgr
		d.Keychain = fakeKeychain{secrets: map[string]string{"apikey:gemini": storedKey}}
	}, withRuntime(Runtime{OpenURL: func(_ context.Context, url string) error {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.opened = append(r.opened, url)
		return r.openErr
	}}))
	return r
}

// watched reports how many sign-ins app/ is still watching, once the
// watchers have had the chance to exit.
func watched(t *testing.T, a *App, want int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		a.Accounts.mu.Lock()
		n := len(a.Accounts.logins)
		a.Accounts.mu.Unlock()
		if n == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("app/ watches %d sign-ins; want %d", n, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestAccountsValidation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		call   func(a *App) error
		secret string // must not appear in the error
	}{
		{"sign in to an unknown provider", func(a *App) error { _, err := a.Accounts.SignIn("claude"); return err }, ""},
		{"sign in without a provider", func(a *App) error { _, err := a.Accounts.SignIn(""); return err }, ""},
		{"sign out of a capitalised provider", func(a *App) error { return a.Accounts.SignOut("Gemini") }, ""},
		{"remove the key of an unknown provider", func(a *App) error { return a.Accounts.RemoveAPIKey("chatgpt") }, ""},
		{"set a key for an unknown provider", func(a *App) error { _, err := a.Accounts.SetAPIKey("x", testKey); return err }, ""},
		{"empty key", func(a *App) error { _, err := a.Accounts.SetAPIKey("openai", ""); return err }, ""},
		{"blank key", func(a *App) error { _, err := a.Accounts.SetAPIKey("openai", " \n\t "); return err }, ""},
		{"space inside", func(a *App) error { _, err := a.Accounts.SetAPIKey("openai", "sk-abcdefgh ijklmnopqrstu"); return err }, "ijklmnopqrstu"},
		{"line break inside", func(a *App) error { _, err := a.Accounts.SetAPIKey("openai", "sk-abcdefgh\nijklmnopqrstu"); return err }, "ijklmnopqrstu"},
		{"too short", func(a *App) error { _, err := a.Accounts.SetAPIKey("anthropic", "sk-short"); return err }, "sk-short"},
		{"too long", func(a *App) error {
			_, err := a.Accounts.SetAPIKey("anthropic", strings.Repeat("k", maxKeyLen+1))
			return err
		}, "kkkkkkkk"},
		{"not ascii", func(a *App) error { _, err := a.Accounts.SetAPIKey("gemini", "AIzaSyé0123456789abcdef"); return err }, "0123456789"},
		{"zero-width character", func(a *App) error {
			_, err := a.Accounts.SetAPIKey("gemini", "AIzaSy\u200b0123456789abcdef")
			return err
		}, "0123456789"},
		{"empty code", func(a *App) error { return a.Accounts.SubmitSignInCode("login-1", "  ") }, ""},
		{"code without a login", func(a *App) error { return a.Accounts.SubmitSignInCode("", "abc#def") }, ""},
		{"code with a space", func(a *App) error { return a.Accounts.SubmitSignInCode("login-1", "abc #def") }, ""},
		{"cancel without a login", func(a *App) error { return a.Accounts.CancelSignIn(" ") }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mgr := &fakeManager{}
			r := startAccounts(t, mgr)
			err := tt.call(r.a)
			if got := chat.Kind(err); got != chat.KindInvalid {
				t.Errorf("kind %q (err %v); want invalid", got, err)
			}
			if tt.secret != "" && err != nil && strings.Contains(err.Error(), tt.secret) {
				t.Errorf("error %q repeats the key", err)
			}
			if calls := mgr.callLog(); len(calls) != 0 {
				t.Errorf("manager called %v; want no call for invalid input", calls)
			}
		})
	}
}

func TestSignInReportsEachStep(t *testing.T) {
	t.Parallel()
	mgr := &fakeManager{}
	r := startAccounts(t, mgr)

	l, err := r.a.Accounts.SignIn(chat.ProviderOpenAI)
	if err != nil {
		t.Fatal(err)
	}
	if l.LoginID != "login-1" || l.Provider != "openai" || !strings.HasPrefix(l.AuthURL, "https://auth.example/") || l.Manual {
		t.Errorf("SignIn = %+v", l)
	}
	ctx := mgr.loginCtx(l.LoginID)
	if ctx == nil || ctx.Err() != nil {
		t.Fatalf("StartLogin got context %v; want a live one that outlives the bound call", ctx)
	}
	mgr.notify(auth.LoginUpdate{LoginID: l.LoginID, Provider: "openai", Status: auth.LoginExchanging})
	mgr.finish(l.LoginID, "openai", auth.LoginSignedIn, nil)

	evs := r.rec.loginEvents()
	if got, want := strings.Join(statuses(evs), ","), "waiting,exchanging,signed_in"; got != want {
		t.Fatalf("auth:login statuses %s; want %s", got, want)
	}
	last := evs[2]
	if last.LoginID != l.LoginID || last.Error != nil || last.Account == nil ||
		last.Account.Email != "ada@example.com" || last.Account.Method != "oauth" || last.Account.ExpiresAt != 1_900_000_000_000 {
		t.Errorf("signed_in event = %+v (account %+v)", last, last.Account)
	}
	watched(t, r.a, 0)
	if ctx.Err() == nil {
		t.Error("the sign-in's context is still live after its terminal update")
	}
}

func TestSignInEnds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		end       func(r *accountsRig, id string)
		status    string
		wantKind  string
		wantInMsg string
	}{
		{
			name: "failed with a reason",
			end: func(r *accountsRig, id string) {
				r.mgr.finish(id, "gemini", auth.LoginFailed, chat.E(chat.ErrUnavailable, "Google did not answer: check your connection and try again"))
			},
			status: "failed", wantKind: chat.KindUnavailable, wantInMsg: "Google did not answer",
		},
		{
			name:   "failed without a reason",
			end:    func(r *accountsRig, id string) { r.mgr.finish(id, "gemini", auth.LoginFailed, nil) },
			status: "failed", wantKind: chat.KindInternal, wantInMsg: "sign-in failed",
		},
		{
			name: "canceled by the user",
			end: func(r *accountsRig, id string) {
				if err := r.a.Accounts.CancelSignIn(id); err != nil {
					panic(err)
				}
			},
			status: "canceled",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := startAccounts(t, &fakeManager{})
			l, err := r.a.Accounts.SignIn(chat.ProviderGemini)
			if err != nil {
				t.Fatal(err)
			}
			tt.end(r, l.LoginID)
			evs := r.rec.loginEvents()
			last := evs[len(evs)-1]
			if last.Status != tt.status {
				t.Fatalf("last status %q; want %q", last.Status, tt.status)
			}
			switch {
			case tt.wantKind == "" && last.Error != nil:
				t.Errorf("error = %+v; want none", last.Error)
			case tt.wantKind != "" && (last.Error == nil || last.Error.Kind != tt.wantKind || !strings.Contains(last.Error.Message, tt.wantInMsg)):
				t.Errorf("error = %+v; want kind %s mentioning %q", last.Error, tt.wantKind, tt.wantInMsg)
			}
			watched(t, r.a, 0)
			if err := r.a.Accounts.OpenSignInPage(l.LoginID, false); chat.Kind(err) != chat.KindNotFound {
				t.Errorf("OpenSignInPage after the end: kind %q; want not_found", chat.Kind(err))
			}
		})
	}
}

func TestSignInReplacesRunningOne(t *testing.T) {
	t.Parallel()
	mgr := &fakeManager{}
	r := startAccounts(t, mgr)
	first, _ := r.a.Accounts.SignIn(chat.ProviderAnthropic)
	other, _ := r.a.Accounts.SignIn(chat.ProviderGemini)
	second, err := r.a.Accounts.SignIn(chat.ProviderAnthropic)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"StartLogin anthropic", "StartLogin gemini", "CancelLogin " + first.LoginID, "StartLogin anthropic"}
	if got := mgr.callLog(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("calls %q; want %q", got, want)
	}
	if !second.Manual {
		t.Error("an Anthropic sign-in should accept a pasted code")
	}
	watched(t, r.a, 2) // the other provider's sign-in is left alone
	_ = other
}

func TestSignInThatEndsBeforeStartReturns(t *testing.T) {
	t.Parallel()
	mgr := &fakeManager{early: auth.LoginFailed}
	r := startAccounts(t, mgr)
	if _, err := r.a.Accounts.SignIn(chat.ProviderOpenAI); err != nil {
		t.Fatal(err)
	}
	watched(t, r.a, 0)
	r.a.Accounts.mu.Lock()
	ended := len(r.a.Accounts.ended)
	r.a.Accounts.mu.Unlock()
	if ended != 0 {
		t.Errorf("%d early endings kept; want them consumed", ended)
	}
	done := make(chan struct{})
	go func() { r.a.Shutdown(context.Background()); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		t.Fatal("shutdown waits for a sign-in that has already ended")
	}
}

func TestShutdownCancelsSignIns(t *testing.T) {
	t.Parallel()
	mgr := &fakeManager{}
	r := startAccounts(t, mgr)
	l, err := r.a.Accounts.SignIn(chat.ProviderGemini)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r.a.Shutdown(context.Background())
	if d := time.Since(start); d > loginStopWait/2 {
		t.Errorf("shutdown took %v; want it to cancel the sign-in and return", d)
	}
	if got := statuses(r.rec.loginEvents()); strings.Join(got, ",") != "waiting,canceled" {
		t.Errorf("statuses %v; want waiting, canceled", got)
	}
	if calls := mgr.callLog(); calls[len(calls)-1] != "CancelLogin "+l.LoginID {
		t.Errorf("calls %v; want CancelLogin last", calls)
	}
	if _, err := r.a.Accounts.SignIn(chat.ProviderGemini); !errors.Is(err, chat.ErrUnavailable) {
		t.Errorf("SignIn after shutdown = %v; want ErrUnavailable", err)
	}
}

func TestOpenSignInPage(t *testing.T) {
	t.Parallel()
	r := startAccounts(t, &fakeManager{})
	l, _ := r.a.Accounts.SignIn(chat.ProviderOpenAI)
	claude, _ := r.a.Accounts.SignIn(chat.ProviderAnthropic)
	if err := r.a.Accounts.OpenSignInPage(l.LoginID, false); err != nil {
		t.Fatal(err)
	}
	if err := r.a.Accounts.OpenSignInPage(claude.LoginID, true); err != nil {
		t.Fatal(err)
	}
	want := []string{l.AuthURL, "https://auth.example/authorize?paste=1&state=" + claude.LoginID}
	if got := r.openedURLs(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("opened %q; want %q", got, want)
	}
	if err := r.a.Accounts.OpenSignInPage(l.LoginID, true); chat.Kind(err) != chat.KindInvalid {
		t.Errorf("paste page of a ChatGPT sign-in: kind %q; want invalid", chat.Kind(err))
	}
	if err := r.a.Accounts.OpenSignInPage("login-99", false); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("unknown login: kind %q; want not_found", chat.Kind(err))
	}
	r.a.OpenURL("http://127.0.0.1:1/authorize")
	if got := r.openedURLs(); len(got) != 3 {
		t.Errorf("the OpenURL hook opened %q; want it to go through Runtime.OpenURL", got)
	}
}

func TestAPIKeys(t *testing.T) {
	t.Parallel()
	mgr := &fakeManager{accounts: []auth.Account{
		{Provider: chat.ProviderOpenAI, Method: auth.MethodOAuth, Email: "ada@example.com", Plan: "plus", AccountID: "acc-1"},
		{Provider: chat.ProviderGemini, Method: auth.MethodAPIKey},
	}}
	r := startAccounts(t, mgr)

	acc, err := r.a.Accounts.SetAPIKey(chat.ProviderOpenAI, "  "+testKey+"\n")
	if err != nil {
		t.Fatal(err)
	}
	if acc.Method != "apikey" || acc.KeyHint != "sk-proj-…wxyz" {
		t.Errorf("SetAPIKey = %+v; want method apikey and hint sk-proj-…wxyz", acc)
	}
	if b, _ := json.Marshal(acc); strings.Contains(string(b), "Abcdefghijklmnop") {
		t.Errorf("the account sent to JS holds the key: %s", b)
	}
	if calls := mgr.callLog(); calls[0] != "SetAPIKey openai "+testKey {
		t.Errorf("manager got %q; want the trimmed key", calls[0])
	}

	list, err := r.a.Accounts.List()
	if err != nil {
		t.Fatal(err)
	}
	// In chat.Providers order: ChatGPT before Gemini.
	if len(list) != 2 || list[0].Email != "ada@example.com" || list[0].KeyHint != "" || list[1].Provider != "gemini" || list[1].KeyHint != googleHint {
		t.Errorf("Accounts = %+v; want ChatGPT's sign-in, then Gemini with hint %s", list, googleHint)
	}
	if b, _ := json.Marshal(list); strings.Contains(string(b), storedKey[4:]) {
		t.Errorf("Accounts sent the stored key to JS: %s", b)
	}
	if err := r.a.Accounts.RemoveAPIKey(chat.ProviderGemini); err != nil {
		t.Fatal(err)
	}
	if err := r.a.Accounts.SignOut(chat.ProviderOpenAI); err != nil {
		t.Fatal(err)
	}
	if err := r.a.Accounts.SubmitSignInCode("login-7", " code#state "); err != nil {
		t.Fatal(err)
	}
	calls := mgr.callLog()
	if got, want := strings.Join(calls[len(calls)-3:], "|"), "RemoveAPIKey gemini|SignOut openai|SubmitCode login-7 code#state"; got != want {
		t.Errorf("calls %s; want %s", got, want)
	}
}

func TestAccountErrorsKeepTheirKind(t *testing.T) {
	t.Parallel()
	mgr := &fakeManager{err: chat.E(chat.ErrUnavailable, "keychain unavailable: unlock the login keyring")}
	r := startAccounts(t, mgr)
	calls := map[string]func() error{
		"Accounts":     func() error { _, err := r.a.Accounts.List(); return err },
		"SignIn":       func() error { _, err := r.a.Accounts.SignIn("gemini"); return err },
		"SignOut":      func() error { return r.a.Accounts.SignOut("gemini") },
		"SetAPIKey":    func() error { _, err := r.a.Accounts.SetAPIKey("gemini", storedKey); return err },
		"RemoveAPIKey": func() error { return r.a.Accounts.RemoveAPIKey("gemini") },
		"SubmitCode":   func() error { return r.a.Accounts.SubmitSignInCode("login-1", "a#b") },
		"CancelSignIn": func() error { return r.a.Accounts.CancelSignIn("login-1") },
	}
	for name, call := range calls {
		err := call()
		if dto := errorDTO(err); dto == nil || dto.Kind != chat.KindUnavailable || dto.Message != "keychain unavailable: unlock the login keyring" {
			t.Errorf("%s: %+v; want the manager's error as it is", name, dto)
		}
	}
	watched(t, r.a, 0)
}

func TestAccountsBeforeStartup(t *testing.T) {
	t.Parallel()
	a, _ := newApp(t, "")
	for name, err := range map[string]error{
		"List":   func() error { _, err := a.Accounts.List(); return err }(),
		"SignIn": func() error { _, err := a.Accounts.SignIn("openai"); return err }(),
	} {
		if chat.Kind(err) != chat.KindUnavailable || !strings.Contains(err.Error(), "still starting") {
			t.Errorf("%s before startup = %v; want unavailable, still starting", name, err)
		}
	}
}

func TestMaskKey(t *testing.T) {
	t.Parallel()
	tests := []struct{ key, want string }{
		{"sk-proj-Abcdefghijklmnop0123456789wxyz", "sk-proj-…wxyz"},
		{"sk-ant-api03-abcdefghijklmnopqrstuvwxyz-AAAA", "sk-ant-…AAAA"},
		{"sk-abcdefghijklmnopqrst1234", "sk-…1234"},
		{"AIzaSyA-abcdefghijklmnopqrstuvw_xyz9", "AIza…xyz9"},
		{"plainkey0123456789", "…6789"},
		{"sk-0123456789abcde", "sk-…"}, // too short to show a tail
	}
	for _, tt := range tests {
		if got := maskKey(tt.key); got != tt.want {
			t.Errorf("maskKey(%q) = %q; want %q", tt.key, got, tt.want)
		}
	}
}

// TestSignInWithoutBrowser: when no browser could be opened, SignIn says
// so, and opening the page again reports why instead of failing silently.
func TestSignInWithoutBrowser(t *testing.T) {
	t.Parallel()
	r := startAccounts(t, &fakeManager{browserErr: "no browser could be opened: none of xdg-open is installed"})
	l, err := r.a.Accounts.SignIn(chat.ProviderOpenAI)
	if err != nil {
		t.Fatal(err)
	}
	if l.BrowserError == "" || l.AuthURL == "" {
		t.Errorf("SignIn = %+v; want the link and why no browser opened", l)
	}
	r.mu.Lock()
	r.openErr = chat.E(chat.ErrUnavailable, "no browser could be opened: xdg-open: no method available")
	r.mu.Unlock()
	err = r.a.Accounts.OpenSignInPage(l.LoginID, false)
	if chat.Kind(err) != chat.KindUnavailable || !strings.Contains(err.Error(), "no method available") {
		t.Errorf("OpenSignInPage = %v; want the opener's failure", err)
	}
}
