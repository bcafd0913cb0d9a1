package geminifake

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"maestro/backend/providers/fakes"
)

const oauthVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"

var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func consentURL(base string, edit func(url.Values)) string {
	v := url.Values{
		"redirect_uri": {"http://127.0.0.1:4321/oauth2callback"}, "access_type": {"offline"},
		"scope": {scopeCloud + " https://www.googleapis.com/auth/userinfo.email"},
		"state": {"st"}, "response_type": {"code"}, "client_id": {OAuthClientID},
		"code_challenge_method": {"S256"}, "code_challenge": {fakes.S256(oauthVerifier)},
	}
	if edit != nil {
		edit(v)
	}
	return base + AuthorizePath + "?" + v.Encode()
}

// googleCode runs the consent step and returns the code ("" if refused).
func googleCode(t *testing.T, base string, edit func(url.Values)) (int, string) {
	t.Helper()
	resp, err := noRedirects.Get(consentURL(base, edit))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if loc == nil {
		return resp.StatusCode, ""
	}
	return resp.StatusCode, loc.Query().Get("code")
}

func tokenForm(t *testing.T, base, ct string, v url.Values) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(base+TokenPath, ct, strings.NewReader(v.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func exchangeForm(code string) url.Values {
	return url.Values{"code": {code}, "client_id": {OAuthClientID}, "redirect_uri": {"http://127.0.0.1:4321/oauth2callback"},
		"grant_type": {"authorization_code"}, "code_verifier": {oauthVerifier}, "client_secret": {OAuthClientSecret}}
}

const formType = "application/x-www-form-urlencoded"

func TestGoogleConsent(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(New())
	defer srv.Close()
	tests := []struct {
		name   string
		edit   func(url.Values)
		status int
	}{
		{"approved", nil, http.StatusFound},
		{"localhost", func(v url.Values) { v.Set("redirect_uri", "http://localhost:1/x") }, http.StatusFound},
		{"not loopback", func(v url.Values) { v.Set("redirect_uri", "http://example.com:1/oauth2callback") }, http.StatusBadRequest},
		{"no port", func(v url.Values) { v.Set("redirect_uri", "http://127.0.0.1/oauth2callback") }, http.StatusBadRequest},
		{"unknown client", func(v url.Values) { v.Set("client_id", "x") }, http.StatusUnauthorized},
		{"no cloud-platform", func(v url.Values) { v.Set("scope", "email") }, http.StatusBadRequest},
		{"no PKCE", func(v url.Values) { v.Del("code_challenge") }, http.StatusBadRequest},
	}
	for _, tt := range tests {
		if st, _ := googleCode(t, srv.URL, tt.edit); st != tt.status {
			t.Errorf("%s: status %d; want %d", tt.name, st, tt.status)
		}
	}
}

func TestGoogleToken(t *testing.T) {
	t.Parallel()
	s := New()
	srv := httptest.NewServer(s)
	defer srv.Close()

	_, c := googleCode(t, srv.URL, nil)
	if st, v := tokenForm(t, srv.URL, "application/json", exchangeForm(c)); st != 400 || v["error"] != "invalid_request" {
		t.Errorf("non-form = %d %v", st, v)
	}
	noSecret := exchangeForm(c)
	noSecret.Del("client_secret")
	if st, v := tokenForm(t, srv.URL, formType, noSecret); st != 400 || v["error_description"] != "client_secret is missing." {
		t.Errorf("no secret = %d %v", st, v)
	}
	bad := exchangeForm(c)
	bad.Set("client_secret", "nope")
	if st, v := tokenForm(t, srv.URL, formType, bad); st != 401 || v["error"] != "invalid_client" {
		t.Errorf("wrong secret = %d %v", st, v)
	}
	_, c = googleCode(t, srv.URL, nil)
	st, v := tokenForm(t, srv.URL, formType, exchangeForm(c))
	at, _ := v["access_token"].(string)
	rt, _ := v["refresh_token"].(string)
	if st != 200 || !strings.HasPrefix(at, "ya29.") || !strings.HasPrefix(rt, "1//") || v["token_type"] != "Bearer" || v["expires_in"] == nil {
		t.Fatalf("exchange = %d %v", st, v)
	}
	// Without access_type=offline there is no refresh token.
	_, c = googleCode(t, srv.URL, func(v url.Values) { v.Del("access_type") })
	if _, v := tokenForm(t, srv.URL, formType, exchangeForm(c)); v["refresh_token"] != nil {
		t.Errorf("online access got a refresh token")
	}

	refresh := url.Values{"refresh_token": {rt}, "client_id": {OAuthClientID}, "client_secret": {OAuthClientSecret}, "grant_type": {"refresh_token"}}
	st, v = tokenForm(t, srv.URL, formType, refresh)
	if st != 200 || v["access_token"] == nil || v["refresh_token"] != nil {
		t.Errorf("refresh = %d %v; want a new access token and no refresh token", st, v)
	}
	refresh.Set("refresh_token", "1//bogus")
	if st, v := tokenForm(t, srv.URL, formType, refresh); st != 400 || v["error"] != "invalid_grant" ||
		v["error_description"] != "Token has been expired or revoked." {
		t.Errorf("bad refresh = %d %v", st, v)
	}

	// userinfo
	get := func(path, tok string) (int, map[string]any) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	if st, v := get(UserinfoPath, at); st != 200 || v["email"] != DefaultSubject.Email {
		t.Errorf("userinfo = %d %v", st, v)
	}
	if st, _ := get(UserinfoPath, ""); st != 401 {
		t.Errorf("userinfo without a token = %d; want 401", st)
	}
	s.OAuth().ExpireAll()
	if st, v := get(UserinfoPath, at); st != 401 || v["error"].(map[string]any)["status"] != "UNAUTHENTICATED" {
		t.Errorf("userinfo with an expired token = %d %v", st, v)
	}

	rot := httptest.NewServer(New(WithRefreshRotation()))
	defer rot.Close()
	_, c = googleCode(t, rot.URL, nil)
	_, v = tokenForm(t, rot.URL, formType, exchangeForm(c))
	refresh.Set("refresh_token", v["refresh_token"].(string))
	if _, v := tokenForm(t, rot.URL, formType, refresh); v["refresh_token"] == nil {
		t.Errorf("WithRefreshRotation: no new refresh token")
	}
	if st, _ := tokenForm(t, rot.URL, formType, refresh); st != 400 {
		t.Errorf("WithRefreshRotation reuse = %d; want 400", st)
	}
}

func setupCall(t *testing.T, base, method, path, tok, body string) (int, map[string]any, string) {
	t.Helper()
	req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return resp.StatusCode, out, string(b)
}

const md = `"metadata":{"ideType":"IDE_UNSPECIFIED","platform":"PLATFORM_UNSPECIFIED","pluginType":"GEMINI"}`

func TestCodeAssistFreeOnboarding(t *testing.T) {
	t.Parallel()
	s := New(WithOnboardPolls(2), WithManagedProject("managed-1"))
	srv := httptest.NewServer(s)
	defer srv.Close()
	tok := s.OAuth().Issue(OAuthClientID, DefaultSubject, "").Access

	st, load, _ := setupCall(t, srv.URL, "POST", LoadCodeAssistPath, tok, "{"+md+"}")
	if st != 200 || load["currentTier"] != nil || len(load["allowedTiers"].([]any)) != 2 {
		t.Fatalf("load = %d %v; want a new user offered the free tier", st, load)
	}
	// The free tier takes no project.
	st, _, body := setupCall(t, srv.URL, "POST", OnboardUserPath, tok,
		`{"tierId":"free-tier","cloudaicompanionProject":"p",`+strings.Replace(md, `}`, `,"duetProject":"p"}`, 1)+`}`)
	if st != 400 || !strings.Contains(body, "FAILED_PRECONDITION") || !strings.HasPrefix(strings.TrimSpace(body), "[") {
		t.Errorf("free tier with a project = %d %s; want the array-wrapped 400 FAILED_PRECONDITION", st, body)
	}
	st, op, _ := setupCall(t, srv.URL, "POST", OnboardUserPath, tok, `{"tierId":"free-tier",`+md+`}`)
	if st != 200 || op["done"] != false || op["name"] != "operations/onboard-1" {
		t.Fatalf("onboard = %d %v; want a pending operation", st, op)
	}
	for i, wantDone := range []bool{false, true} {
		_, op, _ = setupCall(t, srv.URL, "GET", "/v1internal/operations/onboard-1", tok, "")
		if op["done"] != wantDone {
			t.Errorf("poll %d: done = %v; want %v", i+1, op["done"], wantDone)
		}
	}
	proj := op["response"].(map[string]any)["cloudaicompanionProject"].(map[string]any)
	if proj["id"] != "managed-1" {
		t.Errorf("operation response = %v", op)
	}
	_, load, _ = setupCall(t, srv.URL, "POST", LoadCodeAssistPath, tok, "{"+md+"}")
	if load["cloudaicompanionProject"] != "managed-1" || load["currentTier"] == nil {
		t.Errorf("load after onboarding = %v; want the current tier and project", load)
	}
	if st, _, _ := setupCall(t, srv.URL, "GET", "/v1internal/operations/nope", tok, ""); st != 404 {
		t.Errorf("unknown operation = %d; want 404", st)
	}
	if st, _, _ := setupCall(t, srv.URL, "POST", LoadCodeAssistPath, tok, `{"metadata":{}}`); st != 400 {
		t.Errorf("load without metadata = %d; want 400", st)
	}
	if n := len(s.CodeAssistRequests()); n != 8 {
		t.Errorf("logged %d setup calls; want 8", n)
	}

	// The control endpoint switches the scenario and forgets the onboarding.
	resp, err := http.Post(srv.URL+"/_fake/codeassist", "application/json", strings.NewReader(`{"scenario":"validation"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	_, load, _ = setupCall(t, srv.URL, "POST", LoadCodeAssistPath, tok, "{"+md+"}")
	inel, _ := load["ineligibleTiers"].([]any)
	if len(inel) != 1 || inel[0].(map[string]any)["validationUrl"] != ValidationURL {
		t.Errorf("validation scenario load = %v", load)
	}

	// An expired token gets Google's 401, and so does the model endpoint.
	s.OAuth().ExpireAll()
	if st, _, _ := setupCall(t, srv.URL, "POST", LoadCodeAssistPath, tok, "{"+md+"}"); st != 401 {
		t.Errorf("load with an expired token = %d; want 401", st)
	}
	st, _, body = setupCall(t, srv.URL, "POST", CodeAssistPath+"?alt=sse", tok, `{}`)
	if st != 401 || !strings.Contains(body, "ACCESS_TOKEN_EXPIRED") {
		t.Errorf("model with an expired token = %d %s", st, body)
	}
}
