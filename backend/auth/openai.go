package auth

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"golang.org/x/oauth2"

	"maestro/backend/chat"
)

// ChatGPT sign-in (docs/providers/openai.md §Sign-in).
const (
	openaiClientID = "app_EMoamEEZ73f0CkXaXp7hrann"
	// openaiScope is the scope every reimplementation sends; current Codex
	// adds api.connectors.*, which Maestro has no use for
	// (docs/providers/openai.md §Sign-in: constants).
	openaiScope = "openid profile email offline_access"
	// openaiOriginator names Maestro, as the OpenAI adapter's
	// DefaultOriginator does: reimplementations send their own name
	// (docs/providers/openai.md §Sign-in: constants).
	openaiOriginator = "maestro"
	openaiCallback   = "/auth/callback"
)

// openaiPorts are Codex's DEFAULT_PORT and FALLBACK_PORT, the only two the
// server's redirect allow-list accepts (docs/providers/openai.md §Sign-in:
// loopback).
var openaiPorts = []int{1455, 1457}

type openaiFlow struct {
	ports []int
	now   func() time.Time
}

func (openaiFlow) provider() string { return chat.ProviderOpenAI }
func (openaiFlow) display() string  { return "ChatGPT" }

// listen binds 127.0.0.1:1455, else :1457; the redirect URI says localhost
// (docs/providers/openai.md §Sign-in: loopback).
func (f openaiFlow) listen() listenSpec {
	return listenSpec{ports: f.ports, path: openaiCallback, redirectHost: "localhost"}
}

// secrets: a 64-byte verifier and a 32-byte state, base64url
// (docs/providers/openai.md §Sign-in: PKCE and state).
func (openaiFlow) secrets() (PKCE, string) { return NewPKCE(64), NewState(32) }

// authURL has Codex's parameters in Codex's order
// (docs/providers/openai.md §Sign-in: authorize URL).
func (openaiFlow) authURL(ep Endpoints, redirectURI string, p PKCE, state string) string {
	return withQuery(ep.OpenAIAuth+"/oauth/authorize",
		[2]string{"response_type", "code"},
		[2]string{"client_id", openaiClientID},
		[2]string{"redirect_uri", redirectURI},
		[2]string{"scope", openaiScope},
		[2]string{"code_challenge", p.Challenge},
		[2]string{"code_challenge_method", "S256"},
		[2]string{"id_token_add_organizations", "true"},
		[2]string{"codex_cli_simplified_flow", "true"},
		[2]string{"state", state},
		[2]string{"originator", openaiOriginator},
	)
}

func (openaiFlow) manualRedirect(Endpoints) string { return "" }

// exchange is the form-encoded code exchange (docs/providers/openai.md
// §Sign-in: token exchange). The answer must carry all three tokens; the
// account comes from the id_token's https://api.openai.com/auth claim.
func (f openaiFlow) exchange(ctx context.Context, hc *http.Client, ep Endpoints, g grant) (*tokenEntry, error) {
	body := formBody(
		[2]string{"grant_type", "authorization_code"},
		[2]string{"code", g.code},
		[2]string{"redirect_uri", g.redirectURI},
		[2]string{"client_id", openaiClientID},
		[2]string{"code_verifier", g.pkce.Verifier},
	)
	tr, err := postToken(ctx, hc, ep.OpenAIAuth+"/oauth/token", "application/x-www-form-urlencoded", body)
	if err != nil {
		return nil, exchangeError("ChatGPT", err)
	}
	if tr.IDToken == "" || tr.RefreshToken == "" {
		return nil, chat.E(chat.ErrAuthRequired, "ChatGPT sign-in failed: the sign-in server sent no ID or refresh token; try again")
	}
	id, err := parseChatGPTIDToken(tr.IDToken)
	if err != nil {
		return nil, chat.E(chat.ErrAuthRequired, "ChatGPT sign-in failed: the ID token is unreadable (%w); try again", err)
	}
	if id.AccountID == "" {
		return nil, chat.E(chat.ErrAuthRequired, "ChatGPT sign-in failed: the ID token names no ChatGPT account; "+
			"check that this account has a ChatGPT plan with Codex")
	}
	t := tr.token(f.now(), jwtExpiry)
	return &tokenEntry{
		AccessToken: t.AccessToken, RefreshToken: t.RefreshToken, IDToken: tr.IDToken, TokenType: t.TokenType,
		Expiry: t.Expiry, Email: id.Email, Plan: id.Plan, AccountID: id.AccountID,
	}, nil
}

// refresh is the JSON refresh (docs/providers/openai.md §Sign-in: token
// refresh). Refresh tokens are single-use: the answer's new refresh token
// must be saved before the old one is presented again.
func (f openaiFlow) refresh(ctx context.Context, hc *http.Client, ep Endpoints, refreshToken string) (*oauth2.Token, error) {
	body, _ := json.Marshal(struct {
		ClientID     string `json:"client_id"`
		GrantType    string `json:"grant_type"`
		RefreshToken string `json:"refresh_token"`
	}{openaiClientID, "refresh_token", refreshToken})
	tr, err := postToken(ctx, hc, ep.OpenAIAuth+"/oauth/token", "application/json", body)
	if err != nil {
		return nil, refreshError("ChatGPT", err)
	}
	return tr.token(f.now(), jwtExpiry), nil
}

// refreshed reads the account again from a new id_token: the plan may
// have changed.
func (openaiFlow) refreshed(e *tokenEntry) {
	id, err := parseChatGPTIDToken(e.IDToken)
	if err != nil {
		return
	}
	if id.AccountID != "" {
		e.AccountID = id.AccountID
	}
	if id.Plan != "" {
		e.Plan = id.Plan
	}
	if id.Email != "" {
		e.Email = id.Email
	}
}

func (openaiFlow) finish(context.Context, finishDeps, *tokenEntry) error { return nil }
