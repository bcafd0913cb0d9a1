package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"golang.org/x/oauth2"

	"maestro/backend/chat"
)

// Google sign-in as gemini-cli does it (docs/providers/gemini.md §Sign-in),
// with PKCE added to the loopback flow.
const (
	geminiClientID = "681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com"
	// geminiClientSecret is an installed-app secret, public by design
	// (docs/providers/gemini.md §Sign-in: constants).
	geminiClientSecret = "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"
	geminiScope        = "https://www.googleapis.com/auth/cloud-platform " +
		"https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile"
	geminiCallback = "/oauth2callback"
	// defaultOnboardPoll is gemini-cli's LRO polling interval
	// (docs/providers/gemini.md §Sign-in: Code Assist setup).
	defaultOnboardPoll = 5 * time.Second
)

type geminiFlow struct {
	now  func() time.Time
	poll time.Duration
}

func (geminiFlow) provider() string { return chat.ProviderGemini }
func (geminiFlow) display() string  { return "Gemini" }

// listen binds a free port; the redirect URI names the bound IP literally,
// as Google requires (docs/providers/gemini.md §Sign-in: loopback).
func (geminiFlow) listen() listenSpec {
	return listenSpec{ports: []int{0}, path: geminiCallback}
}

// secrets: google-auth-library's verifier and a hex state
// (docs/providers/gemini.md §Sign-in: PKCE and state).
func (geminiFlow) secrets() (PKCE, string) { return newPKCEGoogle(), stateHex() }

// authURL has gemini-cli's parameters in its order, PKCE appended
// (docs/providers/gemini.md §Sign-in: authorize URL).
func (geminiFlow) authURL(ep Endpoints, redirectURI string, p PKCE, state string) string {
	return withQuery(ep.GeminiAuth+"/o/oauth2/v2/auth",
		[2]string{"redirect_uri", redirectURI},
		[2]string{"access_type", "offline"},
		[2]string{"scope", geminiScope},
		[2]string{"state", state},
		[2]string{"response_type", "code"},
		[2]string{"client_id", geminiClientID},
		[2]string{"code_challenge_method", "S256"},
		[2]string{"code_challenge", p.Challenge},
	)
}

func (geminiFlow) manualRedirect(Endpoints) string { return "" }

// exchange is the form exchange with the client secret in the body
// (docs/providers/gemini.md §Sign-in: token exchange).
func (f geminiFlow) exchange(ctx context.Context, hc *http.Client, ep Endpoints, g grant) (*tokenEntry, error) {
	body := formBody(
		[2]string{"code", g.code},
		[2]string{"client_id", geminiClientID},
		[2]string{"redirect_uri", g.redirectURI},
		[2]string{"grant_type", "authorization_code"},
		[2]string{"code_verifier", g.pkce.Verifier},
		[2]string{"client_secret", geminiClientSecret},
	)
	tr, err := postToken(ctx, hc, ep.GeminiToken+"/token", "application/x-www-form-urlencoded", body)
	if err != nil {
		return nil, exchangeError("Gemini", err)
	}
	if tr.RefreshToken == "" {
		return nil, chat.E(chat.ErrAuthRequired, "Gemini sign-in failed: Google granted no offline access (no refresh token); try again")
	}
	t := tr.token(f.now(), nil)
	return &tokenEntry{AccessToken: t.AccessToken, RefreshToken: t.RefreshToken, TokenType: t.TokenType, Expiry: t.Expiry}, nil
}

// refresh is the form refresh (docs/providers/gemini.md §Sign-in: token
// refresh). Google keeps the refresh token, so the answer normally has none
// and the old one stays.
func (f geminiFlow) refresh(ctx context.Context, hc *http.Client, ep Endpoints, refreshToken string) (*oauth2.Token, error) {
	body := formBody(
		[2]string{"refresh_token", refreshToken},
		[2]string{"client_id", geminiClientID},
		[2]string{"client_secret", geminiClientSecret},
		[2]string{"grant_type", "refresh_token"},
	)
	tr, err := postToken(ctx, hc, ep.GeminiToken+"/token", "application/x-www-form-urlencoded", body)
	if err != nil {
		return nil, refreshError("Gemini", err)
	}
	return tr.token(f.now(), nil), nil
}

func (geminiFlow) refreshed(*tokenEntry) {}

// finish reads the email (best effort, as gemini-cli caches it) and
// resolves the Code Assist project, onboarding the user if needed
// (docs/providers/gemini.md §Sign-in: Code Assist setup).
func (f geminiFlow) finish(ctx context.Context, d finishDeps, e *tokenEntry) error {
	if email, err := userinfoEmail(ctx, d.hc, d.ep, e.AccessToken); err != nil {
		d.log.WarnContext(ctx, "auth: read the Google account's email", "err", err)
	} else {
		e.Email = email
	}
	ca := &codeAssist{hc: d.hc, base: d.ep.GeminiCodeAssist, token: e.AccessToken, poll: f.poll}
	res, err := ca.setup(ctx, d.ep.GoogleCloudProject)
	if err != nil {
		return err
	}
	e.Project, e.Plan = res.project, res.tierName
	if e.Plan == "" {
		e.Plan = res.tierID
	}
	return nil
}

// userinfoEmail is GET {userinfo}/oauth2/v2/userinfo
// (docs/providers/gemini.md §Sign-in: constants).
func userinfoEmail(ctx context.Context, hc *http.Client, ep Endpoints, token string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ep.GeminiUserinfo+"/oauth2/v2/userinfo", nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("User-Agent", userAgent)
	resp, err := hc.Do(req)
	if err != nil {
		return "", stripURL(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxTokenBody))
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("userinfo: HTTP %d", resp.StatusCode)
	}
	var v struct {
		Email string `json:"email"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return "", fmt.Errorf("userinfo: decode: %w", err)
	}
	return v.Email, nil
}
