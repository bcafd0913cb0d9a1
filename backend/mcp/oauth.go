package mcp

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"maestro/backend/auth"
	"maestro/backend/chat"
)

// OAuth for remote connectors, done app-side because mcp-go's handler
// fails before it sends anything when it has no token (so it never sees
// the server's 401 challenge), does no scope selection or step-up, no
// Client ID Metadata Documents and no root-path discovery. Here the HTTP
// client of a connector's transport carries a RoundTripper that:
//
//   - sends each request through backend/auth's refreshing Transport: the
//     bearer token from the connector's auth.SavingTokenSource, refreshed
//     ahead of expiry and once more after a 401 (the request replayed),
//     every refreshed token saved whole in the keychain record;
//   - on a 401, or a 403 with error="insufficient_scope", reads the
//     WWW-Authenticate challenge (scope, resource_metadata) and either
//     signs in on the spot (WithAuthorizer inline, or the
//     client_credentials grant) and replays the request, at most three
//     times per request, or fails with chat.ErrAuthRequired so the
//     connector waits for Supervisor.SignIn.
//
// A sign-in discovers the protected resource metadata (from the challenge,
// else at /.well-known/oauth-protected-resource/<path>, then at the root),
// checks that its resource names this server, discovers the authorization
// server metadata (RFC 8414 and OpenID locations, path-aware), falls back to
// the 2025-03-26 rules (metadata or /authorize, /token, /register at the
// server's origin) when there is no resource metadata (discovery.go), picks
// a client (pre-registered, a Client ID Metadata Document, or dynamic
// registration), and runs authorization code + PKCE S256 with the resource
// parameter (signin.go). Scopes: the challenge's, else the resource's
// scopes_supported, else none; a step-up asks for the union of the old and
// the new. offline_access is added when the authorization server lists it.

// maxAuthAttempts bounds the sign-ins one request may trigger.
const maxAuthAttempts = 3

// oauthHTTPTimeout bounds each discovery, registration or token request.
const oauthHTTPTimeout = 30 * time.Second

// oauthState is one connector's OAuth: its sign-in (token and client
// registration, one record in the keychain under oauthAccount, kept by an
// auth.TokenStore), the token source that refreshes the token, and the
// last challenge. mu serialises sign-ins and guards the fields; it is
// never held while waiting for a refresh.
type oauthState struct {
	sup *Supervisor
	id  string

	mu        sync.Mutex
	loaded    bool
	saved     savedOAuth
	src       *auth.SavingTokenSource // of saved.Token; nil without one; replaced by each sign-in
	name      string                  // the connector's, for the refresh's errors
	challenge challenge
}

// savedOAuth is the keychain record, always written whole.
type savedOAuth struct {
	Token  *tokenRecord `json:"token,omitempty"`
	Client *oauthClient `json:"client,omitempty"`
}

// tokenRecord is a token as the record keeps it, with what it was granted
// and where it is refreshed.
type tokenRecord struct {
	AccessToken  string    `json:"accessToken"`
	TokenType    string    `json:"tokenType,omitempty"`
	RefreshToken string    `json:"refreshToken,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
	// Scope is what was granted (or asked for, when the server did not
	// say).
	Scope         string `json:"scope,omitempty"`
	TokenEndpoint string `json:"tokenEndpoint,omitempty"`
	Resource      string `json:"resource,omitempty"`
}

// newTokenRecord keeps tok, granted scope (unless the server said) at
// endpoint for resource.
func newTokenRecord(tok *oauth2.Token, scope, endpoint, resource string) *tokenRecord {
	granted, _ := tok.Extra("scope").(string)
	return &tokenRecord{AccessToken: tok.AccessToken, TokenType: tok.TokenType, RefreshToken: tok.RefreshToken,
		Expiry: tok.Expiry, Scope: cmp.Or(granted, scope), TokenEndpoint: endpoint, Resource: resource}
}

// token is the record as its source starts from it. MCP servers take
// bearer tokens, whatever token_type the answer named.
func (t *tokenRecord) token() *oauth2.Token {
	return &oauth2.Token{AccessToken: t.AccessToken, TokenType: "Bearer", RefreshToken: t.RefreshToken, Expiry: t.Expiry}
}

type oauthClient struct {
	Issuer       string `json:"issuer"`
	RedirectURI  string `json:"redirectUri,omitempty"`
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret,omitempty"`
	AuthMethod   string `json:"authMethod,omitempty"`
}

// challenge is what a 401 or 403 said.
type challenge struct {
	Status           int
	Scope            string
	ResourceMetadata string
	Error            string
}

func newOAuthState(s *Supervisor, id string) *oauthState {
	return &oauthState{sup: s, id: id}
}

