package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"golang.org/x/oauth2"

	"maestro/backend/chat"
)

const (
	maxTokenBody   = 1 << 20
	maxErrorDetail = 200
	userAgent      = "Maestro"
)

// tokenResponse is the union of the three providers' token answers.
type tokenResponse struct {
	AccessToken  string      `json:"access_token"`
	RefreshToken string      `json:"refresh_token"`
	IDToken      string      `json:"id_token"`
	TokenType    string      `json:"token_type"`
	Scope        string      `json:"scope"`
	ExpiresIn    json.Number `json:"expires_in"`
	// Anthropic (docs/providers/anthropic.md §Sign-in: token exchange).
	Account *struct {
		UUID         string `json:"uuid"`
		EmailAddress string `json:"email_address"`
	} `json:"account"`
	Organization *struct {
		UUID string `json:"uuid"`
		Name string `json:"name"`
	} `json:"organization"`
}

// token converts the response; expiry comes from expires_in, else from
// fallback (e.g. the access token's JWT exp). A new ID token rides along
// as the "id_token" extra, the granted scope as "scope".
func (r *tokenResponse) token(now time.Time, fallback func(string) time.Time) *oauth2.Token {
	t := &oauth2.Token{AccessToken: r.AccessToken, RefreshToken: r.RefreshToken, TokenType: r.TokenType}
	if n, err := r.ExpiresIn.Int64(); err == nil && n > 0 {
		t.Expiry = now.Add(time.Duration(n) * time.Second)
	} else if fallback != nil {
		t.Expiry = fallback(r.AccessToken)
	}
	extra := map[string]any{}
	if r.IDToken != "" {
		extra["id_token"] = r.IDToken
	}
	if r.Scope != "" {
		extra["scope"] = r.Scope
	}
	if len(extra) > 0 {
		t = t.WithExtra(extra)
	}
	return t
}

// oauthError is a non-2xx answer from a token endpoint. It never holds the
// request or the raw body, only the error code and a bounded description.
type oauthError struct {
	Status      int
	Code        string
	Description string
}

func (e *oauthError) Error() string {
	s := "HTTP " + strconv.Itoa(e.Status)
	if e.Code != "" {
		s += " " + e.Code
	}
	if e.Description != "" {
		s += ": " + e.Description
	}
	return s
}

// parseOAuthError reads the error shapes providers use
// (docs/providers/README.md §Sign-in):
// {"error":"…","error_description":"…"}, {"error":{"code":…,"message":…}}
// and a top-level {"code":…}.
func parseOAuthError(status int, body []byte) *oauthError {
	e := &oauthError{Status: status}
	var v struct {
		Error       json.RawMessage `json:"error"`
		Description string          `json:"error_description"`
		Code        json.RawMessage `json:"code"`
		Message     string          `json:"message"`
	}
	if json.Unmarshal(body, &v) != nil {
		return e
	}
	var s string
	if json.Unmarshal(v.Error, &s) == nil {
		e.Code, e.Description = s, v.Description
	} else {
		var o struct {
			Code    json.RawMessage `json:"code"`
			Type    string          `json:"type"`
			Message string          `json:"message"`
			Status  string          `json:"status"`
		}
		if json.Unmarshal(v.Error, &o) == nil {
			e.Code, e.Description = rawString(o.Code), o.Message
			if e.Code == "" {
				e.Code = o.Type
			}
			if e.Code == "" {
				e.Code = o.Status
			}
		}
	}
	if e.Code == "" {
		e.Code = rawString(v.Code)
	}
	if e.Description == "" {
		e.Description = v.Message
	}
	e.Code = clean(e.Code, 64)
	e.Description = clean(e.Description, maxErrorDetail)
	return e
}

// rawString returns a JSON string's value, or a number's text, or "".
func rawString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// clean bounds server-provided text before it goes into an error message:
// printable characters only, at most n runes.
func clean(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return ' '
	}, s)
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > n {
		s = string(r[:n]) + "…"
	}
	return s
}

