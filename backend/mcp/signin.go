package mcp

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"maestro/backend/auth"
	"maestro/backend/chat"
)

// A sign-in: after discovery (discovery.go), pick a client (pre-registered,
// a Client ID Metadata Document, the one registered before, or dynamic
// registration) and get a token, by authorization code + PKCE S256 through
// the Authorizer or by the client credentials grant, with the resource
// parameter. PKCE, state, the token requests and the keychain record are
// backend/auth's.

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
	if err := r.oauth.authorize(ctx, base, cfg, ch, nil, true); err != nil {
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

// authorize signs in after ch and installs the new token. Unless force
// is set, it does nothing when failed (the token source the refused
// request used; nil for none) is no longer the current one: another
// request signed in meanwhile.
func (st *oauthState) authorize(ctx context.Context, base http.RoundTripper, cfg Connector, ch challenge,
	failed *auth.SavingTokenSource, force bool) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.name = cfg.DisplayName()
	if err := st.load(ctx); err != nil {
		return err
	}
	if !force && st.src != nil && st.src != failed {
		return nil
	}
	d, err := discover(ctx, base, cfg, ch)
	if err != nil {
		return err
	}
	var prev string
	if failed != nil && st.saved.Token != nil {
		prev = st.saved.Token.Scope
	}
	scopes := chooseScopes(cfg, ch, d, prev)
	var tok *oauth2.Token
	if cfg.OAuth.GrantType == GrantClientCredentials {
		tok, err = st.clientCredentials(ctx, base, cfg, d, scopes)
	} else {
		tok, err = st.authorizationCode(ctx, base, cfg, d, scopes)
	}
	if err != nil {
		return err
	}
	st.install(newTokenRecord(tok, strings.Join(scopes, " "), d.as.TokenEndpoint, d.resource), time.Now())
	return st.save(ctx)
}

func (st *oauthState) authorizationCode(ctx context.Context, base http.RoundTripper, cfg Connector, d discovery, scopes []string) (*oauth2.Token, error) {
	az := st.sup.authorizer
	if az == nil {
		return nil, chat.E(chat.ErrAuthRequired, "sign-in required, and Maestro has no way to open a sign-in page")
	}
	if d.found && !slices.Contains(d.as.CodeChallengeMethodsSupported, "S256") {
		return nil, chat.E(chat.ErrUnavailable, "the authorization server does not support PKCE with S256: refusing to sign in")
	}
	p, state := auth.NewPKCE(36), auth.NewState(18)
	var client *oauthClient
	var redirect string
	query, err := az.Authorize(ctx, cfg.DisplayName(), func(redirectURI string) (string, error) {
		c, err := st.clientFor(ctx, base, cfg, d, redirectURI)
		if err != nil {
			return "", err
		}
		client, redirect = c, redirectURI
		return authorizationURL(d, c.ClientID, redirectURI, p, state, scopes)
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
	return tokenClient(cfg, d, client, base).Exchange(ctx, code, redirect, p.Verifier)
}

// authorizationURL is the authorization request: code + PKCE S256, with
// the resource parameter (RFC 8707).
func authorizationURL(d discovery, clientID, redirectURI string, p auth.PKCE, state string, scopes []string) (string, error) {
	u, err := url.Parse(d.as.AuthorizationEndpoint)
	if err != nil {
		return "", fmt.Errorf("bad authorization endpoint %q", d.as.AuthorizationEndpoint)
	}
	q := u.Query()
	q.Set("response_type", "code")
	q.Set("client_id", clientID)
	q.Set("redirect_uri", redirectURI)
	q.Set("code_challenge", p.Challenge)
	q.Set("code_challenge_method", "S256")
	q.Set("state", state)
	q.Set("resource", d.resource)
	if len(scopes) > 0 {
		q.Set("scope", strings.Join(scopes, " "))
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

func (st *oauthState) clientCredentials(ctx context.Context, base http.RoundTripper, cfg Connector, d discovery, scopes []string) (*oauth2.Token, error) {
	client := &oauthClient{
		Issuer: d.issuer, ClientID: cfg.OAuth.ClientID, ClientSecret: cfg.OAuth.ClientSecret,
		AuthMethod: authMethod(d.as, true),
	}
	st.saved.Client = client
	return tokenClient(cfg, d, client, base).ClientCredentials(ctx, scopes)
}

// tokenClient is c at d's token endpoint, for d's resource, sending
// through base.
func tokenClient(cfg Connector, d discovery, c *oauthClient, base http.RoundTripper) auth.Client {
	return auth.Client{Name: cfg.DisplayName(), TokenURL: d.as.TokenEndpoint, ID: c.ClientID, Secret: c.ClientSecret,
		AuthMethod: c.AuthMethod, Resource: d.resource, HTTP: oauthHTTP(base)}
}

// oauthHTTP sends discovery, registration and token requests through base,
// each within oauthHTTPTimeout, following no redirect.
func oauthHTTP(base http.RoundTripper) *http.Client {
	return &http.Client{Transport: base, Timeout: oauthHTTPTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
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
	return st.register(ctx, base, d, redirectURI)
}

// register registers Maestro with the authorization server (RFC 7591
// dynamic client registration) for redirectURI.
func (st *oauthState) register(ctx context.Context, base http.RoundTripper, d discovery, redirectURI string) (*oauthClient, error) {
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

// postJSON posts a registration request.
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
