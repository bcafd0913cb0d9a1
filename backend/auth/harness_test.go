package auth

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"maestro/backend/chat"
	"maestro/backend/providers/anthropic/anthropicfake"
	"maestro/backend/providers/fakes"
	"maestro/backend/providers/gemini/geminifake"
	"maestro/backend/providers/openai/openaifake"
)

// env is a Manager wired to the three in-process fakes and an in-memory
// keychain. Every update, log line and error a test notes is checked for
// secrets when the test ends.
type env struct {
	t      *testing.T
	m      *Manager
	fb     *fakeBackend
	kc     *Keychain
	oa     *openaifake.Server
	an     *anthropicfake.Server
	ge     *geminifake.Server
	ep     Endpoints
	opened chan string
	logs   *syncBuffer

	mu      sync.Mutex
	updates []LoginUpdate
	changed chan struct{}
	errs    []error
	keys    []string // API keys the test set
}

type envConfig struct {
	oa       []openaifake.Option
	an       []anthropicfake.Option
	ge       []geminifake.Option
	endpoint func(*Endpoints)
	backend  backend
	kc       *Keychain // a real keychain, instead of backend
	openErr  error     // what OpenURL returns: no browser could be opened
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newEnv(t *testing.T, c envConfig) *env {
	t.Helper()
	e := &env{t: t, opened: make(chan string, 16), logs: &syncBuffer{}, changed: make(chan struct{}, 1)}
	e.oa = openaifake.New(append([]openaifake.Option{openaifake.WithOAuthAnyPort()}, c.oa...)...)
	e.an = anthropicfake.New(c.an...)
	e.ge = geminifake.New(c.ge...)
	oaSrv, anSrv, geSrv := httptest.NewServer(e.oa), httptest.NewServer(e.an), httptest.NewServer(e.ge)
	t.Cleanup(oaSrv.Close)
	t.Cleanup(anSrv.Close)
	t.Cleanup(geSrv.Close)
	e.ep = Endpoints{
		OpenAIAuth: oaSrv.URL, OpenAIBase: oaSrv.URL, OpenAIAPI: oaSrv.URL,
		AnthropicAuth: anSrv.URL, AnthropicToken: anSrv.URL, AnthropicBase: anSrv.URL,
		GeminiAuth: geSrv.URL, GeminiToken: geSrv.URL, GeminiUserinfo: geSrv.URL, GeminiCodeAssist: geSrv.URL, GeminiBase: geSrv.URL,
	}
	if c.endpoint != nil {
		c.endpoint(&e.ep)
	}
	e.kc = c.kc
	if e.kc == nil {
		b := c.backend
		if b == nil {
			b = &fakeBackend{}
		}
		e.fb, _ = b.(*fakeBackend)
		e.kc = New("maestro", withBackend(b), WithTimeout(2*time.Second))
	}
	e.m = NewManager(e.kc, ManagerConfig{
		OpenURL:   func(u string) error { e.opened <- u; return c.openErr },
		Notify:    e.note,
		Endpoints: e.ep,
		Logger:    slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	// ChatGPT's real ports are 1455 and 1457; only TestChatGPTPortFallback
	// uses them, everything else takes a free port (the fake allows any).
	e.m.flows[chat.ProviderOpenAI].(*openaiFlow).ports = []int{0}
	e.m.flows[chat.ProviderGemini].(*geminiFlow).poll = time.Millisecond
	t.Cleanup(func() {
		e.m.Close()
		e.assertNoSecrets()
	})
	return e
}

func (e *env) note(u LoginUpdate) {
	e.mu.Lock()
	e.updates = append(e.updates, u)
	if u.Err != nil {
		e.errs = append(e.errs, u.Err)
	}
	e.mu.Unlock()
	select {
	case e.changed <- struct{}{}:
	default:
	}
}

// noteErr keeps err for the secret check.
func (e *env) noteErr(err error) error {
	if err != nil {
		e.mu.Lock()
		e.errs = append(e.errs, err)
		e.mu.Unlock()
	}
	return err
}

// statuses returns the statuses reported for loginID so far.
func (e *env) statuses(loginID string) []LoginStatus {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []LoginStatus
	for _, u := range e.updates {
		if u.LoginID == loginID {
			out = append(out, u.Status)
		}
	}
	return out
}

func terminal(s LoginStatus) bool {
	return s == LoginSignedIn || s == LoginFailed || s == LoginCanceled
}

// waitTerminal waits for loginID's terminal update.
func (e *env) waitTerminal(loginID string) LoginUpdate {
	e.t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		e.mu.Lock()
		for _, u := range e.updates {
			if u.LoginID == loginID && terminal(u.Status) {
				e.mu.Unlock()
				return u
			}
		}
		e.mu.Unlock()
		select {
		case <-e.changed:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			e.t.Fatalf("login %s: no terminal update within 10s; got %v", loginID, e.statuses(loginID))
		}
	}
}

// lastLogin is the login of the latest update.
func (e *env) lastLogin() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.updates[len(e.updates)-1].LoginID
}

// entries counts the keychain's entries.
func (f *fakeBackend) entries() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.secrets)
}

