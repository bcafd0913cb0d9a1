package geminifake

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"

	"maestro/backend/providers/fakescript"
)

// Paths the fake serves besides fakescript.ControlPrefix.
const (
	CodeAssistPath = "/v1internal:streamGenerateContent"
	APIKeyPrefix   = "/v1beta/models/"
	streamMethod   = ":streamGenerateContent"
)

// Server is the fake. Mount it with httptest.NewServer(s).
type Server struct {
	// Script holds the scripted replies and the request log.
	Script *fakescript.Script

	mux     *http.ServeMux
	token   string   // expected bearer token; "" accepts any
	apiKey  string   // expected API key; "" accepts any
	project string   // expected Code Assist project; "" accepts any
	models  []string // default served list; nil: DefaultModels
	schema  schema
	traces  atomic.Uint64
	oauth   *oauthState // sign-in and Code Assist setup (oauth.go, codeassist.go)
}

// Option configures a Server.
type Option func(*Server)

// WithToken makes the Code Assist endpoint accept only this bearer token;
// any other gets the real 401 UNAUTHENTICATED body.
func WithToken(tok string) Option { return func(s *Server) { s.token = tok } }

// WithAPIKey makes the public endpoint accept only this key; any other gets
// the real 400 API_KEY_INVALID body.
func WithAPIKey(key string) Option { return func(s *Server) { s.apiKey = key } }

// WithProject makes Code Assist accept only this project (403 otherwise).
func WithProject(id string) Option { return func(s *Server) { s.project = id } }

// WithModels sets the models the fake serves by default (DefaultModels
// otherwise); Script.SetModels overrides it at run time.
func WithModels(names ...string) Option {
	return func(s *Server) { s.models = append([]string{}, names...) }
}

// WithScript shares a script (default: a new one).
func WithScript(sc *fakescript.Script) Option { return func(s *Server) { s.Script = sc } }

// New returns a fake with its routes mounted. All routes live in this one
// mux, so OAuth endpoints (loadCodeAssist, onboardUser, token) can join it.
func New(opts ...Option) *Server {
	s := &Server{schema: newSchema()}
	for _, o := range opts {
		o(s)
	}
	if s.Script == nil {
		s.Script = &fakescript.Script{}
	}
	s.mux = http.NewServeMux()
	s.mux.Handle(fakescript.ControlPrefix, s.Script.ControlHandler())
	s.mountOAuth()
	s.mux.HandleFunc("POST "+CodeAssistPath, s.requireIssued(s.codeAssist))
	s.mux.HandleFunc("POST "+UserQuotaPath, s.requireIssued(s.retrieveUserQuota))
	s.mux.HandleFunc("GET "+ModelsPath, s.listModels)
	s.mux.HandleFunc("POST "+APIKeyPrefix+"{method}", s.public)
	s.mux.HandleFunc("/", s.notFound)
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// exchange is one model request being answered.
type exchange struct {
	w          http.ResponseWriter
	r          *http.Request
	rec        fakescript.Recorded
	codeAssist bool
	model      string
	// inputTokens is the prompt's size as the fake counts it
	// (fakescript.CountJSON).
	inputTokens int
}

func (s *Server) newExchange(w http.ResponseWriter, r *http.Request, codeAssist bool) (*exchange, []byte) {
	limit := maxPublicBody
	if codeAssist {
		limit = maxCodeAssistBody
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, int64(limit)+1))
	rec := fakescript.Recorded{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header}
	if json.Valid(body) {
		rec.Body = append(json.RawMessage(nil), body...)
	} else if len(body) > 0 {
		rec.Body, _ = json.Marshal(string(body))
	}
	return &exchange{w: w, r: r, rec: rec, codeAssist: codeAssist}, body
}

// reject answers with rj and logs the request with its rule.
func (s *Server) reject(x *exchange, rj *rejection) {
	x.rec.Status, x.rec.Rejection = rj.err.Code, rj.rule
	s.Script.Record(x.rec)
	rj.write(x.w)
}

func (s *Server) codeAssist(w http.ResponseWriter, r *http.Request) {
	x, body := s.newExchange(w, r, true)
	if rj := s.tokenRejection(r); rj != nil {
		s.reject(x, rj)
		return
	}
	if len(body) > maxCodeAssistBody {
		s.reject(x, payloadTooLarge(maxCodeAssistBody))
		return
	}
	tree, rj := s.decode(r, body, "envelope")
	if rj != nil {
		s.reject(x, wrap(rj))
		return
	}
	var env caEnvelope
	if rj := decodeInto(tree, &env); rj != nil {
		s.reject(x, wrap(rj))
		return
	}
	switch {
	case env.Project == "":
		s.reject(x, wrap(invalid("project required", msgInvalidArg)))
		return
	case s.project != "" && env.Project != s.project:
		s.reject(x, projectDenied(env.Project))
		return
	case env.Request == nil:
		s.reject(x, wrap(protoInvalid("request required", "request", "request is not specified")))
		return
	case !s.served(env.Model, true):
		s.reject(x, wrap(notFound("model not served", msgEntityNotFound)))
		return
	}
	x.model = env.Model
	rawReq := tree.(map[string]any)["request"].(map[string]any)
	s.serve(x, env.Request, rawReq)
}

