// Package anthropicfake is an in-process fake of Anthropic's Messages API
// and model list (docs/providers/anthropic.md, "What the fake enforces") for
// tests and the end-to-end harness.
//
// It enforces what the real service enforces on POST /v1/messages — the
// headers and credentials of the OAuth and API-key modes, the Claude Code
// system line for subscription tokens, required body fields, the served
// model and its output limit, sampling parameters on models that refuse
// them, the tool-name pattern, role alternation, tool_use/tool_result
// pairing and ordering, thinking rules and signatures, and where
// cache_control may go and how often — and answers a rejected request with
// the real status and error body. A valid request gets a streamed reply
// built from the shared fakescript.Script: thinking, text, tool calls, or an
// injected failure. Every request is recorded in the Script with its
// outcome. GET /v1/models lists the served models (Script.Models, with
// DefaultModels) in the real shape, paged.
//
// A gate mode (WithGate, POST /_fake/gate) answers every valid OAuth
// request with one of the 2026 subscription gates, so the app's handling
// of them can be tested end to end.
//
// Thinking signatures are the fake's own (Signature): a replayed thinking
// block must carry the signature the fake produced for exactly that text,
// as the real service requires of its signatures. Scripted thinking is
// streamed whether or not the request enabled thinking, so a script need
// not match the request. The "429" and "usage_limit" errors carry
// retry-after and the unified rate-limit headers with status "rejected";
// "stream_error" sends an overloaded_error event inside a 200 stream.
//
// Concurrency: a Server is safe for concurrent use. Its configuration is
// fixed by New, except the gate mode, which its own lock guards; the Script
// has its own lock; the id counter is atomic.
package anthropicfake

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"maestro/backend/providers/fakescript"
)

// Constants the real service checks (docs/providers/anthropic.md). They are
// repeated here rather than imported so the fake checks the adapter
// independently.
const (
	ClaudeCodeSystem = "You are Claude Code, Anthropic's official CLI for Claude."
	BetaOAuth        = "oauth-2025-04-20"

	MsgClaudeCodeOnly   = "This credential is only authorized for use with Claude Code and cannot be used for other API requests."
	MsgOAuthUnsupported = "OAuth authentication is currently not supported."
	MsgTokenExpired     = "OAuth token has expired. Please obtain a new token or refresh your existing token."
	MsgNoAPIKey         = "x-api-key header is required"
	MsgBadAPIKey        = "invalid x-api-key"
	MsgNoVersion        = "anthropic-version: header is required"
	MsgRateLimited      = "This request would exceed your account's rate limit. Please try again later."
	MsgPromptTooLong    = "prompt is too long: 215000 tokens > 200000 maximum"
	// MsgPromptTooLongFormat and MsgContextLimitFormat are the two
	// refusals of a prompt that does not fit the window, with the prompt's
	// tokens, (max_tokens,) and the window.
	MsgPromptTooLongFormat = "prompt is too long: %d tokens > %d maximum"
	MsgContextLimitFormat  = "input length and `max_tokens` exceed context limit: %d + %d > %d, decrease input length or `max_tokens` and try again"
)

// maxBody bounds a request body, like the real 32 MB request limit.
const maxBody = 32 << 20

// Server is the fake. Build it with New and serve it with httptest.
type Server struct {
	// Script holds the scripted replies and the request log.
	Script *fakescript.Script

	token  string
	apiKey string
	now    func() time.Time
	mux    *http.ServeMux
	seq    atomic.Int64
	oauth  *oauthState // the sign-in server (oauth.go)
	gate   gateState   // the subscription gate mode (gate.go)
}

// Option configures a Server.
type Option func(*Server)

// WithToken makes the fake accept only this OAuth bearer token; any other
// gets the real expired-token 401. By default any non-empty token passes.
func WithToken(tok string) Option { return func(s *Server) { s.token = tok } }

// WithAPIKey makes the fake accept only this x-api-key; any other gets 401
// "invalid x-api-key". By default any non-empty key passes.
func WithAPIKey(key string) Option { return func(s *Server) { s.apiKey = key } }

// WithScript shares a Script, e.g. with a harness that drives several fakes.
func WithScript(sc *fakescript.Script) Option {
	return func(s *Server) {
		if sc != nil {
			s.Script = sc
		}
	}
}

// WithClock sets the clock used for rate-limit reset times.
func WithClock(now func() time.Time) Option { return func(s *Server) { s.now = now } }

// New returns a fake with an empty Script.
func New(opts ...Option) *Server {
	s := &Server{Script: &fakescript.Script{}, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	s.mux = http.NewServeMux()
	s.routes()
	return s
}

// routes mounts every endpoint; mountOAuth adds the sign-in endpoints
// (oauth.go).
func (s *Server) routes() {
	s.mux.Handle(fakescript.ControlPrefix, s.Script.ControlHandler())
	s.mountOAuth()
	s.mux.HandleFunc("POST "+fakescript.ControlPrefix+"gate", s.gateControl)
	s.mux.HandleFunc("POST /v1/messages", s.requireIssued(s.messages))
	s.mux.HandleFunc("GET /v1/models", s.requireIssued(s.listModels))
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, http.StatusNotFound, "not_found_error", "Not Found", nil)
	})
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Signature is the signature the fake gives a thinking block with this
// text, and the only one it accepts when the block is replayed.
func Signature(thinking string) string {
	sum := sha256.Sum256([]byte("anthropicfake thinking\x00" + thinking))
	return "Eq" + base64.StdEncoding.EncodeToString(sum[:])
}

// rejection is a request the real service would refuse.
type rejection struct {
	status  int
	errType string
	message string
	rule    string // short name of the rule, for the request log
}

func (s *Server) messages(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	rec := fakescript.Recorded{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header, Body: recordBody(body)}
	if err != nil {
		rec.Status, rec.Rejection = http.StatusBadRequest, "body: "+err.Error()
		s.Script.Record(rec)
		s.writeError(w, http.StatusBadRequest, "invalid_request_error", "could not read the request body", nil)
		return
	}
	req, rej := s.check(r, body)
	if rej != nil {
		rec.Status, rec.Rejection = rej.status, rej.rule
		s.Script.Record(rec)
		s.writeError(w, rej.status, rej.errType, rej.message, nil)
		return
	}
	reply := s.Script.NextFor(req.lastUserText())
	rec.Status = replyStatus(reply)
	s.Script.Record(rec)
	s.reply(w, r, req, reply)
}

func recordBody(body []byte) json.RawMessage {
	if json.Valid(body) {
		return body
	}
	b, _ := json.Marshal(string(body))
	return b
}

func (s *Server) requestID() string { return fmt.Sprintf("req_fake%014d", s.seq.Add(1)) }

// writeError writes the real error envelope (docs/providers/anthropic.md,
// "Errors").
func (s *Server) writeError(w http.ResponseWriter, status int, typ, msg string, h http.Header) {
	id := s.requestID()
	for k, vs := range h {
		w.Header()[k] = vs
	}
	w.Header().Set("content-type", "application/json")
	w.Header().Set("request-id", id)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"type":       "error",
		"error":      map[string]string{"type": typ, "message": msg},
		"request_id": id,
	})
}
