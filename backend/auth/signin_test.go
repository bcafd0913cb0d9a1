package auth

import (
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"maestro/backend/chat"
	"maestro/backend/providers/anthropic/anthropicfake"
	"maestro/backend/providers/gemini/geminifake"
	"maestro/backend/providers/openai/openaifake"
)

func TestSignIn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		provider string
		want     Account
	}{
		{chat.ProviderOpenAI, Account{Provider: chat.ProviderOpenAI, Method: MethodOAuth, Email: "ada@example.com",
			Plan: "plus", AccountID: "acc_fake0001"}},
		{chat.ProviderAnthropic, Account{Provider: chat.ProviderAnthropic, Method: MethodOAuth, Email: "ada@example.com",
			Plan: "Ada's Organization"}},
		{chat.ProviderGemini, Account{Provider: chat.ProviderGemini, Method: MethodOAuth, Email: "ada@example.com",
			Plan: "Gemini Code Assist for individuals", Project: "maestro-fake-free-project"}},
	}
	for _, tt := range tests {
		t.Run(tt.provider, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, envConfig{})
			acct := e.mustSignIn(tt.provider)
			got := *acct
			if got.ExpiresAt.IsZero() || time.Until(got.ExpiresAt) < 50*time.Minute {
				t.Errorf("ExpiresAt = %v; want about an hour from now", got.ExpiresAt)
			}
			got.ExpiresAt = time.Time{}
			if got != tt.want {
				t.Errorf("account = %+v; want %+v", got, tt.want)
			}

			// The keychain holds the whole sign-in under oauth:<provider>.
			te := e.entry(tt.provider)
			if te.AccessToken == "" || te.RefreshToken == "" || te.Provider != tt.provider || te.SignedInAt.IsZero() {
				t.Errorf("oauth:%s entry = %+v; want tokens, provider and sign-in time", tt.provider, te)
			}
			if n := e.fb.entries(); n != 1 {
				t.Errorf("keychain has %d entries; want only oauth:%s", n, tt.provider)
			}
			accts, err := e.m.Accounts(t.Context())
			if err != nil || len(accts) != 1 || accts[0].Provider != tt.provider || accts[0].Method != MethodOAuth {
				t.Errorf("Accounts() = %+v, %v; want the one %s sign-in", accts, err, tt.provider)
			}

			// The updates: waiting, exchanging, signed_in.
			if got, want := e.statuses(e.lastLogin()), []LoginStatus{LoginWaiting, LoginExchanging, LoginSignedIn}; !slices.Equal(got, want) {
				t.Errorf("updates = %v; want %v", got, want)
			}
		})
	}
}

