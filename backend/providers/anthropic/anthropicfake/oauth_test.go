package anthropicfake

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"maestro/backend/providers/fakes"
)

const testVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"

var noFollow = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func authorizeURL(base, redirect string, edit func(url.Values)) string {
	v := url.Values{
		"code": {"true"}, "client_id": {OAuthClientID}, "response_type": {"code"}, "redirect_uri": {redirect},
		"scope": {"org:create_api_key user:profile user:inference"}, "code_challenge": {fakes.S256(testVerifier)},
		"code_challenge_method": {"S256"}, "state": {"st"},
	}
	if edit != nil {
		edit(v)
	}
	return base + AuthorizePath + "?" + v.Encode()
}

func TestOAuthAuthorize(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(New())
	defer srv.Close()
	tests := []struct {
		name     string
		redirect string
		edit     func(url.Values)
		status   int
	}{
		{"loopback, any port", "http://localhost:53124/callback", nil, http.StatusFound},
		{"manual on this host", srv.URL + ManualCallbackPath, nil, http.StatusFound},
		{"real manual page", "https://console.anthropic.com/oauth/code/callback", nil, http.StatusOK},
		{"127.0.0.1", "http://127.0.0.1:53124/callback", nil, http.StatusBadRequest},
		{"other path", "http://localhost:53124/auth/callback", nil, http.StatusBadRequest},
		{"no code=true", "http://localhost:1/callback", func(v url.Values) { v.Del("code") }, http.StatusBadRequest},
		{"no PKCE", "http://localhost:1/callback", func(v url.Values) { v.Del("code_challenge") }, http.StatusBadRequest},
		{"no state", "http://localhost:1/callback", func(v url.Values) { v.Del("state") }, http.StatusBadRequest},
		{"unknown client", "http://localhost:1/callback", func(v url.Values) { v.Set("client_id", "x") }, http.StatusBadRequest},
	}
	for _, tt := range tests {
		resp, err := noFollow.Get(authorizeURL(srv.URL, tt.redirect, tt.edit))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status {
			t.Errorf("%s: status %d; want %d (%s)", tt.name, resp.StatusCode, tt.status, b)
			continue
		}
		switch resp.StatusCode {
		case http.StatusFound:
			loc, _ := url.Parse(resp.Header.Get("Location"))
			if loc.Query().Get("code") == "" || loc.Query().Get("state") != "st" {
				t.Errorf("%s: Location %s; want code and state", tt.name, loc)
			}
		case http.StatusOK:
			if !regexp.MustCompile(`<pre id="code">code-[A-Z0-9]+#st</pre>`).Match(b) {
				t.Errorf("%s: page %q; want code#state", tt.name, b)
			}
		}
	}
	// The manual callback on the fake's own host shows code#state.
	resp, err := http.Get(authorizeURL(srv.URL, srv.URL+ManualCallbackPath, nil))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !regexp.MustCompile(`<pre id="code">code-[A-Z0-9]+#st</pre>`).Match(b) {
		t.Errorf("manual page = %q", b)
	}
}

func tokenCall(t *testing.T, base, ct, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(base+TokenPath, ct, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&v)
	return resp.StatusCode, v
}

func TestOAuthToken(t *testing.T) {
	t.Parallel()
	s := New()
	srv := httptest.NewServer(s)
	defer srv.Close()
	const redirect = "http://localhost:5000/callback"
	newCode := func() string {
		resp, err := noFollow.Get(authorizeURL(srv.URL, redirect, nil))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		loc, _ := url.Parse(resp.Header.Get("Location"))
		return loc.Query().Get("code")
	}
	exchange := func(code, state, verifier string) (int, map[string]any) {
		b, _ := json.Marshal(map[string]string{"grant_type": "authorization_code", "code": code, "state": state,
			"client_id": OAuthClientID, "redirect_uri": redirect, "code_verifier": verifier})
		return tokenCall(t, srv.URL, "application/json", string(b))
	}
	if st, v := exchange(newCode(), "", testVerifier); st != 400 || v["error"] != "invalid_request" {
		t.Errorf("missing state = %d %v; want 400 invalid_request", st, v)
	}
	if st, v := exchange(newCode(), "other", testVerifier); st != 400 || v["error"] != "invalid_grant" {
		t.Errorf("wrong state = %d %v; want 400 invalid_grant", st, v)
	}
	if st, v := exchange(newCode(), "st", strings.Repeat("z", 43)); st != 400 || v["error"] != "invalid_grant" {
		t.Errorf("wrong verifier = %d %v; want 400 invalid_grant", st, v)
	}
	st, v := exchange(newCode(), "st", testVerifier)
	acct, _ := v["account"].(map[string]any)
	org, _ := v["organization"].(map[string]any)
	at, _ := v["access_token"].(string)
	if st != 200 || !strings.HasPrefix(at, "sk-ant-oat01-") || acct["email_address"] != DefaultSubject.Email ||
		org["name"] != DefaultSubject.OrgName || v["expires_in"] == nil {
		t.Fatalf("exchange = %d %v", st, v)
	}
	rt := v["refresh_token"].(string)
	refresh := func(tok string) (int, map[string]any) {
		return tokenCall(t, srv.URL, "application/json",
			`{"grant_type":"refresh_token","refresh_token":"`+tok+`","client_id":"`+OAuthClientID+`"}`)
	}
	st, v2 := refresh(rt)
	if st != 200 || v2["refresh_token"] == rt {
		t.Fatalf("refresh = %d %v; want a rotated refresh token", st, v2)
	}
	if st, v := refresh(rt); st != 400 || v["error"] != "invalid_grant" {
		t.Errorf("reuse = %d %v; want 400 invalid_grant", st, v)
	}
	// The form-encoded refresh some clients send works too.
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {v2["refresh_token"].(string)}, "client_id": {OAuthClientID}}
	if st, v := tokenCall(t, srv.URL, "application/x-www-form-urlencoded", form.Encode()); st != 200 {
		t.Errorf("form refresh = %d %v", st, v)
	}

	// /v1/messages: the issued token works until it expires.
	messages := func(tok string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/messages?beta=true", strings.NewReader(validBody(nil)))
		req.Header.Set("authorization", "Bearer "+tok)
		req.Header.Set("anthropic-version", "2023-06-01")
		req.Header.Set("anthropic-beta", BetaOAuth)
		req.Header.Set("content-type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if st, b := messages(at); st != 200 {
		t.Fatalf("messages with the issued token = %d %s", st, b)
	}
	s.OAuth().ExpireAll()
	if st, b := messages(at); st != 401 || !strings.Contains(b, MsgTokenExpired) || !strings.Contains(b, "authentication_error") {
		t.Errorf("messages with an expired token = %d %s; want the real 401", st, b)
	}
}
