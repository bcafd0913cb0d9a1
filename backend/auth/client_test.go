package auth

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"maestro/backend/chat"
)

// tokenEndpoint records the token requests it gets and answers each with
// status and body.
type tokenEndpoint struct {
	mu     sync.Mutex
	forms  []url.Values
	basics [][2]string
	status int
	body   string
}

func (e *tokenEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	e.mu.Lock()
	e.forms = append(e.forms, r.PostForm)
	user, pass, _ := r.BasicAuth()
	e.basics = append(e.basics, [2]string{user, pass})
	status, body := e.status, e.body
	e.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

func TestClientAuthenticatesAsItsMethodSays(t *testing.T) {
	t.Parallel()
	tests := []struct {
		method   string
		basic    [2]string
		id, sec  string // the form's client_id and client_secret
		resource string
	}{
		{"client_secret_basic", [2]string{"a%3Ab", "s+cret"}, "", "", "https://mcp.example/mcp"},
		{"client_secret_post", [2]string{}, "a:b", "s cret", "https://mcp.example/mcp"},
		{"none", [2]string{}, "a:b", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			t.Parallel()
			ep := &tokenEndpoint{status: 200, body: `{"access_token":"at","token_type":"Bearer","expires_in":60,"scope":"read write","refresh_token":"rt"}`}
			srv := httptest.NewServer(ep)
			defer srv.Close()
			c := Client{TokenURL: srv.URL, ID: "a:b", Secret: "s cret", AuthMethod: tt.method, Resource: tt.resource}
			tok, err := c.Exchange(t.Context(), "code-1", "http://127.0.0.1:5/callback", "verifier")
			if err != nil {
				t.Fatal(err)
			}
			if tok.AccessToken != "at" || tok.RefreshToken != "rt" || tok.Expiry.IsZero() || tok.Extra("scope") != "read write" {
				t.Errorf("token = %+v, scope %v", tok, tok.Extra("scope"))
			}
			f, basic := ep.forms[0], ep.basics[0]
			if basic != tt.basic || f.Get("client_id") != tt.id || f.Get("client_secret") != tt.sec {
				t.Errorf("basic %q, client_id %q, client_secret %q; want %q, %q, %q",
					basic, f.Get("client_id"), f.Get("client_secret"), tt.basic, tt.id, tt.sec)
			}
			if f.Get("grant_type") != "authorization_code" || f.Get("code") != "code-1" || f.Get("code_verifier") != "verifier" ||
				f.Get("redirect_uri") != "http://127.0.0.1:5/callback" || f.Get("resource") != tt.resource || f.Has("resource") != (tt.resource != "") {
				t.Errorf("form = %v", f)
			}
		})
	}
}

func TestClientCredentialsAndRefreshForms(t *testing.T) {
	t.Parallel()
	ep := &tokenEndpoint{status: 200, body: `{"access_token":"at"}`}
	srv := httptest.NewServer(ep)
	defer srv.Close()
	c := Client{TokenURL: srv.URL, ID: "id", Resource: "https://r"}
	if _, err := c.ClientCredentials(t.Context(), []string{"a", "b"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ClientCredentials(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Refresh(t.Context(), "rt-1"); err != nil {
		t.Fatal(err)
	}
	want := []url.Values{
		{"grant_type": {"client_credentials"}, "scope": {"a b"}, "resource": {"https://r"}, "client_id": {"id"}},
		{"grant_type": {"client_credentials"}, "resource": {"https://r"}, "client_id": {"id"}},
		{"grant_type": {"refresh_token"}, "refresh_token": {"rt-1"}, "resource": {"https://r"}, "client_id": {"id"}},
	}
	for i, w := range want {
		if got := ep.forms[i].Encode(); got != w.Encode() {
			t.Errorf("request %d: form %s, want %s", i, got, w.Encode())
		}
	}
}

func TestClientErrorKinds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status  int
		body    string
		refresh bool
		want    error
	}{
		{400, `{"error":"invalid_grant"}`, false, chat.ErrAuthRequired},
		{500, `{}`, false, chat.ErrAuthRequired},
		{400, `{"error":"invalid_grant"}`, true, chat.ErrAuthRequired},
		{401, `{}`, true, chat.ErrAuthRequired},
		{503, `{}`, true, chat.ErrUnavailable},
		{200, `{"token_type":"Bearer"}`, false, chat.ErrUnavailable},
	}
	for _, tt := range tests {
		ep := &tokenEndpoint{status: tt.status, body: tt.body}
		srv := httptest.NewServer(ep)
		c := Client{Name: "Files", TokenURL: srv.URL, ID: "id"}
		var err error
		if tt.refresh {
			_, err = c.Refresh(t.Context(), "rt")
		} else {
			_, err = c.Exchange(t.Context(), "code", "http://127.0.0.1/cb", "v")
		}
		srv.Close()
		if !errors.Is(err, tt.want) {
			t.Errorf("%d %s (refresh %v): err = %v, want %v", tt.status, tt.body, tt.refresh, err, tt.want)
		}
	}
	_, err := Client{TokenURL: "http://127.0.0.1:1/token"}.Exchange(t.Context(), "c", "r", "v")
	if !errors.Is(err, chat.ErrUnavailable) {
		t.Errorf("unreachable: err = %v, want ErrUnavailable", err)
	}
}

func TestTokenStoreRecords(t *testing.T) {
	t.Parallel()
	kc := New("maestro", withBackend(&fakeBackend{}))
	ts := TokenStore{kc}
	ctx := t.Context()
	type rec struct {
		AccessToken string `json:"accessToken"`
	}
	var got rec
	if err := ts.Load(ctx, "mcp-oauth:x", &got); !errors.Is(err, chat.ErrNotFound) {
		t.Fatalf("missing: err = %v, want ErrNotFound", err)
	}
	if err := ts.Save(ctx, "mcp-oauth:x", rec{"at"}); err != nil {
		t.Fatal(err)
	}
	if err := ts.Load(ctx, "mcp-oauth:x", &got); err != nil || got.AccessToken != "at" {
		t.Fatalf("Load = %+v, %v", got, err)
	}
	if err := kc.Set(ctx, "mcp-oauth:x", `{"accessToken":"secret-value`); err != nil {
		t.Fatal(err)
	}
	err := ts.Load(ctx, "mcp-oauth:x", &got)
	if !errors.Is(err, chat.ErrAuthRequired) || err == nil || strings.Contains(err.Error(), "secret-value") {
		t.Errorf("damaged: err = %v, want ErrAuthRequired without the value", err)
	}
	if err := ts.Delete(ctx, "mcp-oauth:x"); err != nil {
		t.Fatal(err)
	}
	if err := ts.Delete(ctx, "mcp-oauth:x"); err != nil {
		t.Errorf("deleting a missing record: %v", err)
	}
}