// TestAuthorizeParameters checks each authorize URL against the §Sign-in:
// authorize URL of its docs/providers file: the parameters, in order, with
// the values the fakes check.
func TestAuthorizeParameters(t *testing.T) {
	t.Parallel()
	ep := DefaultEndpoints()
	p := PKCE{Verifier: "v", Challenge: "CHALLENGE"}
	tests := []struct {
		f        flow
		redirect string
		want     string
	}{
		{&openaiFlow{}, "http://localhost:1455/auth/callback",
			"https://auth.openai.com/oauth/authorize?response_type=code&client_id=app_EMoamEEZ73f0CkXaXp7hrann" +
				"&redirect_uri=http%3A%2F%2Flocalhost%3A1455%2Fauth%2Fcallback&scope=openid%20profile%20email%20offline_access" +
				"&code_challenge=CHALLENGE&code_challenge_method=S256&id_token_add_organizations=true" +
				"&codex_cli_simplified_flow=true&state=STATE&originator=maestro"},
		{&anthropicFlow{}, "http://localhost:5555/callback",
			"https://claude.ai/oauth/authorize?code=true&client_id=9d1c250a-e61b-44d9-88ed-5944d1962f5e&response_type=code" +
				"&redirect_uri=http%3A%2F%2Flocalhost%3A5555%2Fcallback&scope=org%3Acreate_api_key%20user%3Aprofile%20user%3Ainference" +
				"&code_challenge=CHALLENGE&code_challenge_method=S256&state=STATE"},
		{&geminiFlow{}, "http://127.0.0.1:5555/oauth2callback",
			"https://accounts.google.com/o/oauth2/v2/auth?redirect_uri=http%3A%2F%2F127.0.0.1%3A5555%2Foauth2callback" +
				"&access_type=offline&scope=https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fcloud-platform%20" +
				"https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fuserinfo.email%20https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fuserinfo.profile" +
				"&state=STATE&response_type=code&client_id=681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com" +
				"&code_challenge_method=S256&code_challenge=CHALLENGE"},
	}
	for _, tt := range tests {
		t.Run(tt.f.provider(), func(t *testing.T) {
			t.Parallel()
			if got := tt.f.authURL(ep, tt.redirect, p, "STATE"); got != tt.want {
				t.Errorf("authURL =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
	if got, want := (anthropicFlow{}).manualRedirect(ep), "https://console.anthropic.com/oauth/code/callback"; got != want {
		t.Errorf("manual redirect = %q; want %q", got, want)
	}
}

func TestOriginatorMatchesAdapter(t *testing.T) {
	t.Parallel()
	// Kept in sync by hand with openai.DefaultOriginator; importing the
	// adapter here would be the only reason for the dependency.
	if openaiOriginator != "maestro" {
		t.Errorf("openaiOriginator = %q; want the adapter's default \"maestro\"", openaiOriginator)
	}
}

func TestRedirectURIs(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{})
	tests := []struct {
		provider string
		pattern  string
	}{
		{chat.ProviderOpenAI, "http://localhost:%d/auth/callback"},
		{chat.ProviderAnthropic, "http://localhost:%d/callback"},
		{chat.ProviderGemini, "http://127.0.0.1:%d/oauth2callback"},
	}
	for _, tt := range tests {
		lg, err := e.m.StartLogin(t.Context(), tt.provider)
		if err != nil {
			t.Fatalf("StartLogin(%s) = %v", tt.provider, err)
		}
		<-e.opened
		redirect := queryOf(t, lg.AuthURL).Get("redirect_uri")
		var port int
		if _, err := fmt.Sscanf(redirect, tt.pattern, &port); err != nil || fmt.Sprintf(tt.pattern, port) != redirect {
			t.Errorf("%s redirect_uri = %q; want %q", tt.provider, redirect, tt.pattern)
		}
		// The listener is on 127.0.0.1 only.
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err != nil {
			t.Errorf("%s: listener not on 127.0.0.1:%d: %v", tt.provider, port, err)
		} else {
			c.Close()
		}
		if err := e.m.CancelLogin(lg.ID); err != nil {
			t.Fatal(err)
		}
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			t.Errorf("%s: listener still open after CancelLogin", tt.provider)
		}
		if got := queryOf(t, lg.AuthURL).Get("state"); got == "" {
			t.Errorf("%s: no state", tt.provider)
		}
		if lg.Manual != (tt.provider == chat.ProviderAnthropic) {
			t.Errorf("%s: Manual = %v", tt.provider, lg.Manual)
		}
	}
}

func TestCallbackHostMustBeLoopback(t *testing.T) {
	t.Parallel()
	for _, host := range []string{"0.0.0.0", "::", "192.0.2.1", "example.com"} {
		e := newEnv(t, envConfig{endpoint: func(ep *Endpoints) { ep.CallbackHost = host }})
		_, err := e.m.StartLogin(t.Context(), chat.ProviderGemini)
		wantKind(t, e.noteErr(err), chat.ErrInvalid)
		if !strings.Contains(err.Error(), "loopback") {
			t.Errorf("host %q: err = %v; want it to say loopback", host, err)
		}
	}
	for host, want := range map[string]string{"": "127.0.0.1", "localhost": "127.0.0.1", "127.0.0.2": "127.0.0.2", "::1": "::1", "[::1]": "::1"} {
		got, err := Endpoints{CallbackHost: host}.callbackBindHost()
		if err != nil || got != want {
			t.Errorf("callbackBindHost(%q) = %q, %v; want %q", host, got, err, want)
		}
	}
}

func TestStateMismatchIgnored(t *testing.T) {
	t.Parallel()
	for _, provider := range []string{chat.ProviderOpenAI, chat.ProviderAnthropic, chat.ProviderGemini} {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, envConfig{})
			lg, err := e.m.StartLogin(t.Context(), provider)
			if err != nil {
				t.Fatal(err)
			}
			<-e.opened
			redirect := queryOf(t, lg.AuthURL).Get("redirect_uri")
			for _, q := range []string{"code=stolen&state=wrong", "code=stolen", "error=access_denied&state=wrong"} {
				status, body := browse(t, redirect+"?"+q)
				if status != http.StatusBadRequest || strings.TrimSpace(body) != "State mismatch" {
					t.Errorf("callback ?%s = %d %q; want 400 \"State mismatch\"", q, status, body)
				}
			}
			if got := e.statuses(lg.ID); slices.ContainsFunc(got, terminal) {
				t.Fatalf("a wrong state ended the login: %v", got)
			}
			// The real redirect still works.
			browse(t, lg.AuthURL)
			if u := e.waitTerminal(lg.ID); u.Status != LoginSignedIn {
				t.Errorf("status = %s (%v); want signed_in", u.Status, u.Err)
			}
			if e.oa.OAuth().Stats().CodeExchanges+e.an.OAuth().Stats().CodeExchanges+e.ge.OAuth().Stats().CodeExchanges != 1 {
				t.Errorf("the stolen code was exchanged")
			}
		})
	}
}

