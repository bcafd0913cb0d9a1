package auth

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"golang.org/x/oauth2"

	"maestro/backend/chat"
)

// Claude sign-in (docs/providers/anthropic.md §Sign-in). The hosts are the
// "classic" ones the contract defaults to (claude.ai, console.anthropic.com),
// so the scopes are the classic set too (§Sign-in: constants).
const (
	anthropicClientID = "9d1c250a-e61b-44d9-88ed-5944d1962f5e"
	anthropicScope    = "org:create_api_key user:profile user:inference"
	anthropicCallback = "/callback"
)

type anthropicFlow struct {
	now func() time.Time
}

func (anthropicFlow) provider() string { return chat.ProviderAnthropic }
func (anthropicFlow) display() string  { return "Claude" }

// listen binds a free port; the redirect URI says localhost: any port,
// literal localhost (docs/providers/anthropic.md §Sign-in: loopback and
// paste).
func (anthropicFlow) listen() listenSpec {
	return listenSpec{ports: []int{0}, path: anthropicCallback, redirectHost: "localhost"}
}

// secrets: a 64-byte verifier and, unlike opencode, an independent state,
// so the verifier never appears in a URL (docs/providers/anthropic.md
// §Sign-in: PKCE and state).
func (anthropicFlow) secrets() (PKCE, string) { return NewPKCE(64), NewState(32) }

// authURL has the parameters in the order of docs/providers/anthropic.md
// §Sign-in: authorize URL.
func (anthropicFlow) authURL(ep Endpoints, redirectURI string, p PKCE, state string) string {
	return withQuery(ep.AnthropicAuth+"/oauth/authorize",
		[2]string{"code", "true"},
		[2]string{"client_id", anthropicClientID},
		[2]string{"response_type", "code"},
		[2]string{"redirect_uri", redirectURI},
		[2]string{"scope", anthropicScope},
		[2]string{"code_challenge", p.Challenge},
		[2]string{"code_challenge_method", "S256"},
		[2]string{"state", state},
	)
}

// manualRedirect is the page that shows code#state for pasting
// (docs/providers/anthropic.md §Sign-in: loopback and paste).
func (anthropicFlow) manualRedirect(ep Endpoints) string {
	return ep.AnthropicToken + "/oauth/code/callback"
}

// exchange is the JSON code exchange, with the non-standard state field
// (docs/providers/anthropic.md §Sign-in: token exchange).
func (f anthropicFlow) exchange(ctx context.Context, hc *http.Client, ep Endpoints, g grant) (*tokenEntry, error) {
	body, _ := json.Marshal(struct {
		GrantType    string `json:"grant_type"`
		Code         string `json:"code"`
		State        string `json:"state"`
		ClientID     string `json:"client_id"`
		RedirectURI  string `json:"redirect_uri"`
		CodeVerifier string `json:"code_verifier"`
	}{"authorization_code", g.code, g.state, anthropicClientID, g.redirectURI, g.pkce.Verifier})
	tr, err := postToken(ctx, hc, ep.AnthropicToken+"/v1/oauth/token", "application/json", body)
	if err != nil {
		return nil, exchangeError("Claude", err)
	}
	if tr.RefreshToken == "" {
		return nil, chat.E(chat.ErrAuthRequired, "Claude sign-in failed: the sign-in server sent no refresh token; try again")
	}
	t := tr.token(f.now(), nil)
	e := &tokenEntry{AccessToken: t.AccessToken, RefreshToken: t.RefreshToken, TokenType: t.TokenType, Expiry: t.Expiry}
	if tr.Account != nil {
		e.Email = tr.Account.EmailAddress
	}
	if tr.Organization != nil {
		e.Plan = tr.Organization.Name
	}
	return e, nil
}

// refresh is the JSON refresh; an answer without a refresh token keeps the
// old one (docs/providers/anthropic.md §Sign-in: token refresh).
func (f anthropicFlow) refresh(ctx context.Context, hc *http.Client, ep Endpoints, refreshToken string) (*oauth2.Token, error) {
	body, _ := json.Marshal(struct {
		GrantType    string `json:"grant_type"`
		RefreshToken string `json:"refresh_token"`
		ClientID     string `json:"client_id"`
	}{"refresh_token", refreshToken, anthropicClientID})
	tr, err := postToken(ctx, hc, ep.AnthropicToken+"/v1/oauth/token", "application/json", body)
	if err != nil {
		return nil, refreshError("Claude", err)
	}
	return tr.token(f.now(), nil), nil
}

func (anthropicFlow) refreshed(*tokenEntry) {}

func (anthropicFlow) finish(context.Context, finishDeps, *tokenEntry) error { return nil }
