package geminifake

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"maestro/backend/providers/fakes"
)

// Google's sign-in endpoints as gemini-cli uses them
// (docs/providers/gemini.md §Sign-in: constants). The constants are repeated
// rather than imported so the fake checks the client independently.
const (
	OAuthClientID     = "681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com"
	OAuthClientSecret = "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"
	AuthorizePath     = "/o/oauth2/v2/auth"
	TokenPath         = "/token"
	UserinfoPath      = "/oauth2/v2/userinfo"
	scopeCloud        = "https://www.googleapis.com/auth/cloud-platform"
)

// DefaultSubject is who the fake signs in unless WithOAuthSubject says
// otherwise.
var DefaultSubject = fakes.Subject{Email: "ada@example.com", UserID: "100000000000000000001"}

// oauthState is the fake's sign-in server and its Code Assist account
// state (codeassist.go). Options fill it before New mounts the routes.
type oauthState struct {
	issuer  *fakes.Issuer
	strict  bool
	rotate  bool
	subject fakes.Subject
	ttl     time.Duration
	deny    string
	now     func() time.Time
	ca      *codeAssistState
}

func (s *Server) oauthConfig() *oauthState {
	if s.oauth == nil {
		s.oauth = &oauthState{subject: DefaultSubject, now: time.Now, ca: newCodeAssistState()}
	}
	return s.oauth
}

// WithOAuthSubject sets the account the fake signs in.
func WithOAuthSubject(sub fakes.Subject) Option {
	return func(s *Server) { s.oauthConfig().subject = sub }
}

// WithAccessTokenTTL sets the lifetime of issued access tokens (default
// one hour).
func WithAccessTokenTTL(d time.Duration) Option {
	return func(s *Server) { s.oauthConfig().ttl = d }
}

// WithRefreshRotation makes refreshes return a new refresh token and retire
// the old one. Google normally keeps the refresh token, and so does the
// fake by default.
func WithRefreshRotation() Option { return func(s *Server) { s.oauthConfig().rotate = true } }

// WithAuthorizeError makes the consent page refuse with this OAuth error
// code (e.g. "access_denied") instead of approving.
func WithAuthorizeError(code string) Option { return func(s *Server) { s.oauthConfig().deny = code } }

// WithOAuthClock sets the clock of the sign-in server.
func WithOAuthClock(now func() time.Time) Option {
	return func(s *Server) { s.oauthConfig().now = now }
}

// WithIssuedTokensOnly makes Code Assist refuse bearers this fake did not
// issue. By default an unknown bearer falls through to the WithToken rule;
// a token the fake issued is always checked for expiry.
func WithIssuedTokensOnly() Option { return func(s *Server) { s.oauthConfig().strict = true } }

// OAuth returns the fake's authorization-server state.
func (s *Server) OAuth() *fakes.Issuer { return s.oauth.issuer }

// mountOAuth adds the sign-in, userinfo and Code Assist setup endpoints and
// their control handlers.
func (s *Server) mountOAuth() {
	o := s.oauthConfig()
	if o.ca.managed == "" {
		o.ca.managed = "maestro-fake-free-project"
		if s.project != "" {
			o.ca.managed = s.project
		}
	}
	o.issuer = fakes.NewIssuer(fakes.Config{
		AccessTTL:   o.ttl,
		Rotate:      o.rotate,
		Now:         o.now,
		MintAccess:  func(fakes.Subject, string, time.Time) string { return "ya29.fake-" + rand.Text() + rand.Text() },
		MintRefresh: func() string { return "1//fake-" + rand.Text() + rand.Text() },
	})
	s.mux.Handle(fakes.ControlPrefix, o.issuer.ControlHandler())
	s.mux.HandleFunc("GET "+AuthorizePath, s.oauthAuthorize)
	s.mux.HandleFunc("POST "+TokenPath, s.oauthToken)
	s.mux.HandleFunc("GET "+UserinfoPath, s.oauthUserinfo)
	s.mountCodeAssist()
}