// TestPKCEMismatchRejectedByFake exchanges a real code with another
// verifier: each fake refuses it, and the error says so in plain words.
func TestPKCEMismatchRejectedByFake(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{})
	for _, provider := range []string{chat.ProviderOpenAI, chat.ProviderAnthropic, chat.ProviderGemini} {
		t.Run(provider, func(t *testing.T) {
			f := e.m.flows[provider]
			p, state := f.secrets()
			redirect := map[string]string{
				chat.ProviderOpenAI:    "http://localhost:4242/auth/callback",
				chat.ProviderAnthropic: "http://localhost:4242/callback",
				chat.ProviderGemini:    "http://127.0.0.1:4242/oauth2callback",
			}[provider]
			noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			resp, err := noFollow.Get(f.authURL(e.ep, redirect, p, state))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			loc, _ := url.Parse(resp.Header.Get("Location"))
			code := loc.Query().Get("code")
			if resp.StatusCode != http.StatusFound || code == "" || loc.Query().Get("state") != state {
				t.Fatalf("authorize = %d, Location %s; want a redirect with code and state", resp.StatusCode, redirectQueryKeys(loc))
			}
			other, _ := f.secrets()
			_, err = f.exchange(t.Context(), e.m.hc, e.ep, grant{code: code, redirectURI: redirect, pkce: other, state: state})
			wantKind(t, e.noteErr(err), chat.ErrAuthRequired)
			if !strings.Contains(err.Error(), "code_verifier") || !strings.Contains(err.Error(), "invalid_grant") {
				t.Errorf("err = %v; want the fake's invalid_grant about the code_verifier", err)
			}
		})
	}
}

