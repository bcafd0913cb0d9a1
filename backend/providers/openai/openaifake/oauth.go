package openaifake

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"maestro/backend/providers/fakes"
)

// The ChatGPT sign-in server (docs/providers/openai.md §Sign-in). The
// constants are repeated rather than imported so the fake checks the
// client independently.
const (
	OAuthClientID = "app_EMoamEEZ73f0CkXaXp7hrann"
	AuthorizePath = "/oauth/authorize"
	TokenPath     = "/oauth/token"
	// AuthClaim is the id_token claim holding the ChatGPT account.
	AuthClaim    = "https://api.openai.com/auth"
	ProfileClaim = "https://api.openai.com/profile"
	callbackPath = "/auth/callback"
)

// DefaultSubject is who the fake signs in unless WithOAuthSubject says
// otherwise.
var DefaultSubject = fakes.Subject{
	Email:     "ada@example.com",
	UserID:    "user-fake0001",
	AccountID: "acc_fake0001",
	Plan:      "plus",
}

// oauthState is the fake's sign-in server. Options fill it before New
// mounts its routes; afterwards only the Issuer (which locks) changes.
type oauthState struct {
	issuer     *fakes.Issuer
	anyPort    bool
	strict     bool
	subject    fakes.Subject
	ttl        time.Duration
	denyCode   string
	denyDetail string
}

func (s *Server) oauthConfig() *oauthState {
	if s.oauth == nil {
		s.oauth = &oauthState{subject: DefaultSubject}
	}
	return s.oauth
}

// WithOAuthAnyPort widens the redirect rule from exactly
// http://localhost:1455/auth/callback or :1457 (the real allow-list) to
// any localhost port, for tests that cannot own those two ports.
func WithOAuthAnyPort() Option { return func(s *Server) { s.oauthConfig().anyPort = true } }

// WithOAuthSubject sets the account the fake signs in.
func WithOAuthSubject(sub fakes.Subject) Option {
	return func(s *Server) { s.oauthConfig().subject = sub }
}

// WithAccessTokenTTL sets the lifetime of issued access tokens (default
// one hour).
func WithAccessTokenTTL(d time.Duration) Option {
	return func(s *Server) { s.oauthConfig().ttl = d }
}

// WithAuthorizeError makes the authorize page refuse: it redirects back
// with error=code and error_description=detail, e.g. "access_denied" and
// "missing_codex_entitlement".
func WithAuthorizeError(code, detail string) Option {
	return func(s *Server) { c := s.oauthConfig(); c.denyCode, c.denyDetail = code, detail }
}

// WithIssuedTokensOnly makes the backend refuse bearer tokens this fake did
// not issue. By default an unknown token falls through to the WithToken
// rule (any non-empty token), so tests that never sign in keep working;
// a token the fake issued is always checked for expiry.
func WithIssuedTokensOnly() Option { return func(s *Server) { s.oauthConfig().strict = true } }

// OAuth returns the fake's authorization-server state: counters, issued
// secrets, ExpireAll, RevokeAll.
func (s *Server) OAuth() *fakes.Issuer { return s.oauth.issuer }

// mountOAuth adds the sign-in endpoints and their control handler to the
// fake's mux.
func (s *Server) mountOAuth() {
	o := s.oauthConfig()
	o.issuer = fakes.NewIssuer(fakes.Config{
		AccessTTL: o.ttl,
		Rotate:    true, // refresh tokens are single-use (docs/providers/openai.md §Sign-in)
		Now:       func() time.Time { return s.now() },
		MintAccess: func(sub fakes.Subject, scope string, exp time.Time) string {
			return fakes.JWT(map[string]any{
				"iss": "https://auth.openai.com", "aud": []string{"https://api.openai.com/v1"},
				"client_id": OAuthClientID, "exp": exp.Unix(), "iat": s.now().Unix(),
				"scp": strings.Fields(scope), "sub": sub.UserID,
				AuthClaim:    authClaims(sub),
				ProfileClaim: map[string]any{"email": sub.Email, "email_verified": true},
			})
		},
		MintRefresh: func() string { return "rt_" + rand.Text() },
	})
	s.mux.Handle(fakes.ControlPrefix, o.issuer.ControlHandler())
	s.mux.HandleFunc("GET "+AuthorizePath, s.oauthAuthorize)
	s.mux.HandleFunc("POST "+TokenPath, s.oauthToken)
}