func (st *oauthState) store() auth.TokenStore { return auth.TokenStore{Secrets: st.sup.secrets} }

// reset forgets the token and registration (the server changed).
func (st *oauthState) reset() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.forgetLocked()
	if st.sup.secrets != nil {
		_ = st.store().Delete(context.Background(), oauthAccount(st.id))
	}
}

// forget drops the sign-in from memory, so a refresh still in flight is
// not saved; the caller deletes the record.
func (st *oauthState) forget() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.forgetLocked()
}

func (st *oauthState) forgetLocked() {
	st.saved, st.challenge, st.loaded, st.src = savedOAuth{}, challenge{}, true, nil
}

// wait returns once the current token source has no refresh in flight.
func (st *oauthState) wait() {
	st.mu.Lock()
	src := st.src
	st.mu.Unlock()
	if src != nil {
		src.Wait()
	}
}

// load reads the saved sign-in once. Called with mu held.
func (st *oauthState) load(ctx context.Context) error {
	if st.loaded || st.sup.secrets == nil {
		st.loaded = true
		return nil
	}
	var saved savedOAuth
	err := st.store().Load(ctx, oauthAccount(st.id), &saved)
	switch {
	case errors.Is(err, chat.ErrNotFound), errors.Is(err, chat.ErrAuthRequired): // none, or damaged: sign in again
	case err != nil:
		return fmt.Errorf("read the sign-in from the keychain: %w", err)
	default:
		st.saved = saved
		st.install(saved.Token, time.Time{})
	}
	st.loaded = true
	return nil
}

// save writes the record. Called with mu held.
func (st *oauthState) save(ctx context.Context) error {
	if st.sup.secrets == nil {
		return nil
	}
	if err := st.store().Save(ctx, oauthAccount(st.id), st.saved); err != nil {
		return fmt.Errorf("keep the sign-in in the keychain: %w", err)
	}
	return nil
}

// source returns the token source of the saved sign-in; nil when there is
// none.
func (st *oauthState) source(ctx context.Context) (*auth.SavingTokenSource, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := st.load(ctx); err != nil {
		return nil, err
	}
	return st.src, nil
}

// install makes rec the token, with a new source; the old source's late
// refreshes are then not saved. received is when rec was granted, zero
// when that is not known (a saved one). Called with mu held.
func (st *oauthState) install(rec *tokenRecord, received time.Time) {
	st.saved.Token, st.src = rec, nil
	if rec == nil {
		return
	}
	client := auth.Client{Name: st.name, TokenURL: rec.TokenEndpoint, Resource: rec.Resource,
		HTTP: oauthHTTP(&http.Transport{Proxy: http.ProxyFromEnvironment, DisableKeepAlives: true})}
	registered := st.saved.Client
	if registered != nil {
		client.ID, client.Secret, client.AuthMethod = registered.ClientID, registered.ClientSecret, registered.AuthMethod
	}
	refresh := func(ctx context.Context, refreshToken string) (*oauth2.Token, error) {
		if rec.TokenEndpoint == "" || registered == nil {
			return nil, chat.E(chat.ErrAuthRequired, "no token endpoint to refresh at; sign in again")
		}
		return client.Refresh(ctx, refreshToken)
	}
	var src *auth.SavingTokenSource
	save := func(ctx context.Context, t *oauth2.Token) error { return st.saveRefreshed(ctx, src, t) }
	log := st.sup.logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	opts := []auth.SourceOption{auth.WithLogger(log)}
	if !received.IsZero() {
		opts = append(opts, auth.WithReceived(received))
	}
	src = auth.NewSavingTokenSource(rec.token(), refresh, save, opts...)
	st.src = src
}

// saveRefreshed keeps a refreshed token, unless src is no longer the
// connector's (signed in again, or out, meanwhile).
func (st *oauthState) saveRefreshed(ctx context.Context, src *auth.SavingTokenSource, t *oauth2.Token) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	old := st.saved.Token
	if st.src != src || old == nil {
		return nil
	}
	st.saved.Token = newTokenRecord(t, old.Scope, old.TokenEndpoint, old.Resource)
	return st.save(ctx)
}

func (st *oauthState) noteChallenge(ch challenge) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.challenge = ch
}

func (st *oauthState) lastChallenge() challenge {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.challenge
}

// roundTripper wraps base with the connector's OAuth.
func (st *oauthState) roundTripper(base http.RoundTripper, cfg Connector) http.RoundTripper {
	st.mu.Lock()
	st.name = cfg.DisplayName()
	st.mu.Unlock()
	return &oauthRoundTripper{st: st, base: base, cfg: cfg}
}

type oauthRoundTripper struct {
	st   *oauthState
	base http.RoundTripper
	cfg  Connector
}