func redirectQueryKeys(u *url.URL) []string {
	var ks []string
	for k := range u.Query() {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func TestCancelLogin(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{})
	lg, err := e.m.StartLogin(t.Context(), chat.ProviderGemini)
	if err != nil {
		t.Fatal(err)
	}
	redirect := queryOf(t, <-e.opened).Get("redirect_uri")
	if err := e.m.CancelLogin(lg.ID); err != nil {
		t.Fatalf("CancelLogin() = %v", err)
	}
	u := e.waitTerminal(lg.ID)
	if u.Status != LoginCanceled {
		t.Errorf("status = %s; want canceled", u.Status)
	}
	wantKind(t, u.Err, chat.ErrCanceled)
	if _, err := browser.Get(redirect); err == nil {
		t.Errorf("the listener still answers after cancel")
	}
	wantKind(t, e.noteErr(e.m.CancelLogin(lg.ID)), chat.ErrNotFound)
	wantKind(t, e.noteErr(e.m.SubmitCode(t.Context(), lg.ID, "a#b")), chat.ErrNotFound)
}

// With no browser, the login says why at once and still completes when the
// user opens its link elsewhere.
func TestSignInWithoutBrowser(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{openErr: errors.New("no browser could be opened: xdg-open: no method available")})
	lg, err := e.m.StartLogin(t.Context(), chat.ProviderOpenAI)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(lg.BrowserError, "xdg-open: no method available") {
		t.Errorf("Login.BrowserError = %q; want why the browser did not open", lg.BrowserError)
	}
	url := <-e.opened
	if url != lg.AuthURL {
		t.Fatalf("opened %q; want the login's AuthURL", url)
	}
	if code, _ := browse(t, url); code != http.StatusOK {
		t.Fatalf("the sign-in page answered %d", code)
	}
	if u := e.waitTerminal(lg.ID); u.Status != LoginSignedIn {
		t.Errorf("update = %s %v; want signed in through the link opened elsewhere", u.Status, u.Err)
	}
}

func TestLoginTimeout(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{})
	e.m.loginTimeout = 150 * time.Millisecond
	lg, err := e.m.StartLogin(t.Context(), chat.ProviderAnthropic)
	if err != nil {
		t.Fatal(err)
	}
	redirect := queryOf(t, <-e.opened).Get("redirect_uri")
	u := e.waitTerminal(lg.ID)
	if u.Status != LoginFailed || !strings.Contains(u.Err.Error(), "timed out") {
		t.Errorf("update = %s %v; want failed, timed out", u.Status, u.Err)
	}
	wantKind(t, u.Err, chat.ErrAuthRequired)
	if _, err := browser.Get(redirect); err == nil {
		t.Errorf("the listener still answers after the timeout")
	}
}

func TestReplaceAndClose(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{})
	first, err := e.m.StartLogin(t.Context(), chat.ProviderOpenAI)
	if err != nil {
		t.Fatal(err)
	}
	<-e.opened
	second, err := e.m.StartLogin(t.Context(), chat.ProviderOpenAI)
	if err != nil {
		t.Fatal(err)
	}
	<-e.opened
	if u := e.waitTerminal(first.ID); u.Status != LoginCanceled || !strings.Contains(u.Err.Error(), "replaced") {
		t.Errorf("first login: %s %v; want canceled, replaced", u.Status, u.Err)
	}
	e.m.Close()
	if u := e.waitTerminal(second.ID); u.Status != LoginCanceled {
		t.Errorf("second login after Close: %s; want canceled", u.Status)
	}
	_, err = e.m.StartLogin(t.Context(), chat.ProviderOpenAI)
	wantKind(t, e.noteErr(err), chat.ErrCanceled)
}

