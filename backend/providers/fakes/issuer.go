package fakes

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"
)

// ControlPrefix is where an Issuer's ControlHandler is mounted on every
// provider fake (inside the fake.ControlPrefix namespace).
const ControlPrefix = "/_fake/oauth/"

// Default lifetimes.
const (
	DefaultAccessTTL = time.Hour
	codeTTL          = 10 * time.Minute
)

// OAuth error codes an Issuer reports. The first four are RFC 6749's; the
// refresh_token_* ones are OpenAI's (docs/providers/openai.md §Sign-in:
// token refresh), which the other fakes turn into invalid_grant.
const (
	CodeInvalidRequest  = "invalid_request"
	CodeInvalidClient   = "invalid_client"
	CodeInvalidGrant    = "invalid_grant"
	CodeAccessDenied    = "access_denied"
	CodeRefreshReused   = "refresh_token_reused"
	CodeRefreshRevoked  = "refresh_token_invalidated"
	CodeRefreshExpired  = "refresh_token_expired"
	CodeUnsupportedType = "unsupported_grant_type"
)

// Error is a refused authorize or token request: the OAuth error code, a
// description a real server might give, and the rule the fake enforced.
type Error struct {
	Code        string
	Description string
}

func (e *Error) Error() string { return e.Code + ": " + e.Description }

func fail(code, desc string) *Error { return &Error{Code: code, Description: desc} }

// Subject is who a token was issued to. The fakes fill what their provider
// reports: an email everywhere, the ChatGPT account, user and plan, the
// Anthropic organization.
type Subject struct {
	Email     string `json:"email,omitempty"`
	UserID    string `json:"userId,omitempty"`
	AccountID string `json:"accountId,omitempty"`
	Plan      string `json:"plan,omitempty"`
	OrgID     string `json:"orgId,omitempty"`
	OrgName   string `json:"orgName,omitempty"`
}

// Grant is what an authorize request approved; its code redeems it once.
type Grant struct {
	ClientID    string
	RedirectURI string
	Scope       string
	State       string
	// Challenge is the S256 code_challenge ("" when the client sent none;
	// the token request must then send no verifier).
	Challenge string
	Subject   Subject
	// Offline records Google's access_type=offline: only then does the
	// code exchange hand out a refresh token.
	Offline bool
}

// Tokens is one token response's worth of credentials.
type Tokens struct {
	Access  string
	Refresh string // "" when the refresh did not rotate it
	Expiry  time.Time
	// ExpiresIn is the lifetime in whole seconds, as sent on the wire.
	ExpiresIn int
	Scope     string
	Subject   Subject
}

// Status is what Check says about an access token.
type Status int

const (
	// Unknown: not issued by this Issuer.
	Unknown Status = iota
	// Valid: issued and not expired.
	Valid
	// Expired: issued, but expired (or expired by ExpireAll).
	Expired
)

