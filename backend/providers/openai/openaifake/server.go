package openaifake

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"maestro/backend/providers/fakescript"
)

// The model endpoints the fake serves.
const (
	ChatGPTPath = "/backend-api/codex/responses"
	APIPath     = "/v1/responses"
)

// Server is a fake ChatGPT backend and Responses API. It is an
// http.Handler; use it with httptest.NewServer.
type Server struct {
	// Script holds the scripted replies and the request log.
	Script *fakescript.Script

	mux       *http.ServeMux
	accountID string
	token     string
	apiKey    string
	now       func() time.Time
	ids       atomic.Uint64
	oauth     *oauthState // the sign-in server (oauth.go)
}

// Option configures a Server.
type Option func(*Server)

// WithAccountID makes the backend require this chatgpt-account-id (any
// non-empty one by default).
func WithAccountID(id string) Option { return func(s *Server) { s.accountID = id } }

// WithToken makes the backend require this bearer; any other gets the
// expired-token 401 (any non-empty bearer by default).
func WithToken(tok string) Option { return func(s *Server) { s.token = tok } }

// WithAPIKey makes /v1/responses require this key (any non-empty one by
// default).
func WithAPIKey(key string) Option { return func(s *Server) { s.apiKey = key } }

// WithClock sets the clock used for created_at and reset times.
func WithClock(now func() time.Time) Option { return func(s *Server) { s.now = now } }

// New returns a fake with an empty script (every reply echoes).
func New(opts ...Option) *Server {
	s := &Server{Script: &fakescript.Script{}, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	// The one mux of the fake; mountOAuth adds the sign-in endpoints
	// (GET /oauth/authorize, POST /oauth/token, oauth.go).
	s.mux = http.NewServeMux()
	s.mux.Handle(fakescript.ControlPrefix, s.Script.ControlHandler())
	s.mountOAuth()
	s.mux.HandleFunc("POST "+ChatGPTPath, s.requireIssued(func(w http.ResponseWriter, r *http.Request) { s.model(w, r, true) }))
	s.mux.HandleFunc("POST "+APIPath, func(w http.ResponseWriter, r *http.Request) { s.model(w, r, false) })
	s.mux.HandleFunc("GET "+ChatGPTModelsPath, s.requireIssued(s.codexModels))
	s.mux.HandleFunc("GET "+APIModelsPath, s.apiModels)
	s.mux.HandleFunc("/", s.notFound)
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

func record(r *http.Request, body []byte) fakescript.Recorded {
	rec := fakescript.Recorded{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header}
	switch {
	case len(body) == 0:
	case json.Valid(body):
		rec.Body = body
	default:
		rec.Body, _ = json.Marshal(string(body)) // keep the log valid JSON
	}
	return rec
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	s.reject(w, record(r, body), &rejection{status: http.StatusNotFound, body: `{"detail":"Not Found"}`, rule: "unknown endpoint"})
}

func (s *Server) reject(w http.ResponseWriter, rec fakescript.Recorded, rej *rejection) {
	rec.Status, rec.Rejection = rej.status, rej.rule
	s.Script.Record(rec)
	writeJSON(w, rej.status, rej.body)
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// model serves POST /backend-api/codex/responses (chatgpt) and
// POST /v1/responses.
func (s *Server) model(w http.ResponseWriter, r *http.Request, chatgpt bool) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	rec := record(r, body)
	if err != nil {
		s.reject(w, rec, detail("request body unreadable", "Could not read the request body"))
		return
	}
	if rej := s.checkAuth(r, chatgpt); rej != nil {
		s.reject(w, rec, rej)
		return
	}
	var model struct {
		Model string `json:"model"`
	}
	if json.Unmarshal(body, &model) == nil && model.Model != "" {
		if rej := s.checkModel(model.Model, r.Header.Get("Version"), chatgpt); rej != nil {
			s.reject(w, rec, rej)
			return
		}
	}
	p, rej := checkBody(body, chatgpt)
	if rej != nil {
		s.reject(w, rec, rej)
		return
	}
	p.inputTokens = fakescript.CountJSON(body)
	if window := s.Script.Window(entryFor(p.model, 0).window); window > 0 && p.inputTokens > window {
		s.tooLong(w, r, rec, p, chatgpt)
		return
	}
	s.reply(w, r, rec, p, chatgpt)
}

// tooLong refuses a prompt over the model's context window (the Script's
// window when a test set one) as the real service does
// (docs/providers/openai.md §Errors): the API with a 400
// context_length_exceeded, the ChatGPT backend with response.failed inside
// a 200 stream. Either way the request is logged as refused.
func (s *Server) tooLong(w http.ResponseWriter, r *http.Request, rec fakescript.Recorded, p *parsed, chatgpt bool) {
	const rule = "context: input over the window"
	if !chatgpt {
		s.reject(w, rec, &rejection{status: http.StatusBadRequest, rule: rule, body: msgContextLengthExceeded})
		return
	}
	rec.Status, rec.Rejection = http.StatusOK, rule
	s.Script.Record(rec)
	st := s.startStream(w, r, fakescript.Reply{}, p, chatgpt)
	st.fail("context_too_large")
}

// checkAuth enforces the bearer (and, on the backend, the account id).
func (s *Server) checkAuth(r *http.Request, chatgpt bool) *rejection {
	scheme, tok, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	tok = strings.TrimSpace(tok)
	if !strings.EqualFold(scheme, "Bearer") || tok == "" {
		if chatgpt {
			return &rejection{status: http.StatusUnauthorized, rule: "bearer token required",
				body: `{"error":{"message":"Missing bearer or basic authentication in header","type":"invalid_request_error","param":null,"code":null}}`}
		}
		return &rejection{status: http.StatusUnauthorized, rule: "api key required",
			body: `{"error":{"message":"You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (i.e. Authorization: YOUR_KEY:). You can obtain an API key from https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":null}}`}
	}
	if !chatgpt {
		if s.apiKey != "" && tok != s.apiKey {
			return invalidAPIKey(tok)
		}
		return nil
	}
	if s.token != "" && tok != s.token {
		return expiredToken()
	}
	acct := r.Header.Get("Chatgpt-Account-Id")
	if acct == "" || s.accountID != "" && acct != s.accountID {
		// [unconfirmed] the backend's exact answer to a missing or foreign
		// account id is not documented.
		return &rejection{status: http.StatusForbidden, body: `{"detail":"Forbidden"}`,
			rule: "chatgpt-account-id must match the token's account"}
	}
	return nil
}

func expiredToken() *rejection {
	return &rejection{status: http.StatusUnauthorized, rule: "bearer token must be current",
		body: `{"error":{"message":"Provided authentication token is expired. Please try signing in again.","type":"invalid_request_error","param":null,"code":"token_expired"},"status":401}`}
}

func invalidAPIKey(key string) *rejection {
	shown := key
	if len(shown) > 8 {
		shown = shown[:3] + strings.Repeat("*", 8) + shown[len(shown)-4:]
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": fmt.Sprintf("Incorrect API key provided: %s. You can find your API key at https://platform.openai.com/account/api-keys.", shown),
		"type":    "invalid_request_error", "param": nil, "code": "invalid_api_key"}})
	return &rejection{status: http.StatusUnauthorized, body: string(b), rule: "api key must match"}
}

// id mints a deterministic id with an OpenAI-style prefix.
func (s *Server) id(prefix string) string {
	return fmt.Sprintf("%s_fake%020d", prefix, s.ids.Add(1))
}