func (t *oauthRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	body, err := readBody(req)
	if err != nil {
		return nil, err
	}
	sup := t.st.sup
	inline := t.cfg.OAuth.GrantType == GrantClientCredentials || (sup.inlineAuth && sup.authorizer != nil)
	for attempt := 0; ; attempt++ {
		src, err := t.st.source(ctx)
		if err != nil {
			return nil, chat.E(chat.ErrUnavailable, "%v", err)
		}
		resp, err := t.send(req, body, src)
		if err != nil {
			return nil, err
		}
		ch, ok := challengeOf(resp)
		if !ok {
			return resp, nil
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		_ = resp.Body.Close()
		t.st.noteChallenge(ch)
		if !inline || attempt >= maxAuthAttempts {
			return nil, authRequired(ch, attempt)
		}
		if err := t.st.authorize(ctx, t.base, t.cfg, ch, src, false); err != nil {
			return nil, err
		}
	}
}

// send sends req with src's token through auth.Transport (which refreshes
// once on a 401); without a source, or when its token cannot be renewed,
// without a token, so that the server's challenge says how to sign in.
func (t *oauthRoundTripper) send(req *http.Request, body []byte, src *auth.SavingTokenSource) (*http.Response, error) {
	if src != nil {
		resp, err := (&auth.Transport{Source: src, Base: t.base, Log: t.st.sup.logger}).RoundTrip(withBody(req, body))
		if !errors.Is(err, chat.ErrAuthRequired) {
			return resp, err
		}
	}
	return t.base.RoundTrip(withBody(req, body))
}

// readBody reads and closes req's body, for replaying; nil when it has
// none.
func readBody(req *http.Request) ([]byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	b, err := io.ReadAll(req.Body)
	_ = req.Body.Close()
	return b, err
}

// withBody clones req with a fresh copy of body.
func withBody(req *http.Request, body []byte) *http.Request {
	r := req.Clone(req.Context())
	if body != nil {
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		r.ContentLength = int64(len(body))
	}
	return r
}

// AuthRequiredError is the error of a request the server refused for want
// of a (better) sign-in. It is chat.ErrAuthRequired.
type AuthRequiredError struct{ Msg string }

func (e *AuthRequiredError) Error() string { return e.Msg }

// Unwrap classifies the error as chat.ErrAuthRequired.
func (e *AuthRequiredError) Unwrap() error { return chat.ErrAuthRequired }

func authRequired(ch challenge, attempts int) error {
	what := "sign-in required"
	if ch.Status == http.StatusForbidden {
		what = "sign-in with more permissions required"
		if ch.Scope != "" {
			what += " (" + ch.Scope + ")"
		}
	}
	if attempts > 0 {
		what = fmt.Sprintf("%s: the server still refused after %d sign-ins", what, attempts)
	}
	return &AuthRequiredError{Msg: what}
}

// challengeOf reads a 401, or a 403 insufficient_scope.
func challengeOf(resp *http.Response) (challenge, bool) {
	if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		return challenge{}, false
	}
	ch := challenge{Status: resp.StatusCode}
	for _, h := range resp.Header.Values("WWW-Authenticate") {
		params := authParams(h)
		ch.Scope = cmp.Or(ch.Scope, params["scope"])
		ch.ResourceMetadata = cmp.Or(ch.ResourceMetadata, params["resource_metadata"])
		ch.Error = cmp.Or(ch.Error, params["error"])
	}
	if resp.StatusCode == http.StatusForbidden && ch.Error != "insufficient_scope" {
		return challenge{}, false
	}
	return ch, true
}

// authParams parses the auth-params of one Bearer challenge (RFC 9110
// §11.6.1): key=token or key="quoted string", comma separated.
func authParams(h string) map[string]string {
	out := map[string]string{}
	s := strings.TrimSpace(h)
	if i := strings.IndexAny(s, " \t"); i >= 0 && !strings.Contains(s[:i], "=") {
		s = s[i+1:] // the scheme
	}
	for s != "" {
		s = strings.TrimLeft(s, " \t,")
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			break
		}
		key := strings.ToLower(strings.TrimSpace(s[:eq]))
		s = strings.TrimLeft(s[eq+1:], " \t")
		var val string
		if strings.HasPrefix(s, `"`) {
			var b strings.Builder
			i := 1
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				b.WriteByte(s[i])
			}
			val, s = b.String(), s[min(i+1, len(s)):]
		} else {
			end := strings.IndexAny(s, ", \t")
			if end < 0 {
				end = len(s)
			}
			val, s = s[:end], s[end:]
		}
		if _, dup := out[key]; !dup {
			out[key] = val
		}
	}
	return out
}
