package auth

import (
	"context"
	"errors"
	"iter"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"maestro/backend/chat"
	"maestro/backend/providers/anthropic"
	"maestro/backend/providers/anthropic/anthropicfake"
	"maestro/backend/providers/fakes"
	fake "maestro/backend/providers/fakescript"
	"maestro/backend/providers/gemini"
	"maestro/backend/providers/gemini/geminifake"
	"maestro/backend/providers/openai"
	"maestro/backend/providers/openai/openaifake"
)

// issuer returns the fake authorization server of provider.
func (e *env) issuer(provider string) *fakes.Issuer {
	switch provider {
	case chat.ProviderOpenAI:
		return e.oa.OAuth()
	case chat.ProviderAnthropic:
		return e.an.OAuth()
	}
	return e.ge.OAuth()
}

func (e *env) script(provider string) *fake.Script {
	switch provider {
	case chat.ProviderOpenAI:
		return e.oa.Script
	case chat.ProviderAnthropic:
		return e.an.Script
	}
	return e.ge.Script
}

// stream builds the provider's adapter from c, as the agent will, and
// returns the text of one reply.
func stream(ctx context.Context, c Credentials, provider string) (string, error) {
	type streamer interface {
		Stream(context.Context, chat.Request) (iter.Seq2[chat.Event, error], error)
	}
	var m streamer
	model := openai.Builtin()[0].ID // a model the ChatGPT fake serves
	switch provider {
	case chat.ProviderOpenAI:
		m = openai.New(openai.WithHTTPClient(c.HTTPClient), openai.WithAccountID(c.AccountID), openai.WithBaseURL(c.BaseURL))
	case chat.ProviderAnthropic:
		m, model = anthropic.New(anthropic.WithHTTPClient(c.HTTPClient), anthropic.WithBaseURL(c.BaseURL)), "claude-sonnet-4-5"
	case chat.ProviderGemini:
		m, model = gemini.New(gemini.WithHTTPClient(c.HTTPClient), gemini.WithProject(c.Project), gemini.WithBaseURL(c.BaseURL)), "gemini-2.5-pro"
	}
	seq, err := m.Stream(ctx, chat.Request{Model: model, SessionID: "s1", Messages: []chat.Message{{ID: "u1", Role: chat.RoleUser, Parts: chat.Parts{chat.TextPart{Text: "ping"}}}}})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for ev, err := range seq {
		if err != nil {
			return b.String(), err
		}
		if d, ok := ev.(chat.TextDelta); ok {
			b.WriteString(d.Text)
		}
	}
	return b.String(), nil
}

var allProviders = []string{chat.ProviderOpenAI, chat.ProviderAnthropic, chat.ProviderGemini}

// TestStreamAfter401 expires every access token at the fake: the adapter's
// request gets the real 401, the transport refreshes once, replays the
// request, and the reply arrives.
func TestStreamAfter401(t *testing.T) {
	t.Parallel()
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, envConfig{
				oa: []openaifake.Option{openaifake.WithIssuedTokensOnly()},
				an: []anthropicfake.Option{anthropicfake.WithIssuedTokensOnly()},
				ge: []geminifake.Option{geminifake.WithIssuedTokensOnly()},
			})
			e.mustSignIn(p)
			c, err := e.m.Credentials(t.Context(), p)
			if err != nil {
				t.Fatal(err)
			}
			e.script(p).Push(fake.Reply{Text: "first"}, fake.Reply{Text: "second"})
			if got, err := stream(t.Context(), c, p); err != nil || got != "first" {
				t.Fatalf("first stream = %q, %v", got, e.noteErr(err))
			}
			e.issuer(p).ExpireAll()
			got, err := stream(t.Context(), c, p)
			if err != nil || got != "second" {
				t.Fatalf("stream after expiry = %q, %v; want the reply after one refresh", got, e.noteErr(err))
			}
			if n := e.issuer(p).Stats().Refreshes; n != 1 {
				t.Errorf("refreshes = %d; want 1", n)
			}
			reqs := e.script(p).Requests()
			if len(reqs) != 3 || reqs[1].Status != http.StatusUnauthorized || reqs[2].Status != http.StatusOK {
				t.Fatalf("model requests = %d (%v); want ok, 401, ok", len(reqs), statuses(reqs))
			}
			if string(reqs[1].Body) != string(reqs[2].Body) || len(reqs[2].Body) == 0 {
				t.Errorf("the retried request's body differs from the refused one")
			}
			// The refreshed sign-in was saved.
			if te := e.entry(p); te.RefreshedAt.IsZero() {
				t.Errorf("oauth:%s was not saved after the refresh", p)
			}
		})
	}
}

