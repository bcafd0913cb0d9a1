package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"maestro/backend/chat"
)

// refreshingServer is a protected resource (/mcp) with its authorization
// server, whose tokens carry refresh tokens: it counts the grants it
// answers, can revoke access tokens and refuse refreshes.
type refreshingServer struct {
	*httptest.Server
	ttl int // expires_in of each token

	mu         sync.Mutex
	live       map[string]bool // access tokens /mcp accepts
	refreshes  map[string]bool // refresh tokens /token accepts
	grants     map[string]int  // grant_type → count
	refuseNext bool            // the next refresh gets invalid_grant
	n          int
}

func newRefreshingServer(t *testing.T, ttl int) *refreshingServer {
	t.Helper()
	s := &refreshingServer{ttl: ttl, live: map[string]bool{}, refreshes: map[string]bool{}, grants: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		ok := s.live[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
		s.mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer scope="read"`)
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		b, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "ok %s", b)
	})
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"resource": s.URL + "/mcp", "authorization_servers": []string{s.URL}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{
			"issuer": s.URL, "authorization_endpoint": s.URL + "/authorize", "token_endpoint": s.URL + "/token",
			"registration_endpoint": s.URL + "/register", "code_challenge_methods_supported": []string{"S256"},
		})
	})
	mux.HandleFunc("/register", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
		writeJSON(w, map[string]any{"client_id": "client-1", "token_endpoint_auth_method": "none"})
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		u, _ := url.Parse(r.URL.Query().Get("redirect_uri"))
		u.RawQuery = url.Values{"code": {"code-1"}, "state": {r.URL.Query().Get("state")}}.Encode()
		http.Redirect(w, r, u.String(), http.StatusFound)
	})
	mux.HandleFunc("/token", s.token)
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

func (s *refreshingServer) token(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	s.mu.Lock()
	defer s.mu.Unlock()
	grant := r.PostForm.Get("grant_type")
	s.grants[grant]++
	if grant == "refresh_token" {
		rt := r.PostForm.Get("refresh_token")
		if s.refuseNext || !s.refreshes[rt] || r.PostForm.Get("resource") != s.URL+"/mcp" {
			s.refuseNext = false
			w.WriteHeader(http.StatusBadRequest)
			writeJSON(w, map[string]any{"error": "invalid_grant"})
			return
		}
		delete(s.refreshes, rt) // single use: the answer rotates it
	}
	s.n++
	at, rt := fmt.Sprintf("at-%d", s.n), fmt.Sprintf("rt-%d", s.n)
	s.live[at], s.refreshes[rt] = true, true
	writeJSON(w, map[string]any{"access_token": at, "refresh_token": rt, "token_type": "Bearer", "expires_in": s.ttl})
}

func (s *refreshingServer) revokeAccess() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.live)
}

func (s *refreshingServer) count(grant string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.grants[grant]
}

// oauthClientFor is an HTTP client that signs in to srv as a connector
// would, keeping the sign-in in secrets.
func oauthClientFor(t *testing.T, srv *refreshingServer, secrets SecretStore, inline bool) (*http.Client, *oauthState) {
	t.Helper()
	sup := NewSupervisor(WithSecrets(secrets), WithAuthorizer(&testAuthorizer{}, inline))
	t.Cleanup(func() { _ = sup.Close() })
	st := newOAuthState(sup, "c1")
	t.Cleanup(st.wait)
	cfg := Connector{Name: "Secured", Transport: TransportHTTP, URL: srv.URL + "/mcp", OAuth: &OAuthConfig{}}
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: st.roundTripper(tr, cfg)}, st
}

func post(t *testing.T, hc *http.Client, u, body string) (string, error) {
	t.Helper()
	resp, err := hc.Post(u, "text/plain", strings.NewReader(body))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b), nil
}

func savedRecord(t *testing.T, secrets SecretStore) savedOAuth {
	t.Helper()
	raw, err := secrets.Get(t.Context(), oauthAccount("c1"))
	if err != nil {
		t.Fatal(err)
	}
	var saved savedOAuth
	if err := json.Unmarshal([]byte(raw), &saved); err != nil || saved.Token == nil {
		t.Fatalf("record %s: %v", raw, err)
	}
	return saved
}

// seed keeps a sign-in with access token at (live on srv), refresh token
// rt and expiry in secrets, as an earlier run would have.
func seed(t *testing.T, srv *refreshingServer, secrets SecretStore, at, rt string, expiry time.Time) {
	t.Helper()
	srv.mu.Lock()
	srv.live[at] = true
	if rt != "" {
		srv.refreshes[rt] = true
	}
	srv.mu.Unlock()
	rec := savedOAuth{
		Token: &tokenRecord{AccessToken: at, RefreshToken: rt, Expiry: expiry, Scope: "read",
			TokenEndpoint: srv.URL + "/token", Resource: srv.URL + "/mcp"},
		Client: &oauthClient{Issuer: srv.URL, ClientID: "client-1", AuthMethod: "none"},
	}
	b, _ := json.Marshal(rec)
	if err := secrets.Set(context.Background(), oauthAccount("c1"), string(b)); err != nil {
		t.Fatal(err)
	}
}

// TestOAuthRefreshesAheadAndAfter401: a saved token about to expire is
// refreshed before the request, a revoked one after its 401 (the request
// replayed with its body), and every rotated refresh token is saved whole
// with what the record knew (scope, endpoint, resource, client). No
// sign-in happens.
func TestOAuthRefreshesAheadAndAfter401(t *testing.T) {
	t.Parallel()
	srv := newRefreshingServer(t, 3600)
	secrets := NewMemorySecrets()
	seed(t, srv, secrets, "at-old", "rt-old", time.Now().Add(2*time.Minute))
	hc, _ := oauthClientFor(t, srv, secrets, true)
	if got, err := post(t, hc, srv.URL+"/mcp", "one"); err != nil || got != "ok one" {
		t.Fatalf("first request: %q, %v", got, err)
	}
	if n := srv.count("refresh_token"); n != 1 {
		t.Errorf("refreshes = %d, want 1 ahead of expiry", n)
	}
	if saved := savedRecord(t, secrets); saved.Token.AccessToken != "at-1" || saved.Token.RefreshToken != "rt-1" {
		t.Errorf("saved token = %+v, want the refreshed one", saved.Token)
	}
	srv.revokeAccess()
	if got, err := post(t, hc, srv.URL+"/mcp", "two"); err != nil || got != "ok two" {
		t.Fatalf("after revocation: %q, %v", got, err)
	}
	if got, err := post(t, hc, srv.URL+"/mcp", "three"); err != nil || got != "ok three" {
		t.Fatalf("third request: %q, %v", got, err)
	}
	saved := savedRecord(t, secrets)
	if saved.Token.AccessToken != "at-2" || saved.Token.RefreshToken != "rt-2" {
		t.Errorf("saved token = %+v, want the second, rotated", saved.Token)
	}
	if saved.Token.Scope != "read" || saved.Token.Resource != srv.URL+"/mcp" || saved.Token.TokenEndpoint != srv.URL+"/token" ||
		saved.Client == nil || saved.Client.ClientID != "client-1" {
		t.Errorf("saved record lost what it knew: %+v, client %+v", saved.Token, saved.Client)
	}
	if n, m := srv.count("refresh_token"), srv.count("authorization_code"); n != 2 || m != 0 {
		t.Errorf("%d refreshes and %d sign-ins, want 2 and 0", n, m)
	}
}

// TestOAuthFreshSignInIsNotRefreshedAtOnce: a token just granted for a
// short time is used for half its life before it is refreshed.
func TestOAuthFreshSignInIsNotRefreshedAtOnce(t *testing.T) {
	t.Parallel()
	srv := newRefreshingServer(t, 60) // shorter than auth.RefreshEarly
	secrets := NewMemorySecrets()
	hc, _ := oauthClientFor(t, srv, secrets, true)
	for _, body := range []string{"one", "two"} {
		if got, err := post(t, hc, srv.URL+"/mcp", body); err != nil || got != "ok "+body {
			t.Fatalf("request %s: %q, %v", body, got, err)
		}
	}
	if n, m := srv.count("refresh_token"), srv.count("authorization_code"); n != 0 || m != 1 {
		t.Errorf("%d refreshes and %d sign-ins, want 0 and 1", n, m)
	}
	if saved := savedRecord(t, secrets); saved.Token.AccessToken != "at-1" || saved.Token.Scope != "read" {
		t.Errorf("saved token = %+v", saved.Token)
	}
}

// TestOAuthRefusedRefreshAsksForSignIn: when the refresh token is refused
// the request goes out without a token and the server's challenge leads
// to a sign-in (inline), or to chat.ErrAuthRequired (not inline).
func TestOAuthRefusedRefreshAsksForSignIn(t *testing.T) {
	t.Parallel()
	for _, inline := range []bool{true, false} {
		t.Run(fmt.Sprint("inline=", inline), func(t *testing.T) {
			t.Parallel()
			srv := newRefreshingServer(t, 3600)
			secrets := NewMemorySecrets()
			// Signed in before: the record is in the keychain.
			hc, _ := oauthClientFor(t, srv, secrets, true)
			if _, err := post(t, hc, srv.URL+"/mcp", "x"); err != nil {
				t.Fatal(err)
			}
			hc, _ = oauthClientFor(t, srv, secrets, inline)
			srv.revokeAccess()
			srv.mu.Lock()
			srv.refuseNext = true
			srv.mu.Unlock()
			got, err := post(t, hc, srv.URL+"/mcp", "y")
			if inline {
				if err != nil || got != "ok y" || srv.count("authorization_code") != 2 {
					t.Errorf("got %q, %v after %d sign-ins; want a new sign-in", got, err, srv.count("authorization_code"))
				}
				return
			}
			if !errors.Is(err, chat.ErrAuthRequired) {
				t.Errorf("err = %v, want ErrAuthRequired", err)
			}
		})
	}
}

// TestOAuthTokenWithoutRefreshTokenLastsUntilExpiry: a token that cannot
// be renewed is still sent inside the refresh-early window.
func TestOAuthTokenWithoutRefreshTokenLastsUntilExpiry(t *testing.T) {
	t.Parallel()
	srv := newRefreshingServer(t, 3600)
	secrets := NewMemorySecrets()
	seed(t, srv, secrets, "at-old", "", time.Now().Add(2*time.Minute))
	hc, _ := oauthClientFor(t, srv, secrets, false)
	if got, err := post(t, hc, srv.URL+"/mcp", "z"); err != nil || got != "ok z" {
		t.Fatalf("got %q, %v; want the saved token used", got, err)
	}
	if n := srv.count("refresh_token") + srv.count("authorization_code"); n != 0 {
		t.Errorf("%d token requests, want none", n)
	}
}
