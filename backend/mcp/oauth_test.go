package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"maestro/backend/chat"
	"maestro/backend/tools"
)

// authServer is an MCP server behind OAuth, with its own authorization
// server on the same origin: tools need the scope "read", the tool
// "admin" needs "write" too (a 403 insufficient_scope asks for it).
type authServer struct {
	*httptest.Server
	mu         sync.Mutex
	challenge  string            // PKCE challenge of the last authorization
	tokens     map[string]string // token → scopes
	authorized []url.Values      // authorization requests
	calls      atomic.Int32      // tools/call requests that reached the MCP server
}

func newAuthServer(t *testing.T) *authServer {
	t.Helper()
	a := &authServer{tokens: map[string]string{}}
	srv := server.NewMCPServer("secured", "1.0.0", server.WithToolCapabilities(true))
	for _, name := range []string{"whoami", "admin"} {
		srv.AddTool(mcpgo.NewTool(name), func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			a.calls.Add(1)
			return mcpgo.NewToolResultText("ok " + req.Params.Name), nil
		})
	}
	mcpHandler := server.NewStreamableHTTPServer(srv)
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		base := a.URL
		prm := fmt.Sprintf(`resource_metadata="%s/.well-known/oauth-protected-resource/mcp"`, base)
		a.mu.Lock()
		scopes, ok := a.tokens[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
		a.mu.Unlock()
		if !ok || !strings.Contains(scopes, "read") {
			w.Header().Set("WWW-Authenticate", `Bearer scope="read", `+prm)
			http.Error(w, `{"error":"invalid_token"}`, http.StatusUnauthorized)
			return
		}
		if r.Method == http.MethodPost {
			body, _ := readAll(r)
			if strings.Contains(body, `"tools/call"`) && strings.Contains(body, `"admin"`) && !strings.Contains(scopes, "write") {
				w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="read write", `+prm)
				http.Error(w, `{"error":"insufficient_scope"}`, http.StatusForbidden)
				return
			}
			r.Body = ioNopCloser(body)
		}
		mcpHandler.ServeHTTP(w, r)
	})
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"resource": a.URL + "/mcp", "authorization_servers": []string{a.URL}, "scopes_supported": []string{"read"}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{
			"issuer": a.URL, "authorization_endpoint": a.URL + "/authorize", "token_endpoint": a.URL + "/token",
			"registration_endpoint": a.URL + "/register", "code_challenge_methods_supported": []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"none"},
		})
	})
	mux.HandleFunc("/register", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
		writeJSON(w, map[string]any{"client_id": "client-1", "token_endpoint_auth_method": "none"})
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		a.mu.Lock()
		a.authorized = append(a.authorized, q)
		a.challenge = q.Get("code_challenge") + " " + q.Get("scope")
		a.mu.Unlock()
		u, _ := url.Parse(q.Get("redirect_uri"))
		u.RawQuery = url.Values{"code": {"code-1"}, "state": {q.Get("state")}}.Encode()
		http.Redirect(w, r, u.String(), http.StatusFound)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		a.mu.Lock()
		defer a.mu.Unlock()
		challenge, scope, _ := strings.Cut(a.challenge, " ")
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if base64.RawURLEncoding.EncodeToString(sum[:]) != challenge || r.PostForm.Get("resource") != a.URL+"/mcp" {
			w.WriteHeader(http.StatusBadRequest)
			writeJSON(w, map[string]any{"error": "invalid_grant"})
			return
		}
		tok := fmt.Sprintf("token-%d", len(a.tokens)+1)
		a.tokens[tok] = scope
		writeJSON(w, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600, "scope": scope})
	})
	a.Server = httptest.NewServer(mux)
	t.Cleanup(a.Close)
	return a
}

func (a *authServer) scopesAsked() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	for _, q := range a.authorized {
		out = append(out, q.Get("scope"))
	}
	return out
}

// testAuthorizer signs in without a browser, as the conformance client
// does: it follows nothing and reads the code from Location.
type testAuthorizer struct{ n atomic.Int32 }

func (z *testAuthorizer) Authorize(ctx context.Context, _ string, authURL func(string) (string, error)) (url.Values, error) {
	z.n.Add(1)
	u, err := authURL("http://127.0.0.1:1/callback")
	if err != nil {
		return nil, err
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	defer hc.CloseIdleConnections()
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		return nil, err
	}
	return loc.Query(), nil
}

func TestOAuthInlineWithStepUp(t *testing.T) {
	t.Parallel()
	as := newAuthServer(t)
	z := &testAuthorizer{}
	h := newHarness(t, WithAuthorizer(z, true))
	c := h.add(Connector{Name: "Secured", Transport: TransportHTTP, URL: as.URL + "/mcp", OAuth: &OAuthConfig{}})
	if st, _ := h.sup.Status(c.ID); st.State != StateReady || st.Tools != 2 {
		t.Fatalf("status = %+v", st)
	}
	sess := h.session(c.ID)
	ctx := t.Context()
	if got := text(t, h.call(ctx, sess, "secured.whoami", `{}`, nil)); got != "ok whoami" {
		t.Fatalf("whoami = %q", got)
	}
	// admin needs "write": the 403 triggers a step-up sign-in that keeps "read".
	if got := text(t, h.call(ctx, sess, "secured.admin", `{}`, nil)); got != "ok admin" {
		t.Fatalf("admin = %q", got)
	}
	if got := as.scopesAsked(); !slices.Equal(got, []string{"read", "read write"}) {
		t.Errorf("scopes asked = %q, want the challenge's, then the step-up's", got)
	}
	var saved savedOAuth
	raw, err := h.secrets.Get(ctx, oauthAccount(c.ID))
	if err != nil || json.Unmarshal([]byte(raw), &saved) != nil || saved.Token == nil || saved.Token.Scope != "read write" {
		t.Fatalf("keychain: %s, %v", raw, err)
	}
	if saved.Client == nil || saved.Client.ClientID != "client-1" {
		t.Errorf("client = %+v, want the registered one", saved.Client)
	}
}

func TestOAuthWaitsForSignIn(t *testing.T) {
	t.Parallel()
	as := newAuthServer(t)
	z := &testAuthorizer{}
	h := newHarness(t, WithAuthorizer(z, false))
	c := h.add(Connector{Name: "Secured", Transport: TransportHTTP, URL: as.URL + "/mcp", OAuth: &OAuthConfig{}})
	st, _ := h.sup.Status(c.ID)
	if st.State != StateError || !st.NeedsSignIn || !st.RetryAt.IsZero() {
		t.Fatalf("status = %+v, want an error waiting for sign-in", st)
	}
	if z.n.Load() != 0 {
		t.Fatal("the supervisor opened a sign-in by itself")
	}
	// The registry has not seen the tools yet; a snapshot kept from an
	// earlier run would still route to the connector, so call with one.
	entry := tools.Entry{Canonical: "secured.whoami", Server: "secured", ServerName: "Secured", Tool: "whoami", ConnectorID: c.ID,
		InputSchema: json.RawMessage(`{"type":"object"}`)}
	snap := testSnapshot(entry)
	res := h.sup.Call(t.Context(), snap, CallRequest{CallID: "c1", Provider: "openai", Name: "secured__whoami", Arguments: json.RawMessage(`{}`)})
	if res.Successful || res.Error != "unauthorized: sign in to Secured" {
		t.Fatalf("result = %+v", res)
	}
	if as.calls.Load() != 0 {
		t.Fatal("the server was called")
	}
	if err := h.sup.SignIn(t.Context(), c.ID); err != nil {
		t.Fatal(err)
	}
	h.waitState(c.ID, StateReady)
	res = h.sup.Call(t.Context(), snap, CallRequest{CallID: "c2", Provider: "openai", Name: "secured__whoami", Arguments: json.RawMessage(`{}`)})
	if got := text(t, res); got != "ok whoami" {
		t.Fatalf("after sign-in: %q", got)
	}
}

func TestAuthParams(t *testing.T) {
	t.Parallel()
	tests := []struct {
		header string
		want   map[string]string
	}{
		{`Bearer scope="read write", resource_metadata="https://a/b"`, map[string]string{"scope": "read write", "resource_metadata": "https://a/b"}},
		{`Bearer error="insufficient_scope", scope="x", error_description="a \"quoted\" text"`, map[string]string{"error": "insufficient_scope", "scope": "x", "error_description": `a "quoted" text`}},
		{`Bearer realm=example,scope=read`, map[string]string{"realm": "example", "scope": "read"}},
		{`Bearer`, map[string]string{}},
	}
	for _, tt := range tests {
		got := authParams(tt.header)
		for k, v := range tt.want {
			if got[k] != v {
				t.Errorf("authParams(%q)[%s] = %q, want %q", tt.header, k, got[k], v)
			}
		}
	}
}

func TestDiscoveryLocations(t *testing.T) {
	t.Parallel()
	got, _ := authServerMetadataURLs("https://auth.example.com/tenant1")
	want := []string{
		"https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
		"https://auth.example.com/.well-known/openid-configuration/tenant1",
		"https://auth.example.com/tenant1/.well-known/openid-configuration",
	}
	if !slices.Equal(got, want) {
		t.Errorf("path issuer: %q", got)
	}
	server, _ := url.Parse("https://mcp.example.com/v1/mcp")
	for _, tt := range []struct {
		resource string
		ok       bool
	}{
		{"https://mcp.example.com/v1/mcp", true},
		{"https://mcp.example.com/v1", true},
		{"https://mcp.example.com", true},
		{"https://mcp.example.com/v2", false},
		{"https://evil.example.com/v1/mcp", false},
	} {
		if got := resourceMatches(tt.resource, server); got != tt.ok {
			t.Errorf("resourceMatches(%s) = %v", tt.resource, got)
		}
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// testSnapshot builds a snapshot of entries, as one stored before a
// restart: a registry loads it from a store that has it, the entries'
// connectors not reported yet.
func testSnapshot(entries ...tools.Entry) tools.Snapshot {
	var enabled []string
	for _, e := range entries {
		enabled = append(enabled, e.ConnectorID)
	}
	snap, err := json.Marshal(map[string]any{"format": 1, "revision": 1, "entries": entries})
	if err != nil {
		panic(err)
	}
	st := &snapshotStore{sess: chat.Session{ID: "session", EnabledConnectors: enabled, ToolsRevision: 1}, snap: snap}
	s, err := tools.NewRegistry(st, testRules).Snapshot(context.Background(), "session")
	if err != nil {
		panic(err)
	}
	return s
}

// snapshotStore holds one session and its stored snapshot.
type snapshotStore struct {
	sess chat.Session
	snap []byte
}

func (s *snapshotStore) Session(context.Context, string) (chat.Session, error) { return s.sess, nil }

func (s *snapshotStore) UpdateSession(_ context.Context, _ string, fn func(*chat.Session) error) (chat.Session, error) {
	err := fn(&s.sess)
	return s.sess, err
}

func (s *snapshotStore) RegistrySnapshot(_ context.Context, _ string, v any) error {
	if s.snap == nil {
		return chat.ErrNotFound
	}
	return json.Unmarshal(s.snap, v)
}

func (s *snapshotStore) PutRegistrySnapshot(_ context.Context, _ string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return errors.Join(chat.ErrInvalid, err)
	}
	s.snap = b
	return nil
}

func readAll(r *http.Request) (string, error) {
	b, err := io.ReadAll(r.Body)
	return string(b), err
}

func ioNopCloser(s string) io.ReadCloser { return io.NopCloser(strings.NewReader(s)) }

// slowAuthorizer signs in like testAuthorizer, taking longer than the
// server/discover probe may wait for a silent server.
type slowAuthorizer struct{ testAuthorizer }

func (z *slowAuthorizer) Authorize(ctx context.Context, id string, authURL func(string) (string, error)) (url.Values, error) {
	code, err := z.testAuthorizer.Authorize(ctx, id, authURL)
	select {
	case <-time.After(probeTimeout + 300*time.Millisecond): // the user takes their time in the browser
		return code, err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// TestOAuthSignInDuringTheProbe: a server that answers server/discover with
// a 401 is not silent, so a sign-in slower than the probe's timeout is not
// cut short and done again by initialize: the connector signs in once (the
// conformance suite's scope-retry-limit counted a fourth sign-in on a
// loaded machine, docs/CONFORMANCE.md).
func TestOAuthSignInDuringTheProbe(t *testing.T) {
	t.Parallel()
	as := newAuthServer(t)
	z := &slowAuthorizer{}
	h := newHarness(t, WithAuthorizer(z, true))
	c := h.add(Connector{Name: "Secured", Transport: TransportHTTP, URL: as.URL + "/mcp", OAuth: &OAuthConfig{}})
	if st := h.settle(c.ID); st.State != StateReady {
		t.Fatalf("status = %+v", st)
	}
	if n := z.n.Load(); n != 1 {
		t.Errorf("sign-ins = %d, want 1", n)
	}
}
