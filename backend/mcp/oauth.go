package mcp

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"maestro/backend/chat"
)

// OAuth for remote connectors, done app-side because mcp-go's handler
// fails before it sends anything when it has no token (so it never sees
// the server's 401 challenge), does no scope selection or step-up, no
// Client ID Metadata Documents and no root-path discovery. Here the HTTP
// client of a connector's transport carries a RoundTripper that:
//
//   - adds the bearer token (refreshing it when it is about to expire);
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
// server's origin) when there is no resource metadata, picks a client
// (pre-registered, a Client ID Metadata Document, or dynamic registration),
// and runs authorization code + PKCE S256 with the resource parameter.
// Scopes: the challenge's, else the resource's scopes_supported, else none;
// a step-up asks for the union of the old and the new. offline_access is
// added when the authorization server lists it.

// maxAuthAttempts bounds the sign-ins one request may trigger.
const maxAuthAttempts = 3

// oauthHTTPTimeout bounds each discovery, registration or token request.
const oauthHTTPTimeout = 30 * time.Second

// oauthState is one connector's OAuth: its token and client registration
// (kept in the keychain under oauthAccount) and the last challenge. mu
// serialises sign-ins and guards the fields.
type oauthState struct {
	sup *Supervisor
	id  string

	mu        sync.Mutex
	loaded    bool
	saved     savedOAuth
	challenge challenge
}

type savedOAuth struct {
	Token  *oauthToken  `json:"token,omitempty"`
	Client *oauthClient `json:"client,omitempty"`
}

