package anthropicfake

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"maestro/backend/providers/fakes"
	"maestro/backend/providers/fakescript"
)

// The Claude sign-in server (docs/providers/anthropic.md §Sign-in): the
// authorize page (claude.ai), the manual-code page and the token endpoint
// (console.anthropic.com). The constants are repeated rather than imported
// so the fake checks the client independently.
const (
	OAuthClientID      = "9d1c250a-e61b-44d9-88ed-5944d1962f5e"
	AuthorizePath      = "/oauth/authorize"
	TokenPath          = "/v1/oauth/token"
	ManualCallbackPath = "/oauth/code/callback"
	loopbackPath       = "/callback"
)

// manualRedirects are the real manual (paste) redirect URIs
// (docs/providers/anthropic.md §Sign-in: constants).
var manualRedirects = []string{
	"https://console.anthropic.com/oauth/code/callback",
	"https://platform.claude.com/oauth/code/callback",
}

// DefaultSubject is who the fake signs in unless WithOAuthSubject says
// otherwise.
var DefaultSubject = fakes.Subject{
	Email:   "ada@example.com",
	UserID:  "acct-fake0001",
	OrgID:   "org-fake0001",
	OrgName: "Ada's Organization",
}

// oauthState is the fake's sign-in server. Options fill it before New
// mounts its routes; afterwards only the Issuer (which locks) changes.
type oauthState struct {
	issuer  *fakes.Issuer
	strict  bool
	subject fakes.Subject
	ttl     time.Duration
	deny    string
}

func (s *Server) oauthConfig() *oauthState {
	if s.oauth == nil {
		s.oauth = &oauthState{subject: DefaultSubject}
	}
	return s.oauth
}

// WithOAuthSubject sets the account and organization the fake signs in.
func WithOAuthSubject(sub fakes.Subject) Option {
	return func(s *Server) { s.oauthConfig().subject = sub }
}

// WithAccessTokenTTL sets the lifetime of issued access tokens (default
// one hour).
func WithAccessTokenTTL(d time.Duration) Option {
	return func(s *Server) { s.oauthConfig().ttl = d }
}

// WithAuthorizeError makes the authorize page refuse with this OAuth error
// code (e.g. "access_denied") instead of approving.
func WithAuthorizeError(code string) Option {
	return func(s *Server) { s.oauthConfig().deny = code }
}

// WithIssuedTokensOnly makes /v1/messages refuse OAuth bearers this fake did
// not issue. By default an unknown bearer falls through to the WithToken
// rule; a token the fake issued is always checked for expiry.
func WithIssuedTokensOnly() Option { return func(s *Server) { s.oauthConfig().strict = true } }

// OAuth returns the fake's authorization-server state.
func (s *Server) OAuth() *fakes.Issuer { return s.oauth.issuer }

// mountOAuth adds the sign-in endpoints and their control handler.
func (s *Server) mountOAuth() {
	o := s.oauthConfig()
	o.issuer = fakes.NewIssuer(fakes.Config{
		AccessTTL: o.ttl,
		Rotate:    true,
		Now:       func() time.Time { return s.now() },
		MintAccess: func(fakes.Subject, string, time.Time) string {
			return "sk-ant-oat01-" + rand.Text() + rand.Text()
		},
		MintRefresh: func() string { return "sk-ant-ort01-" + rand.Text() + rand.Text() },
	})
	s.mux.Handle(fakes.ControlPrefix, o.issuer.ControlHandler())
	s.mux.HandleFunc("GET "+AuthorizePath, s.oauthAuthorize)
	s.mux.HandleFunc("GET "+ManualCallbackPath, s.oauthManualPage)
	s.mux.HandleFunc("POST "+TokenPath, s.oauthToken)
}

