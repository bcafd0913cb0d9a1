package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"maestro/backend/chat"
	"maestro/backend/providers/anthropic/anthropicfake"
	"maestro/backend/providers/fakescript"
)

// bearer adds a token the way an oauth2 client does, and records whether
// each response body was closed.
type bearer struct {
	token  string
	closed atomic.Int32
}

func (b *bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil {
		resp.Body = &closeTracker{ReadCloser: resp.Body, closed: &b.closed}
	}
	return resp, err
}

type closeTracker struct {
	io.ReadCloser
	closed *atomic.Int32
}

func (c *closeTracker) Close() error { c.closed.Add(1); return c.ReadCloser.Close() }

// newFake starts a fake and returns it with a Model pointed at it (OAuth
// mode unless opts say otherwise) and the bearer transport.
func newFake(t *testing.T, fopts []anthropicfake.Option, opts ...Option) (*anthropicfake.Server, *Model, *bearer) {
	t.Helper()
	f := anthropicfake.New(fopts...)
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	b := &bearer{token: "sk-ant-oat01-good"}
	all := append([]Option{WithBaseURL(srv.URL), WithHTTPClient(&http.Client{Transport: b})}, opts...)
	return f, New(all...), b
}

func streamAll(t *testing.T, m *Model, req chat.Request) ([]chat.Event, error) {
	t.Helper()
	seq, err := m.Stream(t.Context(), req)
	if err != nil {
		return nil, err
	}
	return collect(seq)
}

// TestGoldenCasesAcceptedByFake sends every golden case through the adapter
// to the fake, which enforces the real service's rules.
func TestGoldenCasesAcceptedByFake(t *testing.T) {
	t.Parallel()
	for _, c := range renderCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f, m, _ := newFake(t, []anthropicfake.Option{anthropicfake.WithToken("sk-ant-oat01-good"), anthropicfake.WithAPIKey("sk-ant-test")}, c.opts...)
			evs, err := streamAll(t, m, c.req)
			if err != nil {
				t.Fatalf("got %v (recorded %+v); want the fake to accept the request", err, f.Script.Requests())
			}
			if _, ok := evs[len(evs)-1].(chat.Finish); !ok {
				t.Errorf("last event %#v; want Finish", evs[len(evs)-1])
			}
		})
	}
}

