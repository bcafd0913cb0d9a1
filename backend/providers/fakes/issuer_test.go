package fakes

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"

func TestS256(t *testing.T) {
	t.Parallel()
	// RFC 7636 appendix B.
	if got := S256(verifier); got != "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM" {
		t.Errorf("S256 = %q", got)
	}
}

func TestRedeem(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	is := NewIssuer(Config{Now: func() time.Time { return now }})
	grant := Grant{ClientID: "c", RedirectURI: "http://localhost:1/cb", Challenge: S256(verifier), State: "s"}
	tests := []struct {
		name                string
		client, redirect, v string
		code                string // "" = fresh code
		after               time.Duration
		want                string
	}{
		{name: "ok", client: "c", redirect: grant.RedirectURI, v: verifier},
		{name: "wrong verifier", client: "c", redirect: grant.RedirectURI, v: strings.Repeat("a", 43), want: CodeInvalidGrant},
		{name: "short verifier", client: "c", redirect: grant.RedirectURI, v: "abc", want: CodeInvalidGrant},
		{name: "no verifier", client: "c", redirect: grant.RedirectURI, want: CodeInvalidRequest},
		{name: "other client", client: "d", redirect: grant.RedirectURI, v: verifier, want: CodeInvalidGrant},
		{name: "other redirect", client: "c", redirect: "http://localhost:2/cb", v: verifier, want: CodeInvalidGrant},
		{name: "unknown code", code: "nope", client: "c", redirect: grant.RedirectURI, v: verifier, want: CodeInvalidGrant},
		{name: "expired code", after: 11 * time.Minute, client: "c", redirect: grant.RedirectURI, v: verifier, want: CodeInvalidGrant},
	}
	for _, tt := range tests {
		code := tt.code
		if code == "" {
			code = is.Authorize(grant)
		}
		is.cfg.Now = func() time.Time { return now.Add(tt.after) }
		g, err := is.Redeem(code, tt.client, tt.redirect, tt.v)
		is.cfg.Now = func() time.Time { return now }
		switch {
		case tt.want == "" && (err != nil || g.State != "s"):
			t.Errorf("%s: Redeem = %+v, %v; want the grant", tt.name, g, err)
		case tt.want != "" && (err == nil || err.Code != tt.want):
			t.Errorf("%s: Redeem err = %v; want %s", tt.name, err, tt.want)
		}
		if tt.want == "" {
			if _, err := is.Redeem(code, tt.client, tt.redirect, tt.v); err == nil || err.Code != CodeInvalidGrant {
				t.Errorf("%s: a code redeemed twice: %v", tt.name, err)
			}
		}
	}
}

func TestRefreshRotation(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := now
	is := NewIssuer(Config{Rotate: true, AccessTTL: time.Minute, Now: func() time.Time { return clock }})
	t1 := is.Issue("c", Subject{Email: "a@b"}, "s")
	if _, st := is.Check(t1.Access); st != Valid {
		t.Errorf("new access token: %v; want Valid", st)
	}
	t2, err := is.Refresh(t1.Refresh, "c")
	if err != nil || t2.Refresh == "" || t2.Refresh == t1.Refresh || t2.Access == t1.Access || t2.Subject.Email != "a@b" {
		t.Fatalf("Refresh = %+v, %v; want new tokens for the same subject", t2, err)
	}
	if _, err := is.Refresh(t1.Refresh, "c"); err == nil || err.Code != CodeRefreshReused {
		t.Errorf("reuse: %v; want %s", err, CodeRefreshReused)
	}
	if _, err := is.Refresh(t2.Refresh, "other"); err == nil || err.Code != CodeInvalidGrant {
		t.Errorf("other client: %v", err)
	}
	clock = now.Add(2 * time.Minute)
	if _, st := is.Check(t2.Access); st != Expired {
		t.Errorf("after its TTL: %v; want Expired", st)
	}
	if _, st := is.Check("never-issued"); st != Unknown {
		t.Errorf("unknown: %v", st)
	}
	t3, _ := is.Refresh(t2.Refresh, "c")
	is.ExpireAll()
	if _, st := is.Check(t3.Access); st != Expired {
		t.Errorf("after ExpireAll: %v", st)
	}
	is.RevokeAll()
	if _, err := is.Refresh(t3.Refresh, "c"); err == nil || err.Code != CodeRefreshRevoked {
		t.Errorf("after RevokeAll: %v; want %s", err, CodeRefreshRevoked)
	}
	if s := is.Stats(); s.Refreshes != 5 || s.Live != 0 {
		t.Errorf("stats = %+v", s)
	}
	if n := len(is.Secrets()); n != 6 {
		t.Errorf("secrets = %d; want 3 access + 3 refresh", n)
	}

	keep := NewIssuer(Config{})
	k1 := keep.Issue("c", Subject{}, "")
	k2, err := keep.Refresh(k1.Refresh, "c")
	if err != nil || k2.Refresh != "" {
		t.Errorf("non-rotating refresh = %+v, %v; want no new refresh token", k2, err)
	}
	if _, err := keep.Refresh(k1.Refresh, "c"); err != nil {
		t.Errorf("non-rotating reuse = %v; want it accepted", err)
	}
}

func TestJWT(t *testing.T) {
	t.Parallel()
	tok := JWT(map[string]any{"exp": 5, "email": "a@b"})
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("JWT = %q", tok)
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	var claims map[string]any
	if err != nil || json.Unmarshal(b, &claims) != nil || claims["email"] != "a@b" {
		t.Errorf("claims = %s, %v", b, err)
	}
}

func TestControlHandler(t *testing.T) {
	t.Parallel()
	is := NewIssuer(Config{Rotate: true})
	srv := httptest.NewServer(is.ControlHandler())
	defer srv.Close()
	tok := is.Issue("c", Subject{}, "")
	for _, p := range []string{"expire", "revoke"} {
		resp, err := http.Post(srv.URL+ControlPrefix+p, "", nil)
		if err != nil || resp.StatusCode != http.StatusNoContent {
			t.Fatalf("POST %s = %v, %v", p, resp, err)
		}
		resp.Body.Close()
	}
	if _, st := is.Check(tok.Access); st != Expired {
		t.Errorf("after expire: %v", st)
	}
	resp, err := http.Post(srv.URL+ControlPrefix+"config", "application/json", strings.NewReader(`{"accessTokenTTLSeconds":7}`))
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("config = %v, %v", resp, err)
	}
	resp.Body.Close()
	if t2 := is.Issue("c", Subject{}, ""); t2.ExpiresIn != 7 {
		t.Errorf("ExpiresIn = %d; want 7", t2.ExpiresIn)
	}
	resp, err = http.Get(srv.URL + ControlPrefix + "state")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st Stats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil || st.Live != 1 {
		t.Errorf("state = %+v, %v", st, err)
	}
}
