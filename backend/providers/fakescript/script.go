// Package fakescript holds what the three provider fakes share: the scenario
// script of scripted replies, the request recorder, and the control endpoints
// the end-to-end harness uses to drive a fake running in another process.
// (The sign-in side they share, the OAuth issuer, is backend/providers/fakes.)
//
// Concurrency: a Script is safe for concurrent use; mu guards the reply
// queue and the recorded requests.
package fakescript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// Reply is one scripted model reply. The zero Reply echoes the last user
// text, so an unscripted fake still answers.
type Reply struct {
	Thinking  string     `json:"thinking,omitempty"`
	Text      string     `json:"text,omitempty"`
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// Error makes the reply a failure instead: "401" (expired token),
	// "429" (rate limit, with RetryAfter), "529" (overloaded),
	// "usage_limit" (quota with a reset time), "context_too_large",
	// "server" (500), or "stream_error" (an error event inside a 200 stream).
	Error string `json:"error,omitempty"`
	// RetryAfter is sent with rate limits, in seconds.
	RetryAfter int `json:"retryAfter,omitempty"`
	// DisconnectAfter cuts the connection after that many events, without
	// the stream's terminal event.
	DisconnectAfter int `json:"disconnectAfter,omitempty"`
	// ChunkRunes splits text into deltas of this many runes (default 8).
	ChunkRunes int `json:"chunkRunes,omitempty"`
	// DelayMS pauses between events, to keep a stream open for a while.
	DelayMS int `json:"delayMs,omitempty"`
	// Interleave streams parallel tool calls the way a multiplexed stream
	// may: every call opens first (in output order), their argument
	// deltas alternate, and they complete last first. OpenAI (output_index)
	// and Anthropic (content block index) key every event by its item, so
	// their wire formats allow it [not observed]; a client must keep the
	// calls in output order whatever order they complete in. Gemini sends
	// each call whole in one part and ignores it.
	Interleave bool `json:"interleave,omitempty"`
}

// ToolCall is a scripted tool call. Name is the exposed name the model
// "chooses"; Args is split into Fragments argument deltas (default 3).
type ToolCall struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
	// RawArgs, when set, replaces Args and is sent verbatim, the way a
	// model gets a call wrong: broken JSON (`{"x": 1`), another JSON value
	// than an object, or an object that does not match the tool's schema.
	// OpenAI and Anthropic stream it as their argument deltas. Gemini's
	// args is a Struct, so the service sends an object as it is and ends
	// the turn with MALFORMED_FUNCTION_CALL (and no call) for anything
	// else.
	RawArgs   string `json:"rawArgs,omitempty"`
	Fragments int    `json:"fragments,omitempty"`
}

// ArgsText is the call's arguments as the model writes them: RawArgs
// verbatim if set, else Args compacted, "" when Args is absent, null or
// not JSON.
func (tc ToolCall) ArgsText() string {
	if tc.RawArgs != "" {
		return tc.RawArgs
	}
	var buf bytes.Buffer
	if len(bytes.TrimSpace(tc.Args)) == 0 || json.Compact(&buf, tc.Args) != nil || buf.String() == "null" {
		return ""
	}
	return buf.String()
}

// Recorded is one request the fake received, with how it answered.
type Recorded struct {
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Query  string          `json:"query,omitempty"`
	Header http.Header     `json:"header"`
	Body   json.RawMessage `json:"body,omitempty"`
	// Status is what the fake answered; Rejection is the rule it enforced
	// when it answered 4xx.
	Status    int    `json:"status"`
	Rejection string `json:"rejection,omitempty"`
}

// Script is a FIFO of replies plus the log of requests, and the models the
// fake serves.
type Script struct {
	mu       sync.Mutex
	replies  []Reply
	requests []Recorded
	// models is the served model list set by a test; nil means the fake's
	// own default list.
	models []string
	// window is the context window set by a test (SetWindow); 0 means
	// each model's own.
	window int
	// routes answer requests by their last user text (Route).
	routes []route
}

type route struct {
	contains string
	reply    Reply
}

// Route answers every request whose last user message contains substr
// with r, without touching the queue: a test that cannot know when a
// request of some kind will come (a summarising request of the agent's,
// between scripted steps) scripts it this way. Later routes are tried
// first.
func (s *Script) Route(substr string, r Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.routes = append(s.routes, route{substr, r})
}

// NextFor is Next for a request whose last user message is lastUser: a
// matching route's reply, else the next queued one.
func (s *Script) NextFor(lastUser string) Reply {
	s.mu.Lock()
	for i := len(s.routes) - 1; i >= 0; i-- {
		if strings.Contains(lastUser, s.routes[i].contains) {
			r := s.routes[i].reply
			s.mu.Unlock()
			return r
		}
	}
	s.mu.Unlock()
	return s.Next()
}

// SetWindow makes every served model's context window n tokens: the fake
// refuses a request whose prompt counts more (CountJSON) with the real
// service's "too long" error, and lists its models with that window. 0
// restores each model's own window.
func (s *Script) SetWindow(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.window = max(n, 0)
}