type oauthToken struct {
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

func (t *oauthToken) expiring() bool {
	return !t.Expiry.IsZero() && time.Until(t.Expiry) < 30*time.Second
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

// reset forgets the token and registration (the server changed).
func (st *oauthState) reset() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.saved, st.challenge, st.loaded = savedOAuth{}, challenge{}, true
	if st.sup.secrets != nil {
		_ = st.sup.secrets.Delete(context.Background(), oauthAccount(st.id))
	}
}

// load reads the saved token and client once. Called with mu held.
func (st *oauthState) load(ctx context.Context) error {
	if st.loaded || st.sup.secrets == nil {
		st.loaded = true
		return nil
	}
	s, err := st.sup.secrets.Get(ctx, oauthAccount(st.id))
	switch {
	case errors.Is(err, chat.ErrNotFound):
	case err != nil:
		return fmt.Errorf("read the sign-in from the keychain: %w", err)
	default:
		if err := json.Unmarshal([]byte(s), &st.saved); err != nil {
			st.saved = savedOAuth{} // damaged: sign in again
		}
	}
	st.loaded = true
	return nil
}

// save writes the token and client. Called with mu held.
func (st *oauthState) save(ctx context.Context) error {
	if st.sup.secrets == nil {
		return nil
	}
	b, err := json.Marshal(st.saved)
	if err != nil {
		return err
	}
	if err := st.sup.secrets.Set(ctx, oauthAccount(st.id), string(b)); err != nil {
		return fmt.Errorf("keep the sign-in in the keychain: %w", err)
	}
	return nil
}

// token returns the current token, refreshed when it is about to expire;
// nil when there is none.
func (st *oauthState) token(ctx context.Context, base http.RoundTripper) (*oauthToken, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := st.load(ctx); err != nil {
		return nil, err
	}
	tok := st.saved.Token
	if tok != nil && tok.expiring() && tok.RefreshToken != "" {
		if fresh, err := st.refreshLocked(ctx, base, tok); err == nil {
			tok = fresh
		}
	}
	return tok, nil
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
	return &oauthRoundTripper{st: st, base: base, cfg: cfg}
}

type oauthRoundTripper struct {
	st   *oauthState
	base http.RoundTripper
	cfg  Connector
}

func (t *oauthRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	var body []byte
	if req.Body != nil && req.Body != http.NoBody {
		b, err := io.ReadAll(req.Body)
		_ = req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
	}
	tok, err := t.st.token(ctx, t.base)
	if err != nil {
		return nil, chat.E(chat.ErrUnavailable, "%v", err)
	}
	sup := t.st.sup
	for attempt := 0; ; attempt++ {
		r := req.Clone(ctx)
		if body != nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		if tok != nil {
			r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		}
		resp, err := t.base.RoundTrip(r)
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
		if ch.Status == http.StatusUnauthorized && tok != nil && tok.RefreshToken != "" && attempt == 0 {
			if fresh, err := t.st.refresh(ctx, t.base, tok); err == nil {
				tok = fresh
				continue
			}
		}
		cc := t.cfg.OAuth.GrantType == GrantClientCredentials
		inline := cc || (sup.inlineAuth && sup.authorizer != nil)
		if !inline || attempt >= maxAuthAttempts {
			return nil, authRequired(ch, attempt)
		}
		tok, err = t.st.authorize(ctx, t.base, t.cfg, ch, tok, false)
		if err != nil {
			return nil, err
		}
	}
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

// SignIn signs a remote connector in (or again, with the scopes its server
// asked for last) through the Authorizer, keeps the token and restarts the
// connector. It returns when the sign-in is done, not the restart.
func (s *Supervisor) SignIn(ctx context.Context, id string) error {
	r, err := s.runner(id)
	if err != nil {
		return err
	}
	cfg := r.config()
	if cfg.OAuth == nil {
		return chat.E(chat.ErrInvalid, "mcp: %s does not use OAuth", cfg.DisplayName())
	}
	base := &http.Transport{Proxy: http.ProxyFromEnvironment}
	defer base.CloseIdleConnections()
	ch := r.oauth.lastChallenge()
	if _, err := r.oauth.authorize(ctx, base, cfg, ch, nil, true); err != nil {
		return fmt.Errorf("mcp: sign in to %s: %w", cfg.DisplayName(), err)
	}
	r.update(func(st *ConnectorStatus) { st.NeedsSignIn = false })
	r.reconfigure(ctx, cfg)
	return nil
}

// SignOut forgets a connector's token and registration, and restarts it.
func (s *Supervisor) SignOut(ctx context.Context, id string) error {
	r, err := s.runner(id)
	if err != nil {
		return err
	}
	r.oauth.reset()
	r.reconfigure(ctx, r.config())
	return nil
}

func (st *oauthState) refresh(ctx context.Context, base http.RoundTripper, tok *oauthToken) (*oauthToken, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if cur := st.saved.Token; cur != nil && cur.AccessToken != tok.AccessToken {
		return cur, nil // refreshed meanwhile
	}
	return st.refreshLocked(ctx, base, tok)
}

func (st *oauthState) refreshLocked(ctx context.Context, base http.RoundTripper, tok *oauthToken) (*oauthToken, error) {
	if tok.TokenEndpoint == "" || st.saved.Client == nil {
		return nil, errors.New("no token endpoint to refresh at")
	}
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken}}
	if tok.Resource != "" {
		form.Set("resource", tok.Resource)
	}
	fresh, err := tokenRequest(ctx, base, tok.TokenEndpoint, form, st.saved.Client)
	if err != nil {
		return nil, err
	}
	fresh.RefreshToken = cmp.Or(fresh.RefreshToken, tok.RefreshToken)
	fresh.Scope = cmp.Or(fresh.Scope, tok.Scope)
	fresh.TokenEndpoint, fresh.Resource = tok.TokenEndpoint, tok.Resource
	st.saved.Token = fresh
	return fresh, st.save(ctx)
}