func TestHeaders(t *testing.T) {
	t.Parallel()
	req := chat.Request{Model: "claude-sonnet-4-5", Messages: []chat.Message{user("hi")}}
	thinking := req
	thinking.Reasoning = &chat.Reasoning{Effort: "low"}
	tests := []struct {
		name   string
		opts   []Option
		req    chat.Request
		query  string
		beta   string
		ua     string
		apiKey bool
	}{
		{"oauth", nil, req, "beta=true", BetaOAuth, DefaultOAuthUserAgent, false},
		{"oauth thinking", nil, thinking, "beta=true", BetaOAuth + "," + BetaInterleavedThinking, DefaultOAuthUserAgent, false},
		{"oauth custom agent", []Option{WithUserAgent("maestro/1.0")}, req, "beta=true", BetaOAuth, "maestro/1.0", false},
		// API-key mode with a plain client: the adapter adds x-api-key only.
		{"api key", []Option{WithAPIKey("sk-ant-test"), WithHTTPClient(http.DefaultClient)}, req, "", "", "Go-http-client/1.1", true},
		{"api key thinking", []Option{WithAPIKey("sk-ant-test"), WithHTTPClient(http.DefaultClient)}, thinking, "", BetaInterleavedThinking, "Go-http-client/1.1", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, m, _ := newFake(t, nil, tt.opts...)
			if _, err := streamAll(t, m, tt.req); err != nil {
				t.Fatal(err)
			}
			rec := f.Script.Requests()[0]
			h := rec.Header
			if rec.Query != tt.query || h.Get("anthropic-beta") != tt.beta || h.Get("user-agent") != tt.ua ||
				(h.Get("x-api-key") != "") != tt.apiKey || (h.Get("authorization") != "") == tt.apiKey || h.Get("anthropic-version") != APIVersion ||
				h.Get("accept") != "text/event-stream" || h.Get("content-type") != "application/json" {
				t.Errorf("got query %q, headers %v; want query %q, beta %q, user-agent %q, api key %v", rec.Query, h, tt.query, tt.beta, tt.ua, tt.apiKey)
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	f, m, _ := newFake(t, nil)
	req := withTools(chat.Request{Reasoning: &chat.Reasoning{Effort: "low"}, Messages: []chat.Message{user("Weather in Paris?")}})
	f.Script.Push(fakescript.Reply{Thinking: "I should call the tool.", Text: "Checking.", ChunkRunes: 4,
		ToolCalls: []fakescript.ToolCall{{Name: "weather__get_forecast", Args: raw(`{"city":"Paris"}`), Fragments: 3}, {Name: "clock__now"}}})
	evs, err := streamAll(t, m, req)
	if err != nil {
		t.Fatal(err)
	}
	// Rebuild the assistant message the way the agent would.
	var reasoning strings.Builder
	var parts chat.Parts
	var calls []chat.ToolCallDone
	for _, ev := range evs {
		switch ev := ev.(type) {
		case chat.ReasoningDelta:
			reasoning.WriteString(ev.Text)
		case chat.ReasoningDone:
			parts = append(parts, chat.ReasoningPart{Text: reasoning.String(), ProviderData: ev.ProviderData})
		case chat.TextDelta:
			parts = append(parts, chat.TextPart{Text: ev.Text})
		case chat.ToolCallDone:
			calls = append(calls, ev)
		}
	}
	if len(calls) != 2 || calls[0].Name != "weather__get_forecast" || string(calls[0].Arguments) != `{"city":"Paris"}` ||
		calls[1].Name != "clock__now" || string(calls[1].Arguments) != "{}" {
		t.Fatalf("got calls %+v; want the two scripted calls", calls)
	}
	if fin := evs[len(evs)-1].(chat.Finish); fin.Reason != "tool_calls" || fin.Usage.InputTokens == 0 || !strings.HasPrefix(fin.ResponseID, "msg_") {
		t.Errorf("got %+v; want a tool_calls Finish with usage and id", fin)
	}
	canonical := map[string]string{"weather__get_forecast": "weather.get_forecast", "clock__now": "clock.now"}
	var results []chat.ToolResult
	for i, c := range calls {
		id := []string{"c1", "c2"}[i]
		parts = append(parts, chat.ToolCallPart{Call: chat.ToolCall{ID: id, Name: canonical[c.Name], Arguments: c.Arguments,
			ProviderIDs: map[string]string{chat.ProviderAnthropic: c.ID}}})
		results = append(results, ok(id, canonical[c.Name], `{"ok":true}`))
	}
	req.Messages = append(req.Messages, assistant(chat.ProviderAnthropic, parts...), toolMsg(results...))
	// The follow-up replays the signed thinking block with thinking on; the
	// fake checks the signature and the pairing.
	evs, err = streamAll(t, m, req)
	if err != nil {
		t.Fatalf("follow-up rejected: %v", err)
	}
	if got := evs[0].(chat.TextDelta).Text; got != "You said: Weather in Paris?"[:len(got)] {
		t.Errorf("echo reply starts %q", got)
	}
	body := f.Script.Requests()[1].Body
	for _, want := range []string{`"type":"thinking"`, `"name":"weather__get_forecast"`, `"budget_tokens":2048`} {
		if !bytes.Contains(body, []byte(want)) {
			t.Errorf("follow-up body lacks %s: %s", want, body)
		}
	}
}

func TestRoundTripErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		reply      fakescript.Reply
		inStream   bool
		kind       chat.ProviderKind
		status     int
		retryAfter time.Duration
		resetIn    time.Duration
		is         error
	}{
		{"expired token", fakescript.Reply{Error: "401"}, false, chat.ProviderKindAuth, 401, 0, 0, chat.ErrAuthRequired},
		{"rate limit", fakescript.Reply{Error: "429", RetryAfter: 3}, false, chat.ProviderKindRateLimit, 429, 3 * time.Second, 3 * time.Second, chat.ErrUnavailable},
		{"usage limit", fakescript.Reply{Error: "usage_limit"}, false, chat.ProviderKindRateLimit, 429, 5 * time.Hour, 5 * time.Hour, nil},
		{"overloaded", fakescript.Reply{Error: "529"}, false, chat.ProviderKindOverloaded, 529, 0, 0, nil},
		{"context too large", fakescript.Reply{Error: "context_too_large"}, false, chat.ProviderKindContextTooLarge, 400, 0, 0, chat.ErrInvalid},
		{"server", fakescript.Reply{Error: "server"}, false, chat.ProviderKindServer, 500, 0, 0, nil},
		{"error event", fakescript.Reply{Error: "stream_error", Text: "partial answer"}, true, chat.ProviderKindOverloaded, 200, 0, 0, nil},
		{"disconnect", fakescript.Reply{Text: "a long answer cut short", ChunkRunes: 2, DisconnectAfter: 5}, true, chat.ProviderKindStream, 200, 0, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, m, b := newFake(t, nil)
			f.Script.Push(tt.reply)
			seq, err := m.Stream(t.Context(), chat.Request{Model: "claude-sonnet-4-5", Messages: []chat.Message{user("hi")}})
			if tt.inStream {
				if err != nil {
					t.Fatalf("Stream: %v; want the error inside the stream", err)
				}
				_, err = collect(seq)
			} else if err == nil {
				t.Fatal("Stream succeeded; want an error")
			}
			he, isHTTP := chat.AsProviderError(err)
			if !isHTTP || he.Kind != tt.kind || he.Status != tt.status || he.RetryAfter != tt.retryAfter {
				t.Fatalf("got %v (%+v); want kind %s status %d retry-after %v", err, he, tt.kind, tt.status, tt.retryAfter)
			}
			if tt.resetIn > 0 && (time.Until(he.ResetAt) > tt.resetIn || time.Until(he.ResetAt) < tt.resetIn-time.Minute) {
				t.Errorf("reset at %v; want about %v from now", he.ResetAt, tt.resetIn)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.is)
			}
			if b.closed.Load() != 1 {
				t.Errorf("response body closed %d times; want 1", b.closed.Load())
			}
		})
	}
}