// tokenRejection checks the Code Assist bearer token: present, and the
// configured one when WithToken was given.
func (s *Server) tokenRejection(r *http.Request) *rejection {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	switch {
	case !ok || strings.TrimSpace(tok) == "":
		return unauthenticated("bearer token required", msgCredsMissing, "CREDENTIALS_MISSING")
	case s.token != "" && tok != s.token:
		return unauthenticated("bearer token invalid", msgCredsInvalid, "ACCESS_TOKEN_EXPIRED")
	}
	return nil
}

// projectDenied is Code Assist's answer for a project the account may not
// use.
func projectDenied(project string) *rejection {
	return &rejection{rule: "unknown project", err: apiError{Code: 403, Status: "PERMISSION_DENIED",
		Message: "Permission 'cloudaicompanion.companions.generateChat' denied on resource '//cloudaicompanion.googleapis.com/projects/" +
			project + "/locations/global' (or it may not exist).",
		Details: []detail{errorInfo("IAM_PERMISSION_DENIED", "cloudaicompanion.googleapis.com", nil)}}}
}

func (s *Server) public(w http.ResponseWriter, r *http.Request) {
	x, body := s.newExchange(w, r, false)
	model, ok := strings.CutSuffix(r.PathValue("method"), streamMethod)
	if !ok {
		s.notFound(w, r)
		return
	}
	if rj := s.apiKeyRejection(r); rj != nil {
		s.reject(x, rj)
		return
	}
	if len(body) > maxPublicBody {
		s.reject(x, payloadTooLarge(maxPublicBody))
		return
	}
	tree, rj := s.decode(r, body, "request")
	if rj != nil {
		s.reject(x, rj)
		return
	}
	if !s.served(model, false) {
		// The Gemini API's 404 has no legacy "errors" list.
		s.reject(x, &rejection{rule: "model not served", err: apiError{Code: 404, Status: "NOT_FOUND",
			Message: "models/" + model + " is not found for API version v1beta, or is not supported for generateContent. " +
				"Call ListModels to see the list of available models and their supported methods."}})
		return
	}
	var req request
	if rj := decodeInto(tree, &req); rj != nil {
		s.reject(x, rj)
		return
	}
	x.model = model
	s.serve(x, &req, tree.(map[string]any))
}

// apiKeyRejection checks the Gemini API key (header or ?key=).
func (s *Server) apiKeyRejection(r *http.Request) *rejection {
	key := r.Header.Get("X-Goog-Api-Key")
	if key == "" {
		key = r.URL.Query().Get("key")
	}
	switch {
	case key == "":
		return &rejection{rule: "api key required", err: apiError{Code: 403, Status: "PERMISSION_DENIED", Message: msgUnregistered,
			Details: []detail{errorInfo("SERVICE_DISABLED", "googleapis.com", map[string]string{"service": publicService})}}}
	case s.apiKey != "" && key != s.apiKey:
		return apiKeyInvalid("api key invalid", msgKeyInvalid)
	}
	return nil
}

// decode checks transport-level rules (alt=sse, JSON content) and the
// field names, returning the normalized body.
func (s *Server) decode(r *http.Request, body []byte, typ string) (any, *rejection) {
	if r.URL.Query().Get("alt") != "sse" {
		return nil, invalid("alt=sse required", "fake: only alt=sse streaming is implemented; add ?alt=sse")
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return nil, invalid("content-type must be application/json", "Invalid JSON payload received. Unexpected token.\n%s", firstLine(body))
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, invalid("malformed JSON", "Invalid JSON payload received. Unexpected token.\n%s", firstLine(body))
	}
	if _, ok := tree.(map[string]any); !ok {
		return nil, invalid("malformed JSON", "Invalid JSON payload received. Expected an object.")
	}
	return s.schema.normalize(typ, tree, "")
}

// serve validates the content rules and streams the scripted reply.
func (s *Server) serve(x *exchange, req *request, raw map[string]any) {
	rawTools, _ := raw["tools"].([]any)
	def := definition(x.model)
	rj := validate(req, rawTools, def, x.codeAssist)
	x.inputTokens = fakescript.CountJSON(x.rec.Body)
	if window := s.Script.Window(def.input); rj == nil && window > 0 && x.inputTokens > window {
		// docs/providers/gemini.md §Errors: Code Assist's array form has
		// the legacy errors list, the Gemini API's answer does not.
		rj = invalid("context: input over the window", msgTooManyTokensFormat, x.inputTokens, window)
		if !x.codeAssist {
			rj.err.Errors = nil
		}
	}
	if rj != nil {
		if x.codeAssist {
			rj = wrap(rj)
		}
		s.reject(x, rj)
		return
	}
	s.reply(x, req, s.Script.NextFor(lastUserText(req.Contents)))
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	x, _ := s.newExchange(w, r, false)
	s.reject(x, &rejection{rule: "unknown path", err: apiError{Code: 404, Status: "NOT_FOUND",
		Message: "The requested URL " + r.URL.Path + " was not found on this server."}})
}

// wrap marks a service error for the Code Assist array form.
func wrap(rj *rejection) *rejection {
	rj.wrapped = true
	return rj
}

func firstLine(b []byte) string {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	if len(line) > 80 {
		line = line[:80]
	}
	return string(line)
}