func authClaims(sub fakes.Subject) map[string]any {
	return map[string]any{
		"chatgpt_account_id": sub.AccountID,
		"chatgpt_plan_type":  sub.Plan,
		"chatgpt_user_id":    sub.UserID,
		"user_id":            sub.UserID,
	}
}

func (s *Server) idToken(sub fakes.Subject, exp time.Time) string {
	return fakes.JWT(map[string]any{
		"iss": "https://auth.openai.com", "aud": []string{OAuthClientID}, "sub": sub.UserID,
		"email": sub.Email, "email_verified": true, "exp": exp.Unix(), "iat": s.now().Unix(),
		AuthClaim: authClaims(sub),
	})
}

// redirectAllowed is the real allow-list: http://localhost:1455 or :1457,
// path /auth/callback (widened to any port by WithOAuthAnyPort).
func (o *oauthState) redirectAllowed(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" || u.Hostname() != "localhost" || u.Path != callbackPath ||
		u.RawQuery != "" || u.Fragment != "" {
		return false
	}
	if o.anyPort {
		p, err := strconv.Atoi(u.Port())
		return err == nil && p > 0 && p < 65536
	}
	return u.Port() == "1455" || u.Port() == "1457"
}

// oauthAuthorize is the sign-in page: it checks the request the way the real
// server does (docs/providers/openai.md §Sign-in) and approves it at once with a redirect carrying
// code and state. A request it cannot redirect safely (unknown client,
// redirect URI off the allow-list) gets an error page instead.
func (s *Server) oauthAuthorize(w http.ResponseWriter, r *http.Request) {
	o := s.oauth
	q := r.URL.Query()
	o.issuer.NoteAuthorize(r.URL.RawQuery)
	if q.Get("client_id") != OAuthClientID {
		errorPage(w, http.StatusBadRequest, "Unknown client", "The client_id is not registered.")
		return
	}
	redirect := q.Get("redirect_uri")
	if !o.redirectAllowed(redirect) {
		errorPage(w, http.StatusBadRequest, "Invalid redirect", "The redirect_uri is not on this client's allow-list.")
		return
	}
	state := q.Get("state")
	scopes := strings.Fields(q.Get("scope"))
	var problem string
	switch {
	case q.Get("response_type") != "code":
		problem = "response_type must be code"
	case q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256":
		problem = "PKCE with code_challenge_method=S256 is required"
	case state == "":
		problem = "state is required"
	case !slices.Contains(scopes, "openid") || !slices.Contains(scopes, "offline_access"):
		problem = "scope must include openid and offline_access"
	case q.Get("id_token_add_organizations") != "true" || q.Get("codex_cli_simplified_flow") != "true":
		problem = "id_token_add_organizations and codex_cli_simplified_flow must be true"
	case q.Get("originator") == "":
		problem = "originator is required"
	}
	if problem != "" {
		redirectError(w, r, redirect, fakes.CodeInvalidRequest, problem, state)
		return
	}
	if o.denyCode != "" {
		redirectError(w, r, redirect, o.denyCode, o.denyDetail, state)
		return
	}
	code := o.issuer.Authorize(fakes.Grant{
		ClientID: OAuthClientID, RedirectURI: redirect, Scope: q.Get("scope"), State: state,
		Challenge: q.Get("code_challenge"), Subject: o.subject,
	})
	v := url.Values{"code": {code}, "scope": {q.Get("scope")}, "state": {state}}
	http.Redirect(w, r, redirect+"?"+v.Encode(), http.StatusFound)
}

func redirectError(w http.ResponseWriter, r *http.Request, redirect, code, detail, state string) {
	v := url.Values{"error": {code}, "error_description": {detail}}
	if state != "" {
		v.Set("state", state)
	}
	http.Redirect(w, r, redirect+"?"+v.Encode(), http.StatusFound)
}

func errorPage(w http.ResponseWriter, status int, title, detail string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<!doctype html><title>%s</title><h1>%s</h1><p>%s</p>\n",
		html.EscapeString(title), html.EscapeString(title), html.EscapeString(detail))
}