// loopbackRedirect is Google's rule for installed apps: http on a loopback
// address, any port and path.
func loopbackRedirect(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" || u.Fragment != "" || u.Port() == "" {
		return false
	}
	if u.Hostname() == "localhost" {
		return true
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}

// oauthAuthorize is the consent page (docs/providers/gemini.md §Sign-in:
// authorize URL, and §Sign-in: what the fake checks). It checks the request
// and approves at once with a redirect carrying code and state. The fake
// requires PKCE S256, which the real server only allows: Maestro always
// sends it.
func (s *Server) oauthAuthorize(w http.ResponseWriter, r *http.Request) {
	o := s.oauth
	q := r.URL.Query()
	o.issuer.NoteAuthorize(r.URL.RawQuery)
	if q.Get("client_id") != OAuthClientID {
		htmlPage(w, http.StatusUnauthorized, "Error 401: invalid_client", "The OAuth client was not found.")
		return
	}
	redirect := q.Get("redirect_uri")
	if !loopbackRedirect(redirect) {
		htmlPage(w, http.StatusBadRequest, "Error 400: redirect_uri_mismatch",
			"You can't sign in to this app because it doesn't comply with Google's OAuth 2.0 policy.")
		return
	}
	var problem string
	switch {
	case q.Get("response_type") != "code":
		problem = "Invalid response_type"
	case !slices.Contains(strings.Fields(q.Get("scope")), scopeCloud):
		problem = "Missing required parameter: scope"
	case q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256":
		problem = "fake: PKCE with code_challenge_method=S256 is required"
	}
	if problem != "" {
		htmlPage(w, http.StatusBadRequest, "Error 400: invalid_request", problem)
		return
	}
	state := q.Get("state")
	back := func(v url.Values) {
		if state != "" {
			v.Set("state", state)
		}
		sep := "?"
		if strings.Contains(redirect, "?") {
			sep = "&"
		}
		http.Redirect(w, r, redirect+sep+v.Encode(), http.StatusFound)
	}
	if o.deny != "" {
		back(url.Values{"error": {o.deny}})
		return
	}
	code := o.issuer.Authorize(fakes.Grant{
		ClientID: OAuthClientID, RedirectURI: redirect, Scope: q.Get("scope"), State: state,
		Challenge: q.Get("code_challenge"), Subject: o.subject,
		Offline: q.Get("access_type") == "offline",
	})
	back(url.Values{"code": {code}, "scope": {q.Get("scope")}})
}

func htmlPage(w http.ResponseWriter, status int, title, detail string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<!doctype html><title>%s</title><h1>%s</h1><p>%s</p>\n",
		html.EscapeString(title), html.EscapeString(title), html.EscapeString(detail))
}

