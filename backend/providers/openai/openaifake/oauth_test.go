package openaifake

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"maestro/backend/providers/fakes"
)

const testVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"

var noFollow = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func authorizeQuery(redirect string, edit func(url.Values)) string {
	v := url.Values{
		"response_type": {"code"}, "client_id": {OAuthClientID}, "redirect_uri": {redirect},
		"scope": {"openid profile email offline_access"}, "code_challenge": {fakes.S256(testVerifier)},
		"code_challenge_method": {"S256"}, "id_token_add_organizations": {"true"}, "codex_cli_simplified_flow": {"true"},
		"state": {"st"}, "originator": {"maestro"},
	}
	if edit != nil {
		edit(v)
	}
	return v.Encode()
}

func TestOAuthAuthorize(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(New())
	defer srv.Close()
	const ok = "http://localhost:1455/auth/callback"
	tests := []struct {
		name      string
		edit      func(url.Values)
		status    int
		wantError string // error= in the redirect
	}{
		{"approved", nil, http.StatusFound, ""},
		{"fallback port", func(v url.Values) { v.Set("redirect_uri", "http://localhost:1457/auth/callback") }, http.StatusFound, ""},
		{"other port", func(v url.Values) { v.Set("redirect_uri", "http://localhost:1456/auth/callback") }, http.StatusBadRequest, ""},
		{"127.0.0.1", func(v url.Values) { v.Set("redirect_uri", "http://127.0.0.1:1455/auth/callback") }, http.StatusBadRequest, ""},
		{"unknown client", func(v url.Values) { v.Set("client_id", "x") }, http.StatusBadRequest, ""},
		{"no PKCE", func(v url.Values) { v.Del("code_challenge") }, http.StatusFound, "invalid_request"},
		{"plain PKCE", func(v url.Values) { v.Set("code_challenge_method", "plain") }, http.StatusFound, "invalid_request"},
		{"no offline_access", func(v url.Values) { v.Set("scope", "openid") }, http.StatusFound, "invalid_request"},
		{"no simplified flow", func(v url.Values) { v.Del("codex_cli_simplified_flow") }, http.StatusFound, "invalid_request"},
		{"no state", func(v url.Values) { v.Del("state") }, http.StatusFound, "invalid_request"},
	}
	for _, tt := range tests {
		resp, err := noFollow.Get(srv.URL + AuthorizePath + "?" + authorizeQuery(ok, tt.edit))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.status {
			t.Errorf("%s: status %d; want %d", tt.name, resp.StatusCode, tt.status)
			continue
		}
		if resp.StatusCode != http.StatusFound {
			continue
		}
		loc, _ := url.Parse(resp.Header.Get("Location"))
		q := loc.Query()
		if got := q.Get("error"); got != tt.wantError {
			t.Errorf("%s: error = %q; want %q", tt.name, got, tt.wantError)
		}
		if tt.wantError == "" && (q.Get("code") == "" || q.Get("state") != "st" || loc.Path != "/auth/callback") {
			t.Errorf("%s: Location %s; want the callback with code and state", tt.name, loc)
		}
	}

	wide := httptest.NewServer(New(WithOAuthAnyPort()))
	defer wide.Close()
	resp, err := noFollow.Get(wide.URL + AuthorizePath + "?" + authorizeQuery("http://localhost:40000/auth/callback", nil))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Errorf("WithOAuthAnyPort: status %d; want 302", resp.StatusCode)
	}
}

// code runs the authorize step and returns the code.
func code(t *testing.T, base, redirect string) string {
	t.Helper()
	resp, err := noFollow.Get(base + AuthorizePath + "?" + authorizeQuery(redirect, nil))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	return loc.Query().Get("code")
}

func postToken(t *testing.T, base, contentType, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(base+TokenPath, contentType, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v map[string]any
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("token answer %q: %v", b, err)
	}
	return resp.StatusCode, v
}