// tokenParams reads a token request as the server accepts it: a form (the
// code exchange, and refresh per some clients) or JSON (Codex's refresh).
func tokenParams(r *http.Request) (map[string]string, bool, error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return nil, false, err
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	p := map[string]string{}
	switch ct {
	case "application/x-www-form-urlencoded":
		v, err := url.ParseQuery(string(b))
		if err != nil {
			return nil, true, err
		}
		for k := range v {
			p[k] = v.Get(k)
		}
		return p, true, nil
	case "application/json":
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, false, err
		}
		for k, v := range m {
			if s, ok := v.(string); ok {
				p[k] = s
			}
		}
		return p, false, nil
	}
	return nil, false, fmt.Errorf("unsupported content type %q", ct)
}

// oauthToken is POST /oauth/token: the form-encoded code exchange and the
// refresh, JSON or form (docs/providers/openai.md §Sign-in), which rotates the refresh token.
func (s *Server) oauthToken(w http.ResponseWriter, r *http.Request) {
	o := s.oauth
	p, form, err := tokenParams(r)
	if err != nil {
		oauthError(w, http.StatusBadRequest, fakes.CodeInvalidRequest, "Could not parse the request body: "+err.Error())
		return
	}
	if p["client_id"] != OAuthClientID {
		oauthError(w, http.StatusUnauthorized, fakes.CodeInvalidClient, "Unknown client_id.")
		return
	}
	switch p["grant_type"] {
	case "authorization_code":
		if !form {
			oauthError(w, http.StatusBadRequest, fakes.CodeInvalidRequest, "The code exchange must be form-encoded.")
			return
		}
		g, ferr := o.issuer.Redeem(p["code"], p["client_id"], p["redirect_uri"], p["code_verifier"])
		if ferr != nil {
			oauthError(w, http.StatusBadRequest, ferr.Code, ferr.Description)
			return
		}
		t := o.issuer.Issue(g.ClientID, g.Subject, g.Scope)
		writeTokens(w, map[string]any{
			"id_token": s.idToken(t.Subject, t.Expiry), "access_token": t.Access, "refresh_token": t.Refresh,
			"expires_in": t.ExpiresIn, "token_type": "Bearer", "scope": t.Scope,
		})
	case "refresh_token":
		t, ferr := o.issuer.Refresh(p["refresh_token"], p["client_id"])
		if ferr != nil {
			// Codex reads error.code; every refresh failure is a 401.
			b, _ := json.Marshal(map[string]any{"error": map[string]any{
				"message": ferr.Description, "type": "invalid_request_error", "param": nil, "code": ferr.Code}})
			writeJSON(w, http.StatusUnauthorized, string(b))
			return
		}
		// The refresh answer has no expires_in: clients read the JWT's exp.
		writeTokens(w, map[string]any{
			"id_token": s.idToken(t.Subject, t.Expiry), "access_token": t.Access, "refresh_token": t.Refresh,
		})
	default:
		oauthError(w, http.StatusBadRequest, fakes.CodeUnsupportedType, "Unsupported grant_type.")
	}
}

func oauthError(w http.ResponseWriter, status int, code, detail string) {
	b, _ := json.Marshal(map[string]string{"error": code, "error_description": detail})
	writeJSON(w, status, string(b))
}

func writeTokens(w http.ResponseWriter, v map[string]any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, string(b))
}

// requireIssued puts the Issuer in front of the backend: a token the fake
// issued must be unexpired (the real expired-token 401 otherwise) and must
// come with its own account id; an unknown token falls through to the
// handler's own rule unless WithIssuedTokensOnly.
func (s *Server) requireIssued(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		tok := fakes.Bearer(r)
		if tok == "" {
			next(w, r)
			return
		}
		sub, st := s.oauth.issuer.Check(tok)
		var rej *rejection
		switch {
		case st == fakes.Expired, st == fakes.Unknown && s.oauth.strict:
			rej = expiredToken()
		case st == fakes.Valid && r.Header.Get("Chatgpt-Account-Id") != sub.AccountID:
			rej = &rejection{status: http.StatusForbidden, body: `{"detail":"Forbidden"}`,
				rule: "chatgpt-account-id must match the token's account"}
		}
		if rej == nil {
			next(w, r)
			return
		}
		body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
		s.reject(w, record(r, body), rej)
	}
}