// Config configures an Issuer.
type Config struct {
	// AccessTTL is the access-token lifetime (default DefaultAccessTTL).
	AccessTTL time.Duration
	// Rotate makes every refresh issue a new refresh token and retire the
	// old one (OpenAI, Anthropic). Google keeps the refresh token.
	Rotate bool
	// MintAccess and MintRefresh make token strings in the provider's
	// shape; the defaults are random text.
	MintAccess  func(s Subject, scope string, exp time.Time) string
	MintRefresh func() string
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Stats counts requests the Issuer has seen, failed ones included.
type Stats struct {
	Authorizations int `json:"authorizations"`
	CodeExchanges  int `json:"codeExchanges"`
	Refreshes      int `json:"refreshes"`
	AccessChecks   int `json:"accessChecks"`
	// Live counts access tokens that are still valid.
	Live int `json:"live"`
	// LastAuthorize is the query of the last authorize request.
	LastAuthorize string `json:"lastAuthorize,omitempty"`
}

type pendingCode struct {
	grant   Grant
	expires time.Time
}

type accessInfo struct {
	subject Subject
	expiry  time.Time
}

type refreshInfo struct {
	subject  Subject
	scope    string
	clientID string
	used     bool // rotated away: presenting it again is reuse
	revoked  bool
}

// Issuer is a fake authorization server's state. Build it with NewIssuer.
type Issuer struct {
	mu      sync.Mutex
	cfg     Config
	codes   map[string]*pendingCode
	access  map[string]*accessInfo
	refresh map[string]*refreshInfo
	secrets []string // every code and token issued, for leak tests
	stats   Stats
}

// NewIssuer returns an Issuer with cfg's defaults filled in.
func NewIssuer(cfg Config) *Issuer {
	if cfg.AccessTTL <= 0 {
		cfg.AccessTTL = DefaultAccessTTL
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MintAccess == nil {
		cfg.MintAccess = func(Subject, string, time.Time) string { return "at-" + rand.Text() }
	}
	if cfg.MintRefresh == nil {
		cfg.MintRefresh = func() string { return "rt-" + rand.Text() }
	}
	return &Issuer{
		cfg:     cfg,
		codes:   map[string]*pendingCode{},
		access:  map[string]*accessInfo{},
		refresh: map[string]*refreshInfo{},
	}
}

// NoteAuthorize counts an authorize request and keeps its query for Stats.
func (i *Issuer) NoteAuthorize(rawQuery string) {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.stats.Authorizations++
	i.stats.LastAuthorize = rawQuery
}

// Authorize approves g and returns the code that redeems it.
func (i *Issuer) Authorize(g Grant) string {
	code := "code-" + rand.Text()
	i.mu.Lock()
	defer i.mu.Unlock()
	i.codes[code] = &pendingCode{grant: g, expires: i.cfg.Now().Add(codeTTL)}
	i.secrets = append(i.secrets, code)
	return code
}

// verifierPattern is RFC 7636's code_verifier syntax.
var verifierPattern = regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`)

// Redeem checks a code exchange and consumes the code: it must be known,
// unexpired and unused, for the same client and redirect URI, and verifier
// must hash to the recorded challenge. The code is spent even when the
// check fails, as real servers do.
func (i *Issuer) Redeem(code, clientID, redirectURI, verifier string) (Grant, *Error) {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.stats.CodeExchanges++
	p, ok := i.codes[code]
	if code == "" || !ok {
		return Grant{}, fail(CodeInvalidGrant, "Invalid authorization code.")
	}
	delete(i.codes, code)
	g := p.grant
	switch {
	case i.cfg.Now().After(p.expires):
		return Grant{}, fail(CodeInvalidGrant, "The authorization code has expired.")
	case clientID != g.ClientID:
		return Grant{}, fail(CodeInvalidGrant, "The authorization code was issued to another client.")
	case redirectURI != g.RedirectURI:
		return Grant{}, fail(CodeInvalidGrant, "The redirect_uri does not match the authorization request.")
	case g.Challenge == "" && verifier != "":
		return Grant{}, fail(CodeInvalidGrant, "code_verifier sent, but the authorization request had no code_challenge.")
	case g.Challenge != "" && verifier == "":
		return Grant{}, fail(CodeInvalidRequest, "Missing code_verifier.")
	case g.Challenge != "" && !verifierPattern.MatchString(verifier):
		return Grant{}, fail(CodeInvalidGrant, "The code_verifier is malformed.")
	case g.Challenge != "" && S256(verifier) != g.Challenge:
		return Grant{}, fail(CodeInvalidGrant, "The code_verifier does not match the code_challenge.")
	}
	return g, nil
}

// Issue mints an access token and a refresh token for sub.
func (i *Issuer) Issue(clientID string, sub Subject, scope string) Tokens {
	i.mu.Lock()
	defer i.mu.Unlock()
	t := i.mintLocked(sub, scope)
	t.Refresh = i.cfg.MintRefresh()
	i.refresh[t.Refresh] = &refreshInfo{subject: sub, scope: scope, clientID: clientID}
	i.secrets = append(i.secrets, t.Refresh)
	return t
}

func (i *Issuer) mintLocked(sub Subject, scope string) Tokens {
	exp := i.cfg.Now().Add(i.cfg.AccessTTL).Truncate(time.Second)
	tok := i.cfg.MintAccess(sub, scope, exp)
	i.access[tok] = &accessInfo{subject: sub, expiry: exp}
	i.secrets = append(i.secrets, tok)
	return Tokens{Access: tok, Expiry: exp, ExpiresIn: int(i.cfg.AccessTTL / time.Second), Scope: scope, Subject: sub}
}

// Refresh redeems a refresh token for a new access token (and, when the
// Issuer rotates, a new refresh token; the old one is then spent and its
// reuse is refused with CodeRefreshReused).
func (i *Issuer) Refresh(refresh, clientID string) (Tokens, *Error) {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.stats.Refreshes++
	r, ok := i.refresh[refresh]
	switch {
	case refresh == "" || !ok:
		return Tokens{}, fail(CodeInvalidGrant, "The refresh token is invalid.")
	case r.revoked:
		return Tokens{}, fail(CodeRefreshRevoked, "The refresh token has been revoked.")
	case r.used:
		return Tokens{}, fail(CodeRefreshReused, "The refresh token has already been used.")
	case clientID != r.clientID:
		return Tokens{}, fail(CodeInvalidGrant, "The refresh token was issued to another client.")
	}
	t := i.mintLocked(r.subject, r.scope)
	if i.cfg.Rotate {
		r.used = true
		t.Refresh = i.cfg.MintRefresh()
		i.refresh[t.Refresh] = &refreshInfo{subject: r.subject, scope: r.scope, clientID: clientID}
		i.secrets = append(i.secrets, t.Refresh)
	}
	return t, nil
}

// Check says whether access is a token this Issuer issued and whether it
// is still valid, and whom it was issued to.
func (i *Issuer) Check(access string) (Subject, Status) {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.stats.AccessChecks++
	a, ok := i.access[access]
	switch {
	case !ok:
		return Subject{}, Unknown
	case !i.cfg.Now().Before(a.expiry):
		return a.subject, Expired
	}
	return a.subject, Valid
}

// ExpireAll makes every access token issued so far expired.
func (i *Issuer) ExpireAll() {
	i.mu.Lock()
	defer i.mu.Unlock()
	past := i.cfg.Now().Add(-time.Second)
	for _, a := range i.access {
		a.expiry = past
	}
}

// RevokeAll revokes every refresh token issued so far.
func (i *Issuer) RevokeAll() {
	i.mu.Lock()
	defer i.mu.Unlock()
	for _, r := range i.refresh {
		r.revoked = true
	}
}

// SetAccessTTL changes the lifetime of tokens issued from now on.
func (i *Issuer) SetAccessTTL(d time.Duration) {
	if d <= 0 {
		return
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	i.cfg.AccessTTL = d
}

// Stats returns the counters.
func (i *Issuer) Stats() Stats {
	i.mu.Lock()
	defer i.mu.Unlock()
	s := i.stats
	now := i.cfg.Now()
	for _, a := range i.access {
		if now.Before(a.expiry) {
			s.Live++
		}
	}
	return s
}

// Secrets returns every code and token the Issuer has handed out, so a
// test can assert that none of them reached a log line or an error.
func (i *Issuer) Secrets() []string {
	i.mu.Lock()
	defer i.mu.Unlock()
	return append([]string(nil), i.secrets...)
}

// ControlHandler serves, under ControlPrefix:
//
//	GET  /_fake/oauth/state   Stats, as JSON
//	POST /_fake/oauth/expire  expire every access token issued so far
//	POST /_fake/oauth/revoke  revoke every refresh token issued so far
//	POST /_fake/oauth/config  {"accessTokenTTLSeconds": n} for new tokens
func (i *Issuer) ControlHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+ControlPrefix+"state", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(i.Stats())
	})
	mux.HandleFunc("POST "+ControlPrefix+"expire", func(w http.ResponseWriter, r *http.Request) {
		i.ExpireAll()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST "+ControlPrefix+"revoke", func(w http.ResponseWriter, r *http.Request) {
		i.RevokeAll()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST "+ControlPrefix+"config", func(w http.ResponseWriter, r *http.Request) {
		var c struct {
			AccessTokenTTLSeconds int `json:"accessTokenTTLSeconds"`
		}
		if err := json.NewDecoder(r.Body).Decode(&c); err != nil {
			http.Error(w, "config: "+err.Error(), http.StatusBadRequest)
			return
		}
		i.SetAccessTTL(time.Duration(c.AccessTokenTTLSeconds) * time.Second)
		w.WriteHeader(http.StatusNoContent)
	})
	return mux
}

// S256 is the PKCE S256 challenge of verifier:
// base64url-without-padding(SHA-256(verifier)).
func S256(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// JWT returns an unsigned-in-spirit JWT: a header, claims, and a random
// signature, all base64url without padding. Clients decode the claims
// without verifying (docs/providers/openai.md §Sign-in: token exchange), and
// so does nothing else here.
func JWT(claims any) string {
	h, _ := json.Marshal(map[string]string{"alg": "RS256", "typ": "JWT", "kid": "maestro-fake"})
	c, _ := json.Marshal(claims)
	sig := make([]byte, 32)
	_, _ = rand.Read(sig)
	enc := base64.RawURLEncoding
	return enc.EncodeToString(h) + "." + enc.EncodeToString(c) + "." + enc.EncodeToString(sig)
}

// Bearer returns the token of an "Authorization: Bearer …" header, or "".
func Bearer(r *http.Request) string {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(tok)
}
