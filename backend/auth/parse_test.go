package auth

import (
	"encoding/base64"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"maestro/backend/chat"
	"maestro/backend/providers/fakes"
)

func newTestLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func TestPKCEShapes(t *testing.T) {
	t.Parallel()
	unreserved := regexp.MustCompile(`^[A-Za-z0-9._~-]+$`)
	tests := []struct {
		name    string
		p       PKCE
		wantLen int
	}{
		{"url-safe 64 bytes (Codex, Claude)", NewPKCE(64), 86},
		{"google", newPKCEGoogle(), 128},
	}
	for _, tt := range tests {
		if len(tt.p.Verifier) != tt.wantLen || !unreserved.MatchString(tt.p.Verifier) {
			t.Errorf("%s: verifier %d chars, unreserved %v; want %d unreserved chars",
				tt.name, len(tt.p.Verifier), unreserved.MatchString(tt.p.Verifier), tt.wantLen)
		}
		if tt.p.Challenge != fakes.S256(tt.p.Verifier) || strings.ContainsAny(tt.p.Challenge, "+/=") {
			t.Errorf("%s: challenge %q is not base64url(SHA-256(verifier))", tt.name, tt.p.Challenge)
		}
	}
	if a, b := NewPKCE(64), NewPKCE(64); a.Verifier == b.Verifier {
		t.Errorf("two verifiers are equal")
	}
	if s := stateHex(); !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(s) {
		t.Errorf("stateHex() = %q; want 64 hex digits", s)
	}
	if s := NewState(32); len(s) != 43 || !unreserved.MatchString(s) {
		t.Errorf("NewState(32) = %q; want 43 base64url chars", s)
	}
	// RFC 7636 appendix B.
	if got := s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"); got != "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM" {
		t.Errorf("s256(RFC 7636 example) = %q", got)
	}
}

func TestEndpointsFromEnv(t *testing.T) {
	t.Parallel()
	def := endpointsFrom(func(string) string { return "" })
	if def != DefaultEndpoints() {
		t.Errorf("no env: %+v; want the defaults", def)
	}
	env := map[string]string{
		"MAESTRO_OPENAI_AUTH_URL":        "http://127.0.0.1:9/openai/",
		"MAESTRO_OPENAI_BASE_URL":        "http://127.0.0.1:9/openai",
		"MAESTRO_ANTHROPIC_TOKEN_URL":    "http://127.0.0.1:9/anthropic",
		"MAESTRO_GEMINI_CODE_ASSIST_URL": " http://127.0.0.1:9/gemini// ",
		"MAESTRO_OAUTH_CALLBACK_HOST":    "::1",
		"GOOGLE_CLOUD_PROJECT_ID":        "fallback-proj",
	}
	got := endpointsFrom(func(k string) string { return env[k] })
	want := DefaultEndpoints()
	want.OpenAIAuth, want.OpenAIBase = "http://127.0.0.1:9/openai", "http://127.0.0.1:9/openai"
	want.AnthropicToken = "http://127.0.0.1:9/anthropic"
	want.GeminiCodeAssist = "http://127.0.0.1:9/gemini"
	want.CallbackHost = "::1"
	want.GoogleCloudProject = "fallback-proj"
	if got != want {
		t.Errorf("endpoints =\n%+v\nwant\n%+v", got, want)
	}
	env["GOOGLE_CLOUD_PROJECT"] = "main-proj"
	if got := endpointsFrom(func(k string) string { return env[k] }); got.GoogleCloudProject != "main-proj" {
		t.Errorf("GOOGLE_CLOUD_PROJECT = %q; want it to win over GOOGLE_CLOUD_PROJECT_ID", got.GoogleCloudProject)
	}
	if got := (Endpoints{OpenAIAuth: "http://x/"}).withDefaults(); got.OpenAIAuth != "http://x" || got.GeminiBase != DefaultEndpoints().GeminiBase {
		t.Errorf("withDefaults = %+v", got)
	}
}

func TestParseOAuthError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body, code, desc string
	}{
		{`{"error":"invalid_grant","error_description":"Token has been expired or revoked."}`, "invalid_grant", "Token has been expired or revoked."},
		{`{"error":{"message":"used","type":"invalid_request_error","param":null,"code":"refresh_token_reused"}}`, "refresh_token_reused", "used"},
		{`{"error":{"code":401,"message":"bad","status":"UNAUTHENTICATED"}}`, "401", "bad"},
		{`{"code":"refresh_token_expired","message":"old"}`, "refresh_token_expired", "old"},
		{`<html>502</html>`, "", ""},
		{`{"error":"x","error_description":"` + strings.Repeat("long ", 100) + `"}`, "x", strings.Repeat("long ", 40)[:200] + "…"},
	}
	for _, tt := range tests {
		e := parseOAuthError(400, []byte(tt.body))
		if e.Code != tt.code || e.Description != tt.desc {
			t.Errorf("parseOAuthError(%s) = %q, %q; want %q, %q", tt.body, e.Code, e.Description, tt.code, tt.desc)
		}
	}
}