// oauthToken is POST /token (docs/providers/gemini.md §Sign-in: token
// exchange, token refresh): form-encoded, client secret in the body.
// The code exchange returns a refresh token only for access_type=offline;
// a refresh returns none unless WithRefreshRotation.
func (s *Server) oauthToken(w http.ResponseWriter, r *http.Request) {
	o := s.oauth
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	p, err := url.ParseQuery(string(b))
	if ct != "application/x-www-form-urlencoded" || err != nil {
		googleTokenError(w, http.StatusBadRequest, fakes.CodeInvalidRequest, "Invalid request body; expected a form.")
		return
	}
	switch {
	case p.Get("client_id") != OAuthClientID:
		googleTokenError(w, http.StatusUnauthorized, fakes.CodeInvalidClient, "The OAuth client was not found.")
		return
	case p.Get("client_secret") == "":
		googleTokenError(w, http.StatusBadRequest, fakes.CodeInvalidRequest, "client_secret is missing.")
		return
	case p.Get("client_secret") != OAuthClientSecret:
		googleTokenError(w, http.StatusUnauthorized, fakes.CodeInvalidClient, "Unauthorized")
		return
	}
	resp := map[string]any{"token_type": "Bearer"}
	switch p.Get("grant_type") {
	case "authorization_code":
		g, ferr := o.issuer.Redeem(p.Get("code"), p.Get("client_id"), p.Get("redirect_uri"), p.Get("code_verifier"))
		if ferr != nil {
			code := fakes.CodeInvalidGrant
			if ferr.Code == fakes.CodeInvalidRequest {
				code = ferr.Code
			}
			googleTokenError(w, http.StatusBadRequest, code, ferr.Description)
			return
		}
		t := o.issuer.Issue(g.ClientID, g.Subject, g.Scope)
		resp["access_token"], resp["expires_in"], resp["scope"] = t.Access, t.ExpiresIn, t.Scope
		if g.Offline {
			resp["refresh_token"] = t.Refresh
		}
		resp["id_token"] = fakes.JWT(map[string]any{
			"iss": "https://accounts.google.com", "aud": OAuthClientID, "sub": g.Subject.UserID,
			"email": g.Subject.Email, "email_verified": true, "exp": t.Expiry.Unix(),
		})
	case "refresh_token":
		t, ferr := o.issuer.Refresh(p.Get("refresh_token"), p.Get("client_id"))
		if ferr != nil {
			googleTokenError(w, http.StatusBadRequest, fakes.CodeInvalidGrant, "Token has been expired or revoked.")
			return
		}
		resp["access_token"], resp["expires_in"], resp["scope"] = t.Access, t.ExpiresIn, t.Scope
		if t.Refresh != "" {
			resp["refresh_token"] = t.Refresh
		}
	default:
		googleTokenError(w, http.StatusBadRequest, fakes.CodeUnsupportedType, "Invalid grant_type: "+p.Get("grant_type"))
		return
	}
	out, _ := json.MarshalIndent(resp, "", "  ")
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache, no-store, max-age=0, must-revalidate")
	_, _ = w.Write(out)
}

func googleTokenError(w http.ResponseWriter, status int, code, detail string) {
	b, _ := json.MarshalIndent(map[string]string{"error": code, "error_description": detail}, "", "  ")
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// bearerRejection checks a Google bearer against the Issuer: a missing,
// expired (or, with WithIssuedTokensOnly, unknown) token gets the real 401.
// method names the RPC in the error's metadata.
func (s *Server) bearerRejection(r *http.Request) (fakes.Subject, *rejection) {
	tok := fakes.Bearer(r)
	if tok == "" {
		return fakes.Subject{}, unauthenticated("bearer token required", msgCredsMissing, "CREDENTIALS_MISSING")
	}
	sub, st := s.oauth.issuer.Check(tok)
	if st == fakes.Expired || st == fakes.Unknown && s.oauth.strict {
		return sub, unauthenticated("bearer token expired", msgCredsInvalid, "ACCESS_TOKEN_EXPIRED")
	}
	if st == fakes.Unknown {
		sub = s.oauth.subject
	}
	return sub, nil
}

// oauthUserinfo is GET /oauth2/v2/userinfo (docs/providers/gemini.md
// §Sign-in: constants).
func (s *Server) oauthUserinfo(w http.ResponseWriter, r *http.Request) {
	sub, rj := s.bearerRejection(r)
	if rj != nil {
		rj.write(w)
		return
	}
	b, _ := json.MarshalIndent(map[string]any{
		"id": sub.UserID, "email": sub.Email, "verified_email": true,
		"picture": "https://lh3.googleusercontent.com/a/fake",
	}, "", "  ")
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_, _ = w.Write(b)
}

// requireIssued puts the Issuer in front of the Code Assist model
// endpoint: a token the fake issued must be unexpired; an unknown one
// falls through to the handler's own rule unless WithIssuedTokensOnly.
func (s *Server) requireIssued(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		tok := fakes.Bearer(r)
		if tok == "" {
			next(w, r)
			return
		}
		_, st := s.oauth.issuer.Check(tok)
		if st == fakes.Valid || st == fakes.Unknown && !s.oauth.strict {
			next(w, r)
			return
		}
		x, _ := s.newExchange(w, r, true)
		s.reject(x, unauthenticated("bearer token expired", msgCredsInvalid, "ACCESS_TOKEN_EXPIRED"))
	}
}