func TestProviderRefusal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		cfg      envConfig
		provider string
		want     string
	}{
		{"codex entitlement", envConfig{oa: []openaifake.Option{openaifake.WithAuthorizeError("access_denied", "missing_codex_entitlement")}},
			chat.ProviderOpenAI, "Codex is not enabled for your workspace"},
		{"claude denied", envConfig{an: []anthropicfake.Option{anthropicfake.WithAuthorizeError("access_denied")}},
			chat.ProviderAnthropic, "access was denied"},
		{"google denied", envConfig{ge: []geminifake.Option{geminifake.WithAuthorizeError("access_denied")}},
			chat.ProviderGemini, "access was denied"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, tt.cfg)
			lg, err := e.m.StartLogin(t.Context(), tt.provider)
			if err != nil {
				t.Fatal(err)
			}
			status, page := browse(t, <-e.opened)
			u := e.waitTerminal(lg.ID)
			if u.Status != LoginFailed || !strings.Contains(u.Err.Error(), tt.want) {
				t.Errorf("update = %s %v; want failed: %s", u.Status, u.Err, tt.want)
			}
			if status != http.StatusOK || !strings.Contains(html.UnescapeString(page), tt.want) {
				t.Errorf("page = %d %q; want the failure explained", status, page)
			}
			if _, err := e.kc.Get(t.Context(), oauthEntryName(tt.provider)); !errors.Is(err, ErrNotFound) {
				t.Errorf("a failed sign-in left a keychain entry (err %v)", err)
			}
		})
	}
}

// TestChatGPTPortFallback holds 1455 and checks that the sign-in moves to
// 1457, against a fake that keeps the real allow-list. Not parallel: it
// needs the two real ports, which only it uses in this package.
func TestChatGPTPortFallback(t *testing.T) {
	// Another package's test may hold 1455 for a moment (go test runs
	// packages side by side): retry briefly before giving up.
	var hold net.Listener
	var err error
	for range 50 {
		if hold, err = net.Listen("tcp", "127.0.0.1:1455"); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Skipf("skipping: 127.0.0.1:1455 stays taken: %v", err)
	}
	defer hold.Close()
	e := newEnv(t, envConfig{})
	// A fake with the real redirect rule, and the real ports.
	strict := openaifake.New()
	srv := newServer(t, strict)
	e.m.ep.OpenAIAuth, e.m.ep.OpenAIBase = srv, srv
	e.m.flows[chat.ProviderOpenAI].(*openaiFlow).ports = openaiPorts

	lg, err := e.m.StartLogin(t.Context(), chat.ProviderOpenAI)
	if errors.Is(err, chat.ErrUnavailable) {
		t.Skipf("skipping: 1457 is taken too: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	<-e.opened
	if got := queryOf(t, lg.AuthURL).Get("redirect_uri"); got != "http://localhost:1457/auth/callback" {
		t.Fatalf("redirect_uri = %q; want the fallback http://localhost:1457/auth/callback", got)
	}
	browse(t, lg.AuthURL)
	if u := e.waitTerminal(lg.ID); u.Status != LoginSignedIn {
		t.Fatalf("status = %s (%v); want signed_in", u.Status, u.Err)
	}

	// Both ports taken: a plain-words error naming them.
	hold2, err := net.Listen("tcp", "127.0.0.1:1457")
	if err != nil {
		t.Skipf("skipping the both-taken case: %v", err)
	}
	defer hold2.Close()
	_, err = e.m.StartLogin(t.Context(), chat.ProviderOpenAI)
	wantKind(t, e.noteErr(err), chat.ErrUnavailable)
	if !strings.Contains(err.Error(), "1455 or 1457") {
		t.Errorf("err = %v; want it to name ports 1455 and 1457", err)
	}
}

func TestPasteFlow(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{})
	lg, err := e.m.StartLogin(t.Context(), chat.ProviderAnthropic)
	if err != nil {
		t.Fatal(err)
	}
	<-e.opened
	if !lg.Manual || lg.ManualURL == "" {
		t.Fatalf("Login = %+v; want Manual with a ManualURL", lg)
	}
	if got, want := queryOf(t, lg.ManualURL).Get("redirect_uri"), e.ep.AnthropicToken+"/oauth/code/callback"; got != want {
		t.Errorf("manual redirect_uri = %q; want %q", got, want)
	}
	if queryOf(t, lg.ManualURL).Get("state") != queryOf(t, lg.AuthURL).Get("state") {
		t.Errorf("the manual URL has another state")
	}
	_, page := browse(t, lg.ManualURL)
	m := codePattern.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("manual page shows no code: %q", page)
	}
	pasted := html.UnescapeString(m[1])
	code, state, _ := strings.Cut(pasted, "#")

	for _, bad := range []string{code, code + "#", "#" + state, code + "#not-the-state", ""} {
		err := e.m.SubmitCode(t.Context(), lg.ID, bad)
		wantKind(t, e.noteErr(err), chat.ErrInvalid)
	}
	if got := e.statuses(lg.ID); slices.ContainsFunc(got, terminal) {
		t.Fatalf("a bad paste ended the login: %v", got)
	}
	if err := e.m.SubmitCode(t.Context(), lg.ID, "  "+pasted+"\n"); err != nil {
		t.Fatalf("SubmitCode() = %v", err)
	}
	if u := e.waitTerminal(lg.ID); u.Status != LoginSignedIn || u.Account.Email != "ada@example.com" {
		t.Fatalf("update = %+v; want signed_in", u)
	}
	// Just after the terminal update the login may still be winding down.
	if err := e.noteErr(e.m.SubmitCode(t.Context(), lg.ID, pasted)); !errors.Is(err, chat.ErrNotFound) && !errors.Is(err, chat.ErrConflict) {
		t.Errorf("SubmitCode after sign-in = %v; want not found or conflict", err)
	}

	// The other providers take no pasted code.
	lg2, err := e.m.StartLogin(t.Context(), chat.ProviderGemini)
	if err != nil {
		t.Fatal(err)
	}
	<-e.opened
	wantKind(t, e.noteErr(e.m.SubmitCode(t.Context(), lg2.ID, "a#b")), chat.ErrInvalid)
}