func TestStreamStopsEarlyAndClosesBody(t *testing.T) {
	t.Parallel()
	f, m, b := newFake(t, nil)
	f.Script.Push(fakescript.Reply{Text: strings.Repeat("word ", 200), ChunkRunes: 5, DelayMS: 5})
	seq, err := m.Stream(t.Context(), chat.Request{Model: "claude-sonnet-4-5", Messages: []chat.Message{user("hi")}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for range seq {
		if n++; n == 2 {
			break
		}
	}
	if b.closed.Load() != 1 {
		t.Errorf("body closed %d times after break; want 1", b.closed.Load())
	}
	if _, err := collect(seq); err == nil || !strings.Contains(err.Error(), "already consumed") {
		t.Errorf("second range: got %v; want an already-consumed error", err)
	}
}

func TestStreamCanceled(t *testing.T) {
	t.Parallel()
	f, m, _ := newFake(t, nil)
	f.Script.Push(fakescript.Reply{Text: strings.Repeat("slow ", 100), ChunkRunes: 5, DelayMS: 20})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	seq, err := m.Stream(ctx, chat.Request{Model: "claude-sonnet-4-5", Messages: []chat.Message{user("hi")}})
	if err != nil {
		t.Fatal(err)
	}
	var got error
	for ev, err := range seq {
		if _, ok := ev.(chat.TextDelta); ok {
			cancel()
		}
		got = err
	}
	if !errors.Is(got, context.Canceled) {
		t.Errorf("got %v; want context.Canceled", got)
	}
}

func TestStreamRequestErrors(t *testing.T) {
	t.Parallel()
	valid := chat.Request{Model: "m", Messages: []chat.Message{user("hi")}}
	canceled, cancel := context.WithCancel(t.Context())
	cancel()
	tests := []struct {
		name string
		m    *Model
		ctx  context.Context
		req  chat.Request
		want func(error) bool
	}{
		{"no model", New(), t.Context(), chat.Request{Messages: valid.Messages}, func(err error) bool { return errors.Is(err, chat.ErrInvalid) }},
		{"no messages", New(), t.Context(), chat.Request{Model: "m"}, func(err error) bool { return errors.Is(err, chat.ErrInvalid) }},
		{"unreachable", New(WithBaseURL("http://127.0.0.1:1")), t.Context(), valid, func(err error) bool {
			he, ok := chat.AsProviderError(err)
			return ok && he.Kind == chat.ProviderKindServer && he.Err != nil
		}},
		{"canceled", New(WithBaseURL("http://127.0.0.1:1")), canceled, valid, func(err error) bool { return errors.Is(err, context.Canceled) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := tt.m.Stream(tt.ctx, tt.req); !tt.want(err) {
				t.Errorf("got %v", err)
			}
		})
	}
}

func TestWarningsLogged(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	_, m, _ := newFake(t, nil, WithLogger(slog.New(slog.NewJSONHandler(&buf, nil))))
	req := chat.Request{Model: "claude-sonnet-4-5", Messages: []chat.Message{user("hi"),
		assistant(chat.ProviderGemini, chat.ReasoningPart{Text: "x", ProviderData: chat.ProviderData{"gemini": raw(`{}`)}}, chat.TextPart{Text: "ok"}),
		user("again")}}
	if _, err := streamAll(t, m, req); err != nil {
		t.Fatal(err)
	}
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil || !strings.Contains(line["warning"].(string), "reasoning part") {
		t.Errorf("logged %s; want the foreign reasoning warning", buf.String())
	}
}

// TestConcurrentStreams shares one Model (and its schema cache) between
// goroutines, as the app does across sessions. Run with -race.
func TestConcurrentStreams(t *testing.T) {
	t.Parallel()
	_, m, _ := newFake(t, nil)
	req := manyTools(50)
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			_, err := streamAll(t, m, req)
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestGateReachesTheCaller checks the fake's gate mode end to end: each
// gate comes back as an entitlement error with its stable code.
func TestGateReachesTheCaller(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		gate anthropicfake.Gate
		code string
	}{{anthropicfake.GateThirdParty, CodeThirdPartyGate}, {anthropicfake.GateExtraUsageExhausted, CodeExtraUsageExhausted}} {
		t.Run(string(tt.gate), func(t *testing.T) {
			t.Parallel()
			_, m, _ := newFake(t, []anthropicfake.Option{anthropicfake.WithGate(tt.gate)})
			_, err := streamAll(t, m, withTools(chat.Request{Messages: []chat.Message{user("hi")}}))
			he, ok := chat.AsProviderError(err)
			if !ok || he.Kind != chat.ProviderKindEntitlement || he.Code != tt.code || he.Status != 400 || !strings.Contains(he.Message, "extra usage") {
				t.Errorf("got %v; want entitlement %s", err, tt.code)
			}
		})
	}
}

// TestToolLoopSteps sends every step of a realistic tool-loop turn to the
// fake in both modes: breakpoints, limits and pairing must all pass.
func TestToolLoopSteps(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		f, m, _ := newFake(t, nil, mode.opts...)
		for i, req := range sessionTurn(30, 5) {
			req.Reasoning = &chat.Reasoning{Effort: "low"}
			if _, err := streamAll(t, m, req); err != nil {
				t.Fatalf("%s step %d: %v (recorded %+v)", mode.name, i+1, err, f.Script.Requests()[i].Rejection)
			}
		}
	}
}