// authorize signs in after ch and returns the new token. Unless force is
// set, a token newer than failed (another request signed in meanwhile) is
// returned as it is.
func (st *oauthState) authorize(ctx context.Context, base http.RoundTripper, cfg Connector, ch challenge, failed *oauthToken, force bool) (*oauthToken, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := st.load(ctx); err != nil {
		return nil, err
	}
	if cur := st.saved.Token; !force && cur != nil && (failed == nil || cur.AccessToken != failed.AccessToken) {
		return cur, nil
	}
	d, err := discover(ctx, base, cfg, ch)
	if err != nil {
		return nil, err
	}
	scopes := chooseScopes(cfg, ch, d, failed)
	var tok *oauthToken
	if cfg.OAuth.GrantType == GrantClientCredentials {
		tok, err = st.clientCredentials(ctx, base, cfg, d, scopes)
	} else {
		tok, err = st.authorizationCode(ctx, base, cfg, d, scopes)
	}
	if err != nil {
		return nil, err
	}
	tok.Scope = cmp.Or(tok.Scope, strings.Join(scopes, " "))
	tok.TokenEndpoint, tok.Resource = d.as.TokenEndpoint, d.resource
	st.saved.Token = tok
	return tok, st.save(ctx)
}

// discovery is what a sign-in needs to know about the servers.
type discovery struct {
	resource string
	prm      *resourceMetadata
	issuer   string
	as       authServerMetadata
	// found is false when the endpoints are the 2025-03-26 defaults.
	found bool
}

type resourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
}

type authServerMetadata struct {
	Issuer                        string   `json:"issuer"`
	AuthorizationEndpoint         string   `json:"authorization_endpoint"`
	TokenEndpoint                 string   `json:"token_endpoint"`
	RegistrationEndpoint          string   `json:"registration_endpoint"`
	ScopesSupported               []string `json:"scopes_supported"`
	CodeChallengeMethodsSupported []string `json:"code_challenge_methods_supported"`
	TokenEndpointAuthMethods      []string `json:"token_endpoint_auth_methods_supported"`
	ClientIDMetadataDocument      bool     `json:"client_id_metadata_document_supported"`
}

func discover(ctx context.Context, base http.RoundTripper, cfg Connector, ch challenge) (discovery, error) {
	server, err := url.Parse(cfg.URL)
	if err != nil {
		return discovery{}, chat.E(chat.ErrInvalid, "bad server URL %q", cfg.URL)
	}
	var d discovery
	d.resource = canonicalResource(server)
	var candidates []string
	if ch.ResourceMetadata != "" {
		if u, err := url.Parse(ch.ResourceMetadata); err == nil && sameOrigin(u, server) {
			candidates = append(candidates, ch.ResourceMetadata)
		}
	}
	origin := (&url.URL{Scheme: server.Scheme, Host: server.Host}).String()
	if p := strings.TrimSuffix(server.EscapedPath(), "/"); p != "" {
		candidates = append(candidates, origin+"/.well-known/oauth-protected-resource"+p)
	}
	candidates = append(candidates, origin+"/.well-known/oauth-protected-resource")
	for _, u := range candidates {
		var prm resourceMetadata
		if getJSON(ctx, base, u, &prm) == nil && (len(prm.AuthorizationServers) > 0 || prm.Resource != "") {
			d.prm = &prm
			break
		}
	}
	if d.prm != nil {
		if d.prm.Resource != "" {
			if !resourceMatches(d.prm.Resource, server) {
				return discovery{}, chat.E(chat.ErrInvalid,
					"the server's protected resource metadata is for %q, not %q: refusing to sign in", d.prm.Resource, cfg.URL)
			}
			d.resource = d.prm.Resource
		}
		if len(d.prm.AuthorizationServers) > 0 {
			d.issuer = d.prm.AuthorizationServers[0]
		}
	}
	legacy := d.issuer == ""
	if legacy {
		d.issuer = origin // 2025-03-26: the MCP server's origin is the authorization server
	}
	var metaURLs []string
	if u := cfg.OAuth.AuthServerMetadataURL; u != "" {
		metaURLs = []string{u}
	} else if metaURLs, err = authServerMetadataURLs(d.issuer); err != nil {
		return discovery{}, err
	}
	for _, u := range metaURLs {
		var m authServerMetadata
		if getJSON(ctx, base, u, &m) == nil && m.AuthorizationEndpoint != "" && m.TokenEndpoint != "" {
			if !legacy && m.Issuer != "" && strings.TrimSuffix(m.Issuer, "/") != strings.TrimSuffix(d.issuer, "/") {
				return discovery{}, chat.E(chat.ErrInvalid, "the authorization server metadata at %s names issuer %q, not %q", u, m.Issuer, d.issuer)
			}
			d.as, d.found = m, true
			break
		}
	}
	if !d.found {
		if !legacy {
			return discovery{}, chat.E(chat.ErrUnavailable, "no authorization server metadata for %s", d.issuer)
		}
		d.as = authServerMetadata{
			AuthorizationEndpoint: origin + "/authorize",
			TokenEndpoint:         origin + "/token",
			RegistrationEndpoint:  origin + "/register",
		}
	}
	return d, nil
}