func TestSignOut(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{})
	for _, p := range []string{chat.ProviderOpenAI, chat.ProviderAnthropic, chat.ProviderGemini} {
		e.mustSignIn(p)
	}
	if _, err := e.m.Credentials(t.Context(), chat.ProviderOpenAI); err != nil {
		t.Fatal(err)
	}
	if err := e.m.SignOut(t.Context(), chat.ProviderOpenAI); err != nil {
		t.Fatalf("SignOut() = %v", err)
	}
	if _, err := e.kc.Get(t.Context(), oauthEntryName(chat.ProviderOpenAI)); !errors.Is(err, ErrNotFound) {
		t.Errorf("oauth:openai after SignOut: %v; want ErrNotFound", err)
	}
	_, err := e.m.Credentials(t.Context(), chat.ProviderOpenAI)
	wantKind(t, e.noteErr(err), chat.ErrAuthRequired)
	accts, err := e.m.Accounts(t.Context())
	if err != nil || len(accts) != 2 || accts[0].Provider != chat.ProviderGemini || accts[1].Provider != chat.ProviderAnthropic {
		t.Errorf("Accounts() = %+v, %v; want gemini and anthropic", accts, err)
	}
	if err := e.m.SignOut(t.Context(), chat.ProviderOpenAI); err != nil {
		t.Errorf("second SignOut() = %v; want nil", err)
	}
	wantKind(t, e.noteErr(e.m.SignOut(t.Context(), "mistral")), chat.ErrInvalid)
}

