package auth

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"maestro/backend/chat"
)

// Client is an OAuth client of one authorization server that speaks the
// standard token requests of RFC 6749, with the resource parameter of RFC
// 8707: the authorization code exchange (§4.1.3), the client credentials
// grant (§4.4.2) and the refresh (§6). backend/mcp signs in to MCP servers
// with it; the providers' flows, whose bodies their docs/providers files
// fix to the letter, post through the same token request (postToken).
type Client struct {
	// Name names the sign-in in errors ("sign in to <Name> again").
	Name     string
	TokenURL string
	ID       string
	Secret   string
	// AuthMethod is how the client authenticates at TokenURL (RFC 7591
	// token_endpoint_auth_method): "client_secret_basic",
	// "client_secret_post", or anything else for a public client, which
	// sends only its client_id.
	AuthMethod string
	// Resource is sent with every request (RFC 8707); "" sends none.
	Resource string
	// HTTP sends the requests (http.DefaultClient when nil).
	HTTP *http.Client
}

// Exchange redeems an authorization code and its PKCE verifier. A refusal
// is a chat.ErrAuthRequired; an unreachable server a chat.ErrUnavailable.
func (c Client) Exchange(ctx context.Context, code, redirectURI, verifier string) (*oauth2.Token, error) {
	return c.grant(ctx, url.Values{
		"grant_type":    {"authorization_code"},
		"code":          {code},
		"redirect_uri":  {redirectURI},
		"code_verifier": {verifier},
	})
}

// ClientCredentials asks for a token as the client itself, with scopes
// (none when empty). Errors are classified as Exchange's.
func (c Client) ClientCredentials(ctx context.Context, scopes []string) (*oauth2.Token, error) {
	form := url.Values{"grant_type": {"client_credentials"}}
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	return c.grant(ctx, form)
}

// Refresh redeems a refresh token; it is a RefreshFunc. A revoked, expired
// or reused refresh token is a chat.ErrAuthRequired asking to sign in to
// Name again; anything else is a chat.ErrUnavailable.
func (c Client) Refresh(ctx context.Context, refreshToken string) (*oauth2.Token, error) {
	tr, err := c.post(ctx, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refreshToken}})
	if err != nil {
		return nil, refreshError(c.Name, err)
	}
	return tr.token(time.Now(), nil), nil
}

func (c Client) grant(ctx context.Context, form url.Values) (*oauth2.Token, error) {
	tr, err := c.post(ctx, form)
	if err != nil {
		return nil, grantError(err)
	}
	return tr.token(time.Now(), nil), nil
}

// post sends form with the client's authentication (RFC 6749 §2.3.1: the
// Basic credentials are form-encoded first).
func (c Client) post(ctx context.Context, form url.Values) (*tokenResponse, error) {
	if c.Resource != "" {
		form.Set("resource", c.Resource)
	}
	var basic func(*http.Request)
	switch c.AuthMethod {
	case "client_secret_basic":
		basic = func(r *http.Request) { r.SetBasicAuth(url.QueryEscape(c.ID), url.QueryEscape(c.Secret)) }
	case "client_secret_post":
		form.Set("client_id", c.ID)
		form.Set("client_secret", c.Secret)
	default:
		form.Set("client_id", c.ID)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	return postTokenAs(ctx, hc, c.TokenURL, "application/x-www-form-urlencoded", []byte(form.Encode()), basic)
}

// grantError classifies a failed code exchange or client credentials
// grant.
func grantError(err error) error {
	var oe *oauthError
	switch {
	case errors.As(err, &oe):
		return chat.E(chat.ErrAuthRequired, "the authorization server refused the token request (%w)", oe)
	case errors.Is(err, context.Canceled):
		return err
	}
	return chat.E(chat.ErrUnavailable, "no token from the authorization server: %w", err)
}