// authServerMetadataURLs lists where an issuer's metadata may be, in the
// order MCP asks for: RFC 8414 then OpenID Connect, path-aware.
func authServerMetadataURLs(issuer string) ([]string, error) {
	u, err := url.Parse(issuer)
	if err != nil || u.Host == "" {
		return nil, chat.E(chat.ErrInvalid, "bad authorization server %q", issuer)
	}
	origin := u.Scheme + "://" + u.Host
	p := strings.TrimSuffix(u.EscapedPath(), "/")
	if p == "" {
		return []string{
			origin + "/.well-known/oauth-authorization-server",
			origin + "/.well-known/openid-configuration",
		}, nil
	}
	return []string{
		origin + "/.well-known/oauth-authorization-server" + p,
		origin + "/.well-known/openid-configuration" + p,
		origin + p + "/.well-known/openid-configuration",
	}, nil
}

// canonicalResource is the server URL without fragment and query, as RFC
// 8707 wants the resource parameter.
func canonicalResource(u *url.URL) string {
	c := url.URL{Scheme: strings.ToLower(u.Scheme), Host: strings.ToLower(u.Host), Path: u.Path, RawPath: u.RawPath}
	return c.String()
}

// resourceMatches reports whether a protected resource names the server:
// same origin, and a path that is the server's or a prefix of it.
func resourceMatches(resource string, server *url.URL) bool {
	r, err := url.Parse(resource)
	if err != nil || !sameOrigin(r, server) {
		return false
	}
	rp := strings.TrimSuffix(r.Path, "/")
	sp := strings.TrimSuffix(server.Path, "/")
	return rp == "" || rp == sp || strings.HasPrefix(sp, rp+"/")
}

func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host)
}

func chooseScopes(cfg Connector, ch challenge, d discovery, failed *oauthToken) []string {
	var scopes []string
	switch {
	case len(cfg.OAuth.Scopes) > 0:
		scopes = slices.Clone(cfg.OAuth.Scopes)
	case ch.Scope != "":
		scopes = strings.Fields(ch.Scope)
	case d.prm != nil && len(d.prm.ScopesSupported) > 0:
		scopes = slices.Clone(d.prm.ScopesSupported)
	}
	if ch.Status == http.StatusForbidden && failed != nil {
		// Step-up: keep what the old token could do.
		for _, s := range strings.Fields(failed.Scope) {
			if !slices.Contains(scopes, s) {
				scopes = append(scopes, s)
			}
		}
	}
	if slices.Contains(d.as.ScopesSupported, "offline_access") && !slices.Contains(scopes, "offline_access") {
		scopes = append(scopes, "offline_access")
	}
	return scopes
}