func TestAPIKeys(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{})
	ctx := t.Context()
	const key = "sk-test-key-DO-NOT-LEAK-123456"
	e.keys = append(e.keys, key)

	acct, err := e.m.SetAPIKey(ctx, chat.ProviderOpenAI, "  "+key+"\n")
	if err != nil || acct != (Account{Provider: chat.ProviderOpenAI, Method: MethodAPIKey}) {
		t.Fatalf("SetAPIKey() = %+v, %v", acct, err)
	}
	if got, _ := e.kc.Get(ctx, "apikey:openai"); got != key {
		t.Errorf("apikey:openai = %q; want the trimmed key", got)
	}
	c, err := e.m.Credentials(ctx, chat.ProviderOpenAI)
	if err != nil || c.Method != MethodAPIKey || c.APIKey != key || c.BaseURL != e.ep.OpenAIAPI || c.HTTPClient != nil {
		t.Fatalf("Credentials() = %v, %v; want the key and the API base URL", c, err)
	}
	for _, s := range []string{c.String(), fmt.Sprintf("%v %+v %#v %s", c, c, c, c), c.LogValue().String()} {
		if strings.Contains(s, key) {
			t.Errorf("Credentials printed with its key: %s", s)
		}
	}

	// Most recent wins: a sign-in after the key, then a key after the sign-in.
	e.mustSignIn(chat.ProviderOpenAI)
	if c, _ := e.m.Credentials(ctx, chat.ProviderOpenAI); c.Method != MethodOAuth || c.AccountID != "acc_fake0001" {
		t.Errorf("after sign-in: Credentials = %v; want oauth", c)
	}
	if _, err := e.m.SetAPIKey(ctx, chat.ProviderOpenAI, key); err != nil {
		t.Fatal(err)
	}
	if c, _ := e.m.Credentials(ctx, chat.ProviderOpenAI); c.Method != MethodAPIKey {
		t.Errorf("after SetAPIKey: Credentials = %v; want apikey", c)
	}
	if a, _ := e.m.Accounts(ctx); len(a) != 1 || a[0].Method != MethodAPIKey {
		t.Errorf("Accounts() = %+v; want the API key", a)
	}
	if err := e.m.RemoveAPIKey(ctx, chat.ProviderOpenAI); err != nil {
		t.Fatal(err)
	}
	if c, _ := e.m.Credentials(ctx, chat.ProviderOpenAI); c.Method != MethodOAuth {
		t.Errorf("after RemoveAPIKey: Credentials = %v; want the sign-in again", c)
	}
	if err := e.m.RemoveAPIKey(ctx, chat.ProviderOpenAI); err != nil {
		t.Errorf("second RemoveAPIKey() = %v; want nil", err)
	}

	for _, bad := range []string{"", "   ", "two words", "tab\there"} {
		_, err := e.m.SetAPIKey(ctx, chat.ProviderGemini, bad)
		wantKind(t, e.noteErr(err), chat.ErrInvalid)
	}
	_, err = e.m.Credentials(ctx, chat.ProviderGemini)
	wantKind(t, e.noteErr(err), chat.ErrAuthRequired)

	for p, base := range map[string]string{chat.ProviderGemini: e.ep.GeminiBase, chat.ProviderAnthropic: e.ep.AnthropicBase} {
		if _, err := e.m.SetAPIKey(ctx, p, key); err != nil {
			t.Fatal(err)
		}
		if c, _ := e.m.Credentials(ctx, p); c.BaseURL != base || c.APIKey != key {
			t.Errorf("%s Credentials = %v; want base %s", p, c, base)
		}
	}

	// Settings' base URL rows apply to the next credentials, API keys
	// only; "" gives the provider its own host back.
	e.m.SetAPIBases(map[string]string{chat.ProviderGemini: "https://proxy.example.com"})
	if c, _ := e.m.Credentials(ctx, chat.ProviderGemini); c.BaseURL != "https://proxy.example.com" {
		t.Errorf("gemini Credentials after SetAPIBases = %v; want the proxy", c)
	}
	if c, _ := e.m.Credentials(ctx, chat.ProviderAnthropic); c.BaseURL != e.ep.AnthropicBase {
		t.Errorf("anthropic Credentials after SetAPIBases(gemini) = %v; want its own host", c)
	}
	e.m.SetAPIBases(map[string]string{chat.ProviderGemini: ""})
	if c, _ := e.m.Credentials(ctx, chat.ProviderGemini); c.BaseURL != e.ep.GeminiBase {
		t.Errorf("gemini Credentials after clearing = %v; want %s", c, e.ep.GeminiBase)
	}
}