// redirectKind says whether raw is an allowed loopback redirect
// (http://localhost:{any port}/callback), the manual page (the real
// console or platform URL, or this fake's own /oauth/code/callback), or
// neither.
func redirectKind(r *http.Request, raw string) (loopback, manual bool) {
	u, err := url.Parse(raw)
	if err != nil || u.RawQuery != "" || u.Fragment != "" {
		return false, false
	}
	for _, m := range manualRedirects {
		if raw == m {
			return false, true
		}
	}
	if (u.Scheme == "http" || u.Scheme == "https") && u.Host == r.Host && strings.HasSuffix(u.Path, ManualCallbackPath) {
		return false, true
	}
	if u.Scheme == "http" && u.Hostname() == "localhost" && u.Path == loopbackPath {
		p, err := strconv.Atoi(u.Port())
		return err == nil && p > 0 && p < 65536, false
	}
	return false, false
}

// oauthAuthorize checks the authorize request (docs/providers/anthropic.md
// §Sign-in: authorize URL) and approves it at once:
// a redirect to the loopback or manual callback with code and state. For
// the real manual URLs, which the fake cannot serve, it shows the manual
// page itself.
func (s *Server) oauthAuthorize(w http.ResponseWriter, r *http.Request) {
	o := s.oauth
	q := r.URL.Query()
	o.issuer.NoteAuthorize(r.URL.RawQuery)
	if q.Get("client_id") != OAuthClientID {
		page(w, http.StatusBadRequest, "Invalid OAuth Request", "Unknown client_id.")
		return
	}
	redirect := q.Get("redirect_uri")
	loopback, manual := redirectKind(r, redirect)
	if !loopback && !manual {
		page(w, http.StatusBadRequest, "Invalid OAuth Request", "Invalid redirect_uri.")
		return
	}
	state := q.Get("state")
	var problem string
	switch {
	case q.Get("code") != "true":
		problem = "code=true is required"
	case q.Get("response_type") != "code":
		problem = "response_type must be code"
	case q.Get("scope") == "":
		problem = "scope is required"
	case q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256":
		problem = "PKCE with code_challenge_method=S256 is required"
	case state == "":
		problem = "state is required"
	}
	if problem != "" {
		page(w, http.StatusBadRequest, "Invalid OAuth Request", problem)
		return
	}
	if o.deny != "" {
		v := url.Values{"error": {o.deny}, "error_description": {"The user denied access."}, "state": {state}}
		http.Redirect(w, r, redirect+"?"+v.Encode(), http.StatusFound)
		return
	}
	code := o.issuer.Authorize(fakes.Grant{
		ClientID: OAuthClientID, RedirectURI: redirect, Scope: q.Get("scope"), State: state,
		Challenge: q.Get("code_challenge"), Subject: o.subject,
	})
	v := url.Values{"code": {code}, "state": {state}}
	if manual && !sameHost(r, redirect) {
		manualPage(w, code, state)
		return
	}
	http.Redirect(w, r, redirect+"?"+v.Encode(), http.StatusFound)
}

func sameHost(r *http.Request, raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && u.Host == r.Host
}

// oauthManualPage is the manual callback: it shows "code#state" for the
// user to paste into the app (docs/providers/anthropic.md §Sign-in:
// loopback and paste).
func (s *Server) oauthManualPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if e := q.Get("error"); e != "" {
		page(w, http.StatusOK, "Authorization failed", e)
		return
	}
	manualPage(w, q.Get("code"), q.Get("state"))
}

// manualPage shows the code to paste in an element with id "code", so a
// test can read it.
func manualPage(w http.ResponseWriter, code, state string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprintf(w, "<!doctype html><title>Authentication Code</title>"+
		"<p>Paste this into Claude Code:</p><pre id=\"code\">%s#%s</pre>\n",
		html.EscapeString(code), html.EscapeString(state))
}

func page(w http.ResponseWriter, status int, title, detail string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<!doctype html><title>%s</title><h1>%s</h1><p>%s</p>\n",
		html.EscapeString(title), html.EscapeString(title), html.EscapeString(detail))
}