func (st *oauthState) authorizationCode(ctx context.Context, base http.RoundTripper, cfg Connector, d discovery, scopes []string) (*oauthToken, error) {
	az := st.sup.authorizer
	if az == nil {
		return nil, chat.E(chat.ErrAuthRequired, "sign-in required, and Maestro has no way to open a sign-in page")
	}
	if d.found && !slices.Contains(d.as.CodeChallengeMethodsSupported, "S256") {
		return nil, chat.E(chat.ErrUnavailable, "the authorization server does not support PKCE with S256: refusing to sign in")
	}
	verifier := randomString(48)
	sum := sha256.Sum256([]byte(verifier))
	codeChallenge := base64.RawURLEncoding.EncodeToString(sum[:])
	state := randomString(24)
	var client *oauthClient
	var redirect string
	query, err := az.Authorize(ctx, cfg.DisplayName(), func(redirectURI string) (string, error) {
		c, err := st.clientFor(ctx, base, cfg, d, redirectURI)
		if err != nil {
			return "", err
		}
		client, redirect = c, redirectURI
		u, err := url.Parse(d.as.AuthorizationEndpoint)
		if err != nil {
			return "", fmt.Errorf("bad authorization endpoint %q", d.as.AuthorizationEndpoint)
		}
		q := u.Query()
		q.Set("response_type", "code")
		q.Set("client_id", c.ClientID)
		q.Set("redirect_uri", redirectURI)
		q.Set("code_challenge", codeChallenge)
		q.Set("code_challenge_method", "S256")
		q.Set("state", state)
		q.Set("resource", d.resource)
		if len(scopes) > 0 {
			q.Set("scope", strings.Join(scopes, " "))
		}
		u.RawQuery = q.Encode()
		return u.String(), nil
	})
	if err != nil {
		return nil, err
	}
	if client == nil {
		return nil, errors.New("the sign-in ended before the authorization page was opened")
	}
	if e := query.Get("error"); e != "" {
		return nil, chat.E(chat.ErrAuthRequired, "the authorization server refused: %s", strings.TrimSpace(e+" "+query.Get("error_description")))
	}
	if query.Get("state") != state {
		return nil, chat.E(chat.ErrInvalid, "the sign-in answer does not match the request (state): ignoring it")
	}
	code := query.Get("code")
	if code == "" {
		return nil, chat.E(chat.ErrInvalid, "the sign-in answer has no code")
	}
	form := url.Values{
		"grant_type":    {"authorization_code"},
		"code":          {code},
		"redirect_uri":  {redirect},
		"code_verifier": {verifier},
		"resource":      {d.resource},
	}
	return tokenRequest(ctx, base, d.as.TokenEndpoint, form, client)
}

func (st *oauthState) clientCredentials(ctx context.Context, base http.RoundTripper, cfg Connector, d discovery, scopes []string) (*oauthToken, error) {
	client := &oauthClient{
		Issuer: d.issuer, ClientID: cfg.OAuth.ClientID, ClientSecret: cfg.OAuth.ClientSecret,
		AuthMethod: authMethod(d.as, true),
	}
	st.saved.Client = client
	form := url.Values{"grant_type": {"client_credentials"}, "resource": {d.resource}}
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	return tokenRequest(ctx, base, d.as.TokenEndpoint, form, client)
}

// clientFor picks the client for a sign-in: pre-registered, a metadata
// document URL, the one registered before, or a new registration.
func (st *oauthState) clientFor(ctx context.Context, base http.RoundTripper, cfg Connector, d discovery, redirectURI string) (*oauthClient, error) {
	o := cfg.OAuth
	if o.ClientID != "" {
		c := &oauthClient{Issuer: d.issuer, RedirectURI: redirectURI, ClientID: o.ClientID, ClientSecret: o.ClientSecret,
			AuthMethod: authMethod(d.as, o.ClientSecret != "")}
		st.saved.Client = c
		return c, nil
	}
	if c := st.saved.Client; c != nil && c.Issuer == d.issuer && c.RedirectURI == redirectURI {
		return c, nil
	}
	if d.as.ClientIDMetadataDocument && o.ClientMetadataURL != "" {
		c := &oauthClient{Issuer: d.issuer, RedirectURI: redirectURI, ClientID: o.ClientMetadataURL, AuthMethod: "none"}
		st.saved.Client = c
		return c, nil
	}
	if d.as.RegistrationEndpoint == "" {
		return nil, chat.E(chat.ErrUnavailable,
			"the authorization server offers no client registration: ask its administrator for a client ID and set it on the connector")
	}
	method := "none"
	if len(d.as.TokenEndpointAuthMethods) > 0 && !slices.Contains(d.as.TokenEndpointAuthMethods, "none") {
		method = authMethod(d.as, true)
	}
	reqBody, _ := json.Marshal(map[string]any{
		"client_name":                cmp.Or(st.sup.client.Name, "Maestro"),
		"redirect_uris":              []string{redirectURI},
		"grant_types":                []string{"authorization_code", "refresh_token"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": method,
	})
	var reg struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
		AuthMethod   string `json:"token_endpoint_auth_method"`
	}
	if err := postJSON(ctx, base, d.as.RegistrationEndpoint, reqBody, &reg); err != nil {
		return nil, fmt.Errorf("register with the authorization server: %w", err)
	}
	if reg.ClientID == "" {
		return nil, errors.New("register with the authorization server: no client_id in the answer")
	}
	c := &oauthClient{Issuer: d.issuer, RedirectURI: redirectURI, ClientID: reg.ClientID, ClientSecret: reg.ClientSecret,
		AuthMethod: cmp.Or(reg.AuthMethod, authMethod(d.as, reg.ClientSecret != ""))}
	st.saved.Client = c
	return c, nil
}