func claims(t *testing.T, jwt string) map[string]any {
	t.Helper()
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWT: %q", jwt)
	}
	b, _ := base64.RawURLEncoding.DecodeString(parts[1])
	var c map[string]any
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestOAuthTokenAndBackend(t *testing.T) {
	t.Parallel()
	s := New()
	srv := httptest.NewServer(s)
	defer srv.Close()
	const redirect = "http://localhost:1455/auth/callback"
	form := func(c, v string) string {
		return url.Values{"grant_type": {"authorization_code"}, "code": {c}, "redirect_uri": {redirect},
			"client_id": {OAuthClientID}, "code_verifier": {v}}.Encode()
	}

	// The exchange must be a form; JSON is refused.
	c := code(t, srv.URL, redirect)
	if st, v := postToken(t, srv.URL, "application/json", `{"grant_type":"authorization_code","client_id":"`+OAuthClientID+`","code":"`+c+`"}`); st != 400 || v["error"] != "invalid_request" {
		t.Errorf("JSON exchange = %d %v; want 400 invalid_request", st, v)
	}
	// PKCE mismatch.
	c = code(t, srv.URL, redirect)
	if st, v := postToken(t, srv.URL, "application/x-www-form-urlencoded", form(c, strings.Repeat("x", 43))); st != 400 || v["error"] != "invalid_grant" {
		t.Errorf("wrong verifier = %d %v; want 400 invalid_grant", st, v)
	}
	c = code(t, srv.URL, redirect)
	st, v := postToken(t, srv.URL, "application/x-www-form-urlencoded", form(c, testVerifier))
	if st != 200 || v["id_token"] == nil || v["access_token"] == nil || v["refresh_token"] == nil {
		t.Fatalf("exchange = %d %v", st, v)
	}
	id := claims(t, v["id_token"].(string))
	auth, _ := id[AuthClaim].(map[string]any)
	if id["email"] != DefaultSubject.Email || auth["chatgpt_account_id"] != DefaultSubject.AccountID ||
		auth["chatgpt_plan_type"] != "plus" || auth["chatgpt_user_id"] != DefaultSubject.UserID {
		t.Errorf("id_token claims = %v", id)
	}
	if claims(t, v["access_token"].(string))["exp"] == nil {
		t.Errorf("access token has no exp")
	}
	// The code is single-use.
	if st, v := postToken(t, srv.URL, "application/x-www-form-urlencoded", form(c, testVerifier)); st != 400 || v["error"] != "invalid_grant" {
		t.Errorf("code reuse = %d %v", st, v)
	}

	access, rt := v["access_token"].(string), v["refresh_token"].(string)
	model := func(tok, acct string) int {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+ChatGPTPath, strings.NewReader(string(body(nil))))
		req.Header = backendHeader()
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Chatgpt-Account-Id", acct)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := model(access, DefaultSubject.AccountID); got != 200 {
		t.Errorf("backend with the issued token = %d; want 200", got)
	}
	if got := model(access, "acc_other"); got != 403 {
		t.Errorf("backend with another account id = %d; want 403", got)
	}

	// Refresh (JSON, as Codex sends it) rotates; the old token is refused
	// with the real body.
	refresh := func(tok string) (int, map[string]any) {
		return postToken(t, srv.URL, "application/json",
			`{"client_id":"`+OAuthClientID+`","grant_type":"refresh_token","refresh_token":"`+tok+`"}`)
	}
	st, v2 := refresh(rt)
	if st != 200 || v2["refresh_token"] == rt || v2["access_token"] == nil || v2["id_token"] == nil {
		t.Fatalf("refresh = %d %v", st, v2)
	}
	st, v3 := refresh(rt)
	e, _ := v3["error"].(map[string]any)
	if st != 401 || e["code"] != "refresh_token_reused" {
		t.Errorf("reuse = %d %v; want 401 {\"error\":{\"code\":\"refresh_token_reused\"}}", st, v3)
	}

	// Expiring the tokens gives the backend's expired-token 401.
	s.OAuth().ExpireAll()
	if got := model(v2["access_token"].(string), DefaultSubject.AccountID); got != 401 {
		t.Errorf("backend with an expired token = %d; want 401", got)
	}
	reqs := s.Script.Requests()
	if last := reqs[len(reqs)-1]; last.Rejection != "bearer token must be current" {
		t.Errorf("last rejection = %q", last.Rejection)
	}
	// An unknown token passes by default, not with WithIssuedTokensOnly.
	if got := model("not-issued", DefaultSubject.AccountID); got != 200 {
		t.Errorf("unknown token = %d; want 200 by default", got)
	}
	strict := httptest.NewServer(New(WithIssuedTokensOnly()))
	defer strict.Close()
	req, _ := http.NewRequest(http.MethodPost, strict.URL+ChatGPTPath, strings.NewReader(string(body(nil))))
	req.Header = backendHeader()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Errorf("strict, unknown token = %d; want 401", resp.StatusCode)
	}
}