func TestRefreshErrorKinds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		kind error
		want string
	}{
		{&oauthError{Status: 400, Code: "invalid_grant"}, chat.ErrAuthRequired, "sign in to Gemini again: the saved sign-in has expired or was revoked"},
		{&oauthError{Status: 401, Code: "refresh_token_reused"}, chat.ErrAuthRequired, "sign in to Gemini again: the saved sign-in was already used"},
		{&oauthError{Status: 401, Code: "refresh_token_expired"}, chat.ErrAuthRequired, "has expired"},
		{&oauthError{Status: 401, Code: "refresh_token_invalidated"}, chat.ErrAuthRequired, "was revoked"},
		{&oauthError{Status: 401}, chat.ErrAuthRequired, "sign in to Gemini again"},
		{&oauthError{Status: 500, Code: "server_error"}, chat.ErrUnavailable, "HTTP 500 server_error"},
		{&oauthError{Status: 429}, chat.ErrUnavailable, "HTTP 429"},
		{errors.New("dial tcp: connection refused"), chat.ErrUnavailable, "could not reach the sign-in server"},
	}
	for _, tt := range tests {
		got := refreshError("Gemini", tt.err)
		if !errors.Is(got, tt.kind) || !strings.Contains(got.Error(), tt.want) {
			t.Errorf("refreshError(%v) = %v (%s); want %v containing %q", tt.err, got, chat.Kind(got), tt.kind, tt.want)
		}
	}
}

func TestChatGPTIDToken(t *testing.T) {
	t.Parallel()
	tok := fakes.JWT(map[string]any{
		"email": "a@b.c", "exp": 2000000000,
		"https://api.openai.com/auth": map[string]any{"chatgpt_account_id": "acc_1", "chatgpt_plan_type": "pro", "user_id": "u-legacy"},
	})
	id, err := parseChatGPTIDToken(tok)
	if err != nil || id != (chatGPTIdentity{Email: "a@b.c", AccountID: "acc_1", Plan: "pro", UserID: "u-legacy"}) {
		t.Errorf("parse = %+v, %v", id, err)
	}
	if got := jwtExpiry(tok); !got.Equal(time.Unix(2000000000, 0)) {
		t.Errorf("jwtExpiry = %v", got)
	}
	profile := fakes.JWT(map[string]any{"https://api.openai.com/profile": map[string]any{"email": "p@b.c"}})
	if id, _ := parseChatGPTIDToken(profile); id.Email != "p@b.c" {
		t.Errorf("email from the profile claim = %q", id.Email)
	}
	for _, bad := range []string{"", "a.b", "a.!!!.c", "a." + base64.RawURLEncoding.EncodeToString([]byte("[1]")) + ".c"} {
		if _, err := parseChatGPTIDToken(bad); err == nil {
			t.Errorf("parse(%q) = nil error", bad)
		} else if strings.Contains(err.Error(), bad) && bad != "" {
			t.Errorf("the error quotes the token: %v", err)
		}
		if !jwtExpiry(bad).IsZero() {
			t.Errorf("jwtExpiry(%q) not zero", bad)
		}
	}
}

func TestFormBodyOrder(t *testing.T) {
	t.Parallel()
	got := string(formBody([2]string{"z", "a b"}, [2]string{"a", "x+y/z&"}))
	if want := "z=a%20b&a=x%2By%2Fz%26"; got != want {
		t.Errorf("formBody = %q; want %q", got, want)
	}
}

func TestCallbackServerPaths(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envConfig{})
	lg, err := e.m.StartLogin(t.Context(), chat.ProviderGemini)
	if err != nil {
		t.Fatal(err)
	}
	redirect := queryOf(t, <-e.opened).Get("redirect_uri")
	base := strings.TrimSuffix(redirect, "/oauth2callback")
	for _, p := range []string{"/", "/favicon.ico", "/oauth2callback/x", "/success"} {
		status, _ := browse(t, base+p)
		if status != http.StatusNotFound {
			t.Errorf("GET %s = %d; want 404", p, status)
		}
	}
	// The page escapes what the provider sent.
	state := queryOf(t, lg.AuthURL).Get("state")
	status, page := browse(t, redirect+"?state="+state+"&error=x&error_description=%3Cscript%3Ealert(1)%3C/script%3E")
	if status != http.StatusOK || strings.Contains(page, "<script>") || !strings.Contains(page, "&lt;script&gt;") {
		t.Errorf("failure page = %d %q; want the description escaped", status, page)
	}
	if u := e.waitTerminal(lg.ID); u.Status != LoginFailed {
		t.Errorf("status = %s; want failed", u.Status)
	}
}

func TestWritePage(t *testing.T) {
	t.Parallel()
	w := httptest.NewRecorder()
	writePage(w, 200, true, "ChatGPT", "")
	if ct := w.Header().Get("Content-Type"); ct != "text/html; charset=utf-8" || !strings.Contains(w.Body.String(), "Signed in to ChatGPT") ||
		!strings.Contains(w.Body.String(), "return to Maestro") || w.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("page = %s %q", ct, w.Body.String())
	}
}