// issuers are the fakes' authorization servers.
func (e *env) issuers() []*fakes.Issuer {
	return []*fakes.Issuer{e.oa.OAuth(), e.an.OAuth(), e.ge.OAuth()}
}

// assertNoSecrets checks that no code, token or API key issued during the
// test reached a log line, an update's error or a noted error.
func (e *env) assertNoSecrets() {
	e.t.Helper()
	var secrets []string
	for _, is := range e.issuers() {
		secrets = append(secrets, is.Secrets()...)
	}
	e.mu.Lock()
	secrets = append(secrets, e.keys...)
	texts := []string{e.logs.String()}
	for _, err := range e.errs {
		texts = append(texts, err.Error())
	}
	e.mu.Unlock()
	for _, s := range secrets {
		if len(s) < 8 {
			continue
		}
		for _, txt := range texts {
			if strings.Contains(txt, s) {
				e.t.Errorf("a secret (%s…) leaked into a log line or an error: %q", s[:6], strings.ReplaceAll(txt, s, "<SECRET>"))
			}
		}
	}
}

// browser follows redirects like a browser, cookie-less.
var browser = &http.Client{Timeout: 10 * time.Second}

// browse opens u and returns the final page.
func browse(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := browser.Get(u)
	if err != nil {
		t.Fatalf("browse %s: %v", redactQuery(u), err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func redactQuery(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(unparsable URL)"
	}
	p.RawQuery = ""
	return p.String()
}

// queryOf returns the query of u.
func queryOf(t *testing.T, u string) url.Values {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return p.Query()
}

// signIn runs a whole browser sign-in for provider and returns its
// terminal update.
func (e *env) signIn(provider string) LoginUpdate {
	e.t.Helper()
	lg, err := e.m.StartLogin(e.t.Context(), provider)
	if err != nil {
		e.t.Fatalf("StartLogin(%s) = %v", provider, e.noteErr(err))
	}
	if got := <-e.opened; got != lg.AuthURL {
		e.t.Fatalf("OpenURL got a different URL than Login.AuthURL")
	}
	status, page := browse(e.t, lg.AuthURL)
	u := e.waitTerminal(lg.ID)
	if u.Status == LoginSignedIn && (status != http.StatusOK || !strings.Contains(page, "return to Maestro")) {
		e.t.Errorf("callback page = %d %q; want 200 and a page telling the user to return to Maestro", status, page)
	}
	return u
}

// mustSignIn is signIn that fails the test unless signed in.
func (e *env) mustSignIn(provider string) *Account {
	e.t.Helper()
	u := e.signIn(provider)
	if u.Status != LoginSignedIn || u.Account == nil {
		e.t.Fatalf("sign-in to %s: status %s, err %v; want signed_in", provider, u.Status, u.Err)
	}
	return u.Account
}

// entry reads the provider's oauth entry from the keychain.
func (e *env) entry(provider string) *tokenEntry {
	e.t.Helper()
	te, err := loadEntry(context.Background(), e.kc, provider, provider)
	if err != nil {
		e.t.Fatalf("read oauth:%s: %v", provider, err)
	}
	return te
}

var codePattern = regexp.MustCompile(`<pre id="code">([^<]*)</pre>`)

// wantKind fails unless err has the chat kind.
func wantKind(t *testing.T, err error, kind error) {
	t.Helper()
	if err == nil || !errors.Is(err, kind) {
		t.Fatalf("err = %v; want a %v error", err, kind)
	}
}