func TestKeychainUnavailable(t *testing.T) {
	t.Parallel()
	fb := &fakeBackend{err: errors.New("The name org.freedesktop.secrets was not provided by any .service files")}
	e := newEnv(t, envConfig{backend: fb})
	ctx := t.Context()
	check := func(what string, err error) {
		t.Helper()
		e.noteErr(err)
		var ue *UnavailableError
		if !errors.As(err, &ue) || !errors.Is(err, chat.ErrUnavailable) {
			t.Fatalf("%s: err = %v; want an *UnavailableError", what, err)
		}
		if !strings.Contains(err.Error(), "gnome-keyring") {
			t.Errorf("%s: err = %v; want the hint to install GNOME Keyring", what, err)
		}
	}
	_, err := e.m.StartLogin(ctx, chat.ProviderOpenAI)
	check("StartLogin", err)
	select {
	case u := <-e.opened:
		t.Errorf("the browser was opened (%s) although the keychain is unusable", redactQuery(u))
	default:
	}
	_, err = e.m.Accounts(ctx)
	check("Accounts", err)
	_, err = e.m.SetAPIKey(ctx, chat.ProviderOpenAI, "sk-whatever-123")
	check("SetAPIKey", err)
	_, err = e.m.Credentials(ctx, chat.ProviderOpenAI)
	check("Credentials", err)
	check("SignOut", e.m.SignOut(ctx, chat.ProviderOpenAI))
}

// TestKeychainFailsAtSave signs in while the keychain accepts reads but
// refuses writes: the login fails with the keychain's hint.
func TestKeychainFailsAtSave(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{backend: &failingSets{}})
	u := e.signIn(chat.ProviderAnthropic)
	if u.Status != LoginFailed {
		t.Fatalf("status = %s; want failed", u.Status)
	}
	if !errors.Is(u.Err, chat.ErrUnavailable) || !strings.Contains(u.Err.Error(), "keyring is locked") {
		t.Errorf("err = %v; want the locked-keyring hint", u.Err)
	}
}

// failingSets is a keychain that answers reads and refuses writes as a
// locked keyring does.
type failingSets struct{ fakeBackend }

func (f *failingSets) Set(service, user, password string) error {
	return errors.New("failed to unlock correct collection '/org/freedesktop/secrets/aliases/default'")
}

func TestCredentialsWithoutSignIn(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{})
	_, err := e.m.Credentials(t.Context(), chat.ProviderAnthropic)
	wantKind(t, e.noteErr(err), chat.ErrAuthRequired)
	if !strings.Contains(err.Error(), "sign in to Claude") {
		t.Errorf("err = %v; want it to say sign in to Claude", err)
	}
	_, err = e.m.Credentials(t.Context(), "mistral")
	wantKind(t, e.noteErr(err), chat.ErrInvalid)
	if a, err := e.m.Accounts(t.Context()); err != nil || len(a) != 0 {
		t.Errorf("Accounts() = %+v, %v; want none", a, err)
	}
}

func TestUnreadableEntry(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{})
	if err := e.kc.Set(t.Context(), oauthEntryName(chat.ProviderOpenAI), `{"access_token":"sk-half-written`); err != nil {
		t.Fatal(err)
	}
	_, err := e.m.Credentials(t.Context(), chat.ProviderOpenAI)
	wantKind(t, e.noteErr(err), chat.ErrAuthRequired)
	if strings.Contains(err.Error(), "sk-half") {
		t.Errorf("err = %v; quotes the entry", err)
	}
	if a, err := e.m.Accounts(t.Context()); err != nil || len(a) != 0 {
		t.Errorf("Accounts() = %+v, %v; want no accounts and no error", a, err)
	}
	e.mustSignIn(chat.ProviderOpenAI)
	if _, err := e.m.Credentials(t.Context(), chat.ProviderOpenAI); err != nil {
		t.Errorf("Credentials after signing in again = %v", err)
	}
}

func newServer(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}