// Window returns the window SetWindow set, or own (the model's) when none
// is set.
func (s *Script) Window(own int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.window > 0 {
		return s.window
	}
	return own
}

// SetModels sets the model ids the fake serves: its model list endpoint
// lists them and a request for any other model is refused the way the real
// service refuses a model the account cannot use. nil restores the fake's
// default list.
func (s *Script) SetModels(ids []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = append([]string(nil), ids...)
	if ids == nil {
		s.models = nil
	}
}

// Models returns the served model ids: those set by SetModels, else
// defaults.
func (s *Script) Models(defaults []string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.models == nil {
		return append([]string(nil), defaults...)
	}
	return append([]string(nil), s.models...)
}

// Serves reports whether model is among the served ids.
func (s *Script) Serves(model string, defaults []string) bool {
	for _, id := range s.Models(defaults) {
		if id == model {
			return true
		}
	}
	return false
}

// Push appends replies to the queue.
func (s *Script) Push(rs ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies = append(s.replies, rs...)
}

// Next pops the next reply, or returns the zero (echo) reply.
func (s *Script) Next() Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.replies) == 0 {
		return Reply{}
	}
	r := s.replies[0]
	s.replies = s.replies[1:]
	return r
}

// Record logs a request. Authorization headers are redacted: the log is
// served over HTTP and written to test output.
func (s *Script) Record(r Recorded) {
	if r.Header != nil {
		r.Header = r.Header.Clone()
		for _, k := range []string{"Authorization", "X-Api-Key", "X-Goog-Api-Key"} {
			if v := r.Header.Get(k); v != "" {
				r.Header.Set(k, redact(v))
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r)
}

func redact(v string) string {
	if scheme, tok, ok := strings.Cut(v, " "); ok {
		return scheme + " " + redact(tok)
	}
	if len(v) <= 8 {
		return "****"
	}
	return v[:4] + "…" + v[len(v)-2:]
}

// Requests returns a copy of the recorded requests.
func (s *Script) Requests() []Recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Recorded(nil), s.requests...)
}

// Reset clears the queue, the routes and the log, and restores the
// default models and their windows.
func (s *Script) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies, s.requests, s.models, s.window, s.routes = nil, nil, nil, 0, nil
}

// ControlPrefix is where ControlHandler is mounted on every fake.
const ControlPrefix = "/_fake/"

// ControlHandler serves, under ControlPrefix:
//
//	POST /_fake/replies   body: [Reply…]  append to the queue
//	GET  /_fake/requests  the recorded requests, as JSON
//	POST /_fake/reset     clear both (and restore the default models)
//	POST /_fake/models    body: ["model-id"…]  the models served (null: the defaults)
//	POST /_fake/window    body: {"tokens": N}  every model's context window (0: their own)
//	POST /_fake/route     body: {"contains": S, "reply": Reply}  Route
func (s *Script) ControlHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+ControlPrefix+"replies", func(w http.ResponseWriter, r *http.Request) {
		var rs []Reply
		if err := json.NewDecoder(r.Body).Decode(&rs); err != nil {
			http.Error(w, "replies: "+err.Error(), http.StatusBadRequest)
			return
		}
		s.Push(rs...)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET "+ControlPrefix+"requests", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(s.Requests())
	})
	mux.HandleFunc("POST "+ControlPrefix+"reset", func(w http.ResponseWriter, r *http.Request) {
		s.Reset()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST "+ControlPrefix+"models", func(w http.ResponseWriter, r *http.Request) {
		var ids []string
		if err := json.NewDecoder(r.Body).Decode(&ids); err != nil {
			http.Error(w, "models: "+err.Error(), http.StatusBadRequest)
			return
		}
		s.SetModels(ids)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST "+ControlPrefix+"window", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Tokens int `json:"tokens"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, "window: "+err.Error(), http.StatusBadRequest)
			return
		}
		s.SetWindow(body.Tokens)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST "+ControlPrefix+"route", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Contains string `json:"contains"`
			Reply    Reply  `json:"reply"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Contains == "" {
			http.Error(w, fmt.Sprintf("route: want {\"contains\": text, \"reply\": {…}}: %v", err), http.StatusBadRequest)
			return
		}
		s.Route(body.Contains, body.Reply)
		w.WriteHeader(http.StatusNoContent)
	})
	return mux
}

// Chunks splits s into pieces of n runes (n <= 0 means 8).
func Chunks(s string, n int) []string {
	if n <= 0 {
		n = 8
	}
	var out []string
	rs := []rune(s)
	for len(rs) > 0 {
		k := min(n, len(rs))
		out = append(out, string(rs[:k]))
		rs = rs[k:]
	}
	return out
}

// Fragments splits a JSON text into n roughly equal pieces (n <= 0 means 3),
// the way providers stream tool arguments.
func Fragments(s string, n int) []string {
	if n <= 0 {
		n = 3
	}
	if len(s) == 0 {
		return []string{""}
	}
	size := (len(s) + n - 1) / n
	var out []string
	for len(s) > 0 {
		k := min(size, len(s))
		out = append(out, s[:k])
		s = s[k:]
	}
	return out
}