// tokenParams reads a JSON token request (and, as some clients send it, a
// form one).
func tokenParams(r *http.Request) (map[string]string, error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	p := map[string]string{}
	switch ct {
	case "application/json":
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, err
		}
		for k, v := range m {
			if s, ok := v.(string); ok {
				p[k] = s
			}
		}
	case "application/x-www-form-urlencoded":
		v, err := url.ParseQuery(string(b))
		if err != nil {
			return nil, err
		}
		for k := range v {
			p[k] = v.Get(k)
		}
	default:
		return nil, fmt.Errorf("unsupported content type %q", ct)
	}
	return p, nil
}

// oauthToken is POST /v1/oauth/token (docs/providers/anthropic.md §Sign-in:
// token exchange, token refresh): the JSON code exchange, which must carry
// the state, and the refresh, which rotates the refresh token.
func (s *Server) oauthToken(w http.ResponseWriter, r *http.Request) {
	o := s.oauth
	p, err := tokenParams(r)
	if err != nil {
		tokenError(w, http.StatusBadRequest, fakes.CodeInvalidRequest, "Invalid request body.")
		return
	}
	if p["client_id"] != OAuthClientID {
		tokenError(w, http.StatusUnauthorized, fakes.CodeInvalidClient, "Invalid client_id.")
		return
	}
	var t fakes.Tokens
	switch p["grant_type"] {
	case "authorization_code":
		if p["state"] == "" {
			tokenError(w, http.StatusBadRequest, fakes.CodeInvalidRequest, "Missing state.")
			return
		}
		g, ferr := o.issuer.Redeem(p["code"], p["client_id"], p["redirect_uri"], p["code_verifier"])
		if ferr != nil {
			tokenError(w, http.StatusBadRequest, invalidGrant(ferr.Code), ferr.Description)
			return
		}
		if p["state"] != g.State {
			tokenError(w, http.StatusBadRequest, fakes.CodeInvalidGrant, "Invalid state.")
			return
		}
		t = o.issuer.Issue(g.ClientID, g.Subject, g.Scope)
	case "refresh_token":
		var ferr *fakes.Error
		t, ferr = o.issuer.Refresh(p["refresh_token"], p["client_id"])
		if ferr != nil {
			tokenError(w, http.StatusBadRequest, invalidGrant(ferr.Code), "Refresh token not found or invalid.")
			return
		}
	default:
		tokenError(w, http.StatusBadRequest, fakes.CodeUnsupportedType, "Unsupported grant_type.")
		return
	}
	b, _ := json.Marshal(map[string]any{
		"token_type": "Bearer", "access_token": t.Access, "expires_in": t.ExpiresIn,
		"refresh_token": t.Refresh, "scope": t.Scope,
		"organization": map[string]string{"uuid": t.Subject.OrgID, "name": t.Subject.OrgName},
		"account":      map[string]string{"uuid": t.Subject.UserID, "email_address": t.Subject.Email},
	})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(b)
}

// invalidGrant folds the Issuer's refresh-specific codes into invalid_grant,
// the only code Anthropic's endpoint gives for a bad grant.
func invalidGrant(code string) string {
	if code == fakes.CodeInvalidRequest {
		return code
	}
	return fakes.CodeInvalidGrant
}

func tokenError(w http.ResponseWriter, status int, code, detail string) {
	b, _ := json.Marshal(map[string]string{"error": code, "error_description": detail})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// requireIssued puts the Issuer in front of /v1/messages: an OAuth bearer
// the fake issued must be unexpired (the real expired-token 401
// otherwise); an unknown one falls through to the handler's own rule
// unless WithIssuedTokensOnly. API-key requests pass untouched.
func (s *Server) requireIssued(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		tok := fakes.Bearer(r)
		if tok == "" || r.Header.Get("x-api-key") != "" {
			next(w, r)
			return
		}
		_, st := s.oauth.issuer.Check(tok)
		if st == fakes.Valid || st == fakes.Unknown && !s.oauth.strict {
			next(w, r)
			return
		}
		body, _ := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		s.Script.Record(fakescript.Recorded{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header,
			Body: recordBody(body), Status: http.StatusUnauthorized, Rejection: "auth: expired or unknown token"})
		s.writeError(w, http.StatusUnauthorized, "authentication_error", MsgTokenExpired, nil)
	}
}