// authMethod picks how a client authenticates at the token endpoint.
func authMethod(as authServerMetadata, hasSecret bool) string {
	if !hasSecret {
		return "none"
	}
	methods := as.TokenEndpointAuthMethods
	if len(methods) == 0 || slices.Contains(methods, "client_secret_basic") {
		return "client_secret_basic"
	}
	if slices.Contains(methods, "client_secret_post") {
		return "client_secret_post"
	}
	return "client_secret_basic"
}

// tokenRequest posts a token request with the client's authentication.
func tokenRequest(ctx context.Context, base http.RoundTripper, endpoint string, form url.Values, c *oauthClient) (*oauthToken, error) {
	header := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Accept": {"application/json"}}
	switch c.AuthMethod {
	case "client_secret_basic":
		cred := url.QueryEscape(c.ClientID) + ":" + url.QueryEscape(c.ClientSecret)
		header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(cred)))
	case "client_secret_post":
		form.Set("client_id", c.ClientID)
		form.Set("client_secret", c.ClientSecret)
	default:
		form.Set("client_id", c.ClientID)
	}
	ctx, cancel := context.WithTimeout(ctx, oauthHTTPTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, fmt.Errorf("token request: %w", err)
	}
	req.Header = header
	resp, err := base.RoundTrip(req)
	if err != nil {
		return nil, fmt.Errorf("token request: %w", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var t struct {
		AccessToken  string          `json:"access_token"`
		TokenType    string          `json:"token_type"`
		ExpiresIn    json.Number     `json:"expires_in"`
		RefreshToken string          `json:"refresh_token"`
		Scope        string          `json:"scope"`
		Error        string          `json:"error"`
		Description  string          `json:"error_description"`
		Extra        json.RawMessage `json:"-"`
	}
	_ = json.Unmarshal(b, &t)
	if resp.StatusCode != http.StatusOK || t.AccessToken == "" {
		msg := cmp.Or(strings.TrimSpace(t.Error+" "+t.Description), http.StatusText(resp.StatusCode))
		return nil, chat.E(chat.ErrAuthRequired, "the authorization server refused the token request (%d): %s", resp.StatusCode, msg)
	}
	tok := &oauthToken{AccessToken: t.AccessToken, TokenType: t.TokenType, RefreshToken: t.RefreshToken, Scope: t.Scope}
	if secs, err := t.ExpiresIn.Int64(); err == nil && secs > 0 {
		tok.Expiry = time.Now().Add(time.Duration(secs) * time.Second)
	}
	return tok, nil
}

func getJSON(ctx context.Context, base http.RoundTripper, u string, v any) error {
	ctx, cancel := context.WithTimeout(ctx, oauthHTTPTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("MCP-Protocol-Version", DefaultProtocolVersion)
	resp, err := base.RoundTrip(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(v)
}

func postJSON(ctx context.Context, base http.RoundTripper, u string, body []byte, v any) error {
	ctx, cancel := context.WithTimeout(ctx, oauthHTTPTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := base.RoundTrip(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("POST %s: %s: %s", u, resp.Status, strings.TrimSpace(string(b)))
	}
	return json.Unmarshal(b, v)
}

func randomString(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)[:n]
}