func statuses(rs []fake.Recorded) []int {
	var out []int
	for _, r := range rs {
		out = append(out, r.Status)
	}
	return out
}

// TestRefreshEarly: a token with less than five minutes left is refreshed
// before use; one with more is not.
func TestRefreshEarly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ttl  time.Duration
		want int
	}{{4 * time.Minute, 1}, {6 * time.Minute, 0}}
	for _, tt := range tests {
		t.Run(tt.ttl.String(), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, envConfig{an: []anthropicfake.Option{anthropicfake.WithAccessTokenTTL(tt.ttl)}})
			e.mustSignIn(chat.ProviderAnthropic)
			before := e.entry(chat.ProviderAnthropic)
			c, err := e.m.Credentials(t.Context(), chat.ProviderAnthropic)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := stream(t.Context(), c, chat.ProviderAnthropic); err != nil {
				t.Fatal(err)
			}
			if got := e.an.OAuth().Stats().Refreshes; got != tt.want {
				t.Errorf("refreshes = %d; want %d", got, tt.want)
			}
			after := e.entry(chat.ProviderAnthropic)
			if rotated := after.RefreshToken != before.RefreshToken; rotated != (tt.want == 1) {
				t.Errorf("refresh token rotated = %v; want %v", rotated, tt.want == 1)
			}
		})
	}
}

// TestSingleRefreshInFlight has many requests need a refresh at once:
// exactly one reaches the token endpoint. With single-use refresh tokens a
// second one would be refused as reused and end the sign-in.
func TestSingleRefreshInFlight(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{oa: []openaifake.Option{openaifake.WithAccessTokenTTL(time.Minute)}})
	e.mustSignIn(chat.ProviderOpenAI)
	e.m.mu.Lock()
	e.m.mu.Unlock()
	ps := e.m.provs[chat.ProviderOpenAI]
	te := e.entry(chat.ProviderOpenAI)
	ps.mu.Lock()
	src, client := e.m.sourceLocked(e.m.flows[chat.ProviderOpenAI], ps, te)
	ps.mu.Unlock()

	const n = 40
	var wg sync.WaitGroup
	toks := make([]string, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			if i%2 == 0 {
				t, err := src.TokenContext(context.Background())
				if err == nil {
					toks[i] = t.AccessToken
				}
				errs[i] = err
				return
			}
			c := Credentials{HTTPClient: client, AccountID: te.AccountID, BaseURL: e.ep.OpenAIBase}
			_, errs[i] = stream(context.Background(), c, chat.ProviderOpenAI)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("caller %d: %v", i, e.noteErr(err))
		}
	}
	if got := e.oa.OAuth().Stats().Refreshes; got != 1 {
		t.Errorf("token endpoint refreshes = %d; want 1", got)
	}
	for i := 2; i < n; i += 2 {
		if toks[i] != toks[0] {
			t.Fatalf("callers got different tokens")
		}
	}
}

// TestRotationPersistedAndReuseRejected: each refresh saves the new refresh
// token, whole; presenting the old one again is refused, and that refusal
// asks the user to sign in again.
func TestRotationPersistedAndReuseRejected(t *testing.T) {
	t.Parallel()
	tests := []struct {
		provider, display, code string
	}{
		{chat.ProviderOpenAI, "ChatGPT", "refresh_token_reused"},
		{chat.ProviderAnthropic, "Claude", "invalid_grant"},
	}
	for _, tt := range tests {
		t.Run(tt.provider, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, envConfig{})
			e.mustSignIn(tt.provider)
			first := e.entry(tt.provider)
			c, err := e.m.Credentials(t.Context(), tt.provider)
			if err != nil {
				t.Fatal(err)
			}
			e.issuer(tt.provider).ExpireAll()
			if _, err := stream(t.Context(), c, tt.provider); err != nil {
				t.Fatal(e.noteErr(err))
			}
			second := e.entry(tt.provider)
			if second.RefreshToken == first.RefreshToken || second.AccessToken == first.AccessToken {
				t.Fatalf("the keychain still holds the old tokens after a rotating refresh")
			}
			if second.Email != first.Email || second.AccountID != first.AccountID || !second.SignedInAt.Equal(first.SignedInAt) {
				t.Errorf("the refresh lost account details: %+v", second)
			}

			f := e.m.flows[tt.provider]
			_, err = f.refresh(t.Context(), e.m.hc, e.ep, first.RefreshToken)
			wantKind(t, e.noteErr(err), chat.ErrAuthRequired)
			if !strings.Contains(err.Error(), "sign in to "+tt.display+" again") || !strings.Contains(err.Error(), tt.code) {
				t.Errorf("err = %v; want sign in to %s again (%s)", err, tt.display, tt.code)
			}
			// The saved one still works.
			if _, err := f.refresh(t.Context(), e.m.hc, e.ep, second.RefreshToken); err != nil {
				t.Errorf("refresh with the saved token = %v", e.noteErr(err))
			}
		})
	}
}