// Refresh failures that mean the refresh token is gone for good
// (docs/providers/README.md §Sign-in; docs/providers/openai.md §Sign-in:
// token refresh).
var permanentCodes = map[string]string{
	"invalid_grant":             "the saved sign-in has expired or was revoked",
	"refresh_token_expired":     "the saved sign-in has expired",
	"refresh_token_reused":      "the saved sign-in was already used to refresh once and cannot be used again",
	"refresh_token_invalidated": "the saved sign-in was revoked",
}

// refreshError classifies a failed refresh: a revoked, expired or reused
// refresh token (or, as Codex treats it, any 401) is a chat.ErrAuthRequired
// asking the user to sign in again; anything else is a
// chat.ErrUnavailable worth retrying later.
func refreshError(display string, err error) error {
	var oe *oauthError
	if errors.As(err, &oe) {
		why, ok := permanentCodes[oe.Code]
		if !ok && oe.Status == http.StatusUnauthorized {
			why, ok = "the sign-in server no longer accepts the saved sign-in", true
		}
		if ok {
			return chat.E(chat.ErrAuthRequired, "sign in to %s again: %s (%w)", display, why, oe)
		}
		return chat.E(chat.ErrUnavailable, "%s: refresh the sign-in: the sign-in server answered %w", display, oe)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return chat.E(chat.ErrUnavailable, "%s: refresh the sign-in: %w", display, err)
	}
	return chat.E(chat.ErrUnavailable, "%s: refresh the sign-in: could not reach the sign-in server: %w", display, err)
}

// exchangeError classifies a failed code exchange.
func exchangeError(display string, err error) error {
	var oe *oauthError
	if errors.As(err, &oe) {
		return chat.E(chat.ErrAuthRequired, "%s sign-in failed: the sign-in server refused the code (%w); try again", display, oe)
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	return chat.E(chat.ErrUnavailable, "%s sign-in failed: could not reach the sign-in server: %w", display, err)
}

// formBody encodes pairs in the given order (url.Values would sort them),
// spaces as %20.
func formBody(pairs ...[2]string) []byte {
	var b strings.Builder
	for i, p := range pairs {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(queryEscape(p[0]))
		b.WriteByte('=')
		b.WriteString(queryEscape(p[1]))
	}
	return []byte(b.String())
}

// queryEscape percent-encodes s for a query, with spaces as %20 as the
// reference clients send them.
func queryEscape(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}

// withQuery appends pairs, in order, to base as its query.
func withQuery(base string, pairs ...[2]string) string {
	return base + "?" + string(formBody(pairs...))
}

// postToken posts a token request and decodes the answer: the one code
// exchange and refresh of every sign-in (the providers' flows post their
// documented bodies; Client posts the standard form). A non-2xx answer is
// an *oauthError; a 2xx without an access token is an error too.
func postToken(ctx context.Context, hc *http.Client, endpoint, contentType string, body []byte) (*tokenResponse, error) {
	return postTokenAs(ctx, hc, endpoint, contentType, body, nil)
}

// postTokenAs is postToken with the client's credentials added by
// authenticate (nil for none).
func postTokenAs(ctx context.Context, hc *http.Client, endpoint, contentType string, body []byte,
	authenticate func(*http.Request)) (*tokenResponse, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("build token request: %w", err)
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", userAgent)
	if authenticate != nil {
		authenticate(req)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("post token request: %w", stripURL(err))
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxTokenBody))
	if err != nil {
		return nil, fmt.Errorf("read token response: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, parseOAuthError(resp.StatusCode, b)
	}
	var tr tokenResponse
	if err := json.Unmarshal(b, &tr); err != nil {
		// JSON under another media type is read all the same, as the
		// MCP sign-in always did; a page that is not JSON is named by
		// its type.
		if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "" && !strings.HasSuffix(mt, "json") {
			return nil, fmt.Errorf("token response is %s, not JSON", mt)
		}
		return nil, fmt.Errorf("decode token response: %w", err)
	}
	if tr.AccessToken == "" {
		return nil, errors.New("token response has no access_token")
	}
	return &tr, nil
}

// stripURL drops the URL from a *url.Error: a request URL can carry a
// code or key in its query, and errors must never hold one.
func stripURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s: %w", ue.Op, ue.Err)
	}
	return err
}