// TestGeminiKeepsRefreshToken: Google's refresh answers carry no refresh
// token; the saved one is kept.
func TestGeminiKeepsRefreshToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{ge: []geminifake.Option{geminifake.WithAccessTokenTTL(time.Minute)}})
	e.mustSignIn(chat.ProviderGemini)
	first := e.entry(chat.ProviderGemini)
	if _, err := e.m.Credentials(t.Context(), chat.ProviderGemini); err != nil {
		t.Fatal(err)
	}
	second := e.entry(chat.ProviderGemini)
	if second.RefreshToken != first.RefreshToken || second.AccessToken == first.AccessToken || second.Project != first.Project {
		t.Errorf("after refresh: refresh token kept %v, access changed %v, project %q",
			second.RefreshToken == first.RefreshToken, second.AccessToken != first.AccessToken, second.Project)
	}
}

// TestRevokedSignIn: once the refresh token is revoked, Credentials asks
// the user to sign in again, and does not try the token endpoint again.
func TestRevokedSignIn(t *testing.T) {
	t.Parallel()
	displays := map[string]string{chat.ProviderOpenAI: "ChatGPT", chat.ProviderAnthropic: "Claude", chat.ProviderGemini: "Gemini"}
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, envConfig{})
			e.mustSignIn(p)
			c, err := e.m.Credentials(t.Context(), p)
			if err != nil {
				t.Fatal(err)
			}
			e.issuer(p).RevokeAll()
			e.issuer(p).ExpireAll()
			// The request in flight gets the provider's own 401, classified
			// as auth required by the adapter.
			_, err = stream(t.Context(), c, p)
			wantKind(t, e.noteErr(err), chat.ErrAuthRequired)
			for range 3 {
				_, err = e.m.Credentials(t.Context(), p)
				wantKind(t, e.noteErr(err), chat.ErrAuthRequired)
			}
			if !strings.Contains(err.Error(), "sign in to "+displays[p]+" again") {
				t.Errorf("err = %v; want sign in to %s again", err, displays[p])
			}
			if n := e.issuer(p).Stats().Refreshes; n != 1 {
				t.Errorf("refreshes = %d; want 1 (the failure is remembered)", n)
			}
			// A new sign-in replaces the dead one.
			e.mustSignIn(p)
			if _, err := e.m.Credentials(t.Context(), p); err != nil {
				t.Errorf("Credentials after signing in again = %v", e.noteErr(err))
			}
		})
	}
}

// TestRefreshAfterSignOutNotSaved: a refresh that finishes after sign-out
// must not write the tokens back.
func TestRefreshAfterSignOutNotSaved(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{})
	e.mustSignIn(chat.ProviderAnthropic)
	c, err := e.m.Credentials(t.Context(), chat.ProviderAnthropic)
	if err != nil {
		t.Fatal(err)
	}
	ps := e.m.provs[chat.ProviderAnthropic]
	ps.mu.Lock()
	src := ps.src
	ps.mu.Unlock()
	if err := e.m.SignOut(t.Context(), chat.ProviderAnthropic); err != nil {
		t.Fatal(err)
	}
	e.an.OAuth().ExpireAll()
	if _, err := stream(t.Context(), c, chat.ProviderAnthropic); err != nil {
		t.Fatalf("the old client's refresh = %v", e.noteErr(err))
	}
	src.Wait()
	if _, err := e.kc.Get(t.Context(), oauthEntryName(chat.ProviderAnthropic)); !errors.Is(err, ErrNotFound) {
		t.Errorf("oauth:anthropic came back after sign-out: %v", err)
	}
}
