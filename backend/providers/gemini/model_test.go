package gemini

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
	"maestro/backend/providers/gemini/geminifake"
)

const (
	testToken   = "ya29.test-token"
	testKey     = "AIzaSy-test-key"
	testProject = "maestro-test"
)

// bearer adds the token the way an oauth2 client does.
type bearer struct {
	tok    string
	closed *atomic.Int32 // counts closed response bodies, when set
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.tok != "" {
		r.Header.Set("Authorization", "Bearer "+b.tok)
	}
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && b.closed != nil {
		resp.Body = &closeCounter{ReadCloser: resp.Body, n: b.closed}
	}
	return resp, err
}

type closeCounter struct {
	io.ReadCloser
	n *atomic.Int32
}

func (c *closeCounter) Close() error { c.n.Add(1); return c.ReadCloser.Close() }

func newFake(t *testing.T) (*geminifake.Server, *httptest.Server) {
	t.Helper()
	f := geminifake.New(geminifake.WithToken(testToken), geminifake.WithAPIKey(testKey), geminifake.WithProject(testProject))
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

// modes returns a Code Assist and an API-key Model pointed at srv.
func modes(srv *httptest.Server, extra ...Option) map[string]*Model {
	return map[string]*Model{
		"code assist": New(append([]Option{WithBaseURL(srv.URL), WithProject(testProject),
			WithHTTPClient(&http.Client{Transport: bearer{tok: testToken}})}, extra...)...),
		"api key": New(append([]Option{WithBaseURL(srv.URL), WithAPIKey(testKey)}, extra...)...),
	}
}

func run(ctx context.Context, m *Model, req chat.Request) ([]chat.Event, error) {
	seq, err := m.Stream(ctx, req)
	if err != nil {
		return nil, err
	}
	var evs []chat.Event
	for ev, err := range seq {
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
}

// TestGoldensAcceptedByFake posts every golden body to both fake endpoints:
// what the adapter renders, the fake (the service's rules) accepts.
func TestGoldensAcceptedByFake(t *testing.T) {
	t.Parallel()
	_, srv := newFake(t)
	files, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.json"))
	if len(files) == 0 {
		t.Fatal("no goldens")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var env map[string]any
			if err := json.Unmarshal(b, &env); err != nil {
				t.Fatal(err)
			}
			env["project"] = testProject
			inner := env["request"].(map[string]any)
			caBody, _ := json.Marshal(env)
			post(t, srv.URL+"/v1internal:streamGenerateContent?alt=sse", caBody, "Authorization", "Bearer "+testToken)

			delete(inner, "session_id")
			apiBody, _ := json.Marshal(inner)
			post(t, srv.URL+"/v1beta/models/"+env["model"].(string)+":streamGenerateContent?alt=sse", apiBody, "x-goog-api-key", testKey)
		})
	}
}

func post(t *testing.T, url string, body []byte, hk, hv string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(hk, hv)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		eb, _ := io.ReadAll(resp.Body)
		t.Fatalf("POST %s: got %d %s; want 200", url, resp.StatusCode, eb)
	}
	evs, err := collectReader(resp.Body)
	checkInvariants(t, evs, err)
	if err != nil {
		t.Fatalf("reply stream: %v", err)
	}
}

func collectReader(r io.Reader) ([]chat.Event, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return collect(b)
}

func TestRoundTripReplies(t *testing.T) {
	t.Parallel()
	declared := base(user("u1", "go"))
	tests := []struct {
		name      string
		reply     fakescript.Reply
		req       chat.Request
		want      func(t *testing.T, evs []chat.Event)
		wantKind  chat.ProviderKind
		wantCode  string
		wantEarly bool // the error comes from Stream, not the sequence
	}{
		{name: "echo", reply: fakescript.Reply{}, req: base(user("u1", "hello fake")),
			want: func(t *testing.T, evs []chat.Event) {
				if got := textOf(evs); got != "You said: hello fake" {
					t.Errorf("got text %q; want the echo", got)
				}
				finishIs(t, evs, "stop")
			}},
		{name: "thinking and text", reply: fakescript.Reply{Thinking: "Let me think about it.", Text: "The answer is 42.", ChunkRunes: 5}, req: declared,
			want: func(t *testing.T, evs []chat.Event) {
				if got := textOf(evs); got != "The answer is 42." {
					t.Errorf("got text %q", got)
				}
				var thought string
				var done, signedText int
				for _, ev := range evs {
					switch e := ev.(type) {
					case chat.ReasoningDelta:
						thought += e.Text
					case chat.ReasoningDone:
						done++
					case chat.TextDelta:
						if signature(e.ProviderData) != "" {
							signedText++
						}
					}
				}
				if thought != "Let me think about it." || done != 1 || signedText != 1 {
					t.Errorf("got thought %q, %d ReasoningDone, %d signed text parts; want the thought, 1, 1", thought, done, signedText)
				}
				finishIs(t, evs, "stop")
			}},
		{name: "parallel tool calls", req: declared, reply: fakescript.Reply{Text: "Reading both.", ToolCalls: []fakescript.ToolCall{
			{Name: "files__read_file", Args: raw(`{"path":"a.txt"}`)}, {Name: "clock__now"}}},
			want: func(t *testing.T, evs []chat.Event) {
				calls := doneCalls(evs)
				if len(calls) != 2 || calls[0].Name != "files__read_file" || string(calls[0].Arguments) != `{"path":"a.txt"}` ||
					calls[1].Name != "clock__now" || string(calls[1].Arguments) != `{}` {
					t.Fatalf("got calls %+v", calls)
				}
				if signature(calls[0].ProviderData) == "" || calls[1].ProviderData != nil {
					t.Errorf("got signatures %v / %v; want only the first call signed", calls[0].ProviderData, calls[1].ProviderData)
				}
				finishIs(t, evs, "tool_calls")
			}},
		{name: "undeclared tool", req: declared, reply: fakescript.Reply{ToolCalls: []fakescript.ToolCall{{Name: "not_declared", Args: raw(`{}`)}}},
			wantKind: chat.ProviderKindStream, wantCode: finishUnexpectedToolCall},
		{name: "expired token", req: declared, reply: fakescript.Reply{Error: "401"}, wantEarly: true, wantKind: chat.ProviderKindAuth},
		{name: "rate limit", req: declared, reply: fakescript.Reply{Error: "429", RetryAfter: 3}, wantEarly: true, wantKind: chat.ProviderKindRateLimit},
		{name: "overloaded", req: declared, reply: fakescript.Reply{Error: "529"}, wantEarly: true, wantKind: chat.ProviderKindOverloaded, wantCode: "UNAVAILABLE"},
		{name: "usage limit", req: declared, reply: fakescript.Reply{Error: "usage_limit", RetryAfter: 7200}, wantEarly: true, wantKind: chat.ProviderKindQuota},
		{name: "context too large", req: declared, reply: fakescript.Reply{Error: "context_too_large"}, wantEarly: true, wantKind: chat.ProviderKindContextTooLarge},
		{name: "server error", req: declared, reply: fakescript.Reply{Error: "server"}, wantEarly: true, wantKind: chat.ProviderKindServer, wantCode: "INTERNAL"},
		{name: "error inside the stream", req: declared, reply: fakescript.Reply{Error: "stream_error", Text: "partial answer"},
			wantKind: chat.ProviderKindServer, wantCode: "INTERNAL"},
		{name: "disconnect", req: declared, reply: fakescript.Reply{Text: "this will be cut short", ChunkRunes: 4, DisconnectAfter: 2},
			wantKind: chat.ProviderKindStream},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, srv := newFake(t)
			for mode, m := range modes(srv) {
				f.Script.Push(tt.reply)
				evs, err := run(t.Context(), m, tt.req)
				if tt.wantKind == "" {
					if err != nil {
						t.Fatalf("%s: got error %v", mode, err)
					}
					checkInvariants(t, evs, err)
					tt.want(t, evs)
					continue
				}
				he, ok := chat.AsProviderError(err)
				if !ok {
					t.Fatalf("%s: got error %v; want *chat.ProviderError", mode, err)
				}
				if he.Kind != tt.wantKind || (tt.wantCode != "" && he.Code != tt.wantCode) {
					t.Errorf("%s: got kind %s code %q; want %s %q (%v)", mode, he.Kind, he.Code, tt.wantKind, tt.wantCode, he)
				}
				if early := evs == nil && he.Status != 200; early != tt.wantEarly {
					t.Errorf("%s: got early=%v (status %d); want %v", mode, early, he.Status, tt.wantEarly)
				}
				if tt.reply.Error == "429" && he.RetryAfter != 3*time.Second {
					t.Errorf("%s: got RetryAfter %v; want 3s", mode, he.RetryAfter)
				}
				if tt.reply.Error == "usage_limit" && time.Until(he.ResetAt) < time.Hour {
					t.Errorf("%s: got ResetAt %v; want about 2 h from now", mode, he.ResetAt)
				}
			}
		})
	}
}

func textOf(evs []chat.Event) string {
	var s strings.Builder
	for _, ev := range evs {
		if e, ok := ev.(chat.TextDelta); ok {
			s.WriteString(e.Text)
		}
	}
	return s.String()
}

func doneCalls(evs []chat.Event) []chat.ToolCallDone {
	var out []chat.ToolCallDone
	for _, ev := range evs {
		if e, ok := ev.(chat.ToolCallDone); ok {
			out = append(out, e)
		}
	}
	return out
}

func finishIs(t *testing.T, evs []chat.Event, reason string) {
	t.Helper()
	f, ok := evs[len(evs)-1].(chat.Finish)
	if !ok || f.Reason != reason || f.ResponseID == "" || f.Usage.InputTokens == 0 {
		t.Errorf("got last event %#v; want Finish %q with usage and a response id", evs[len(evs)-1], reason)
	}
}

// TestRoundTripConversation plays an agent loop against the fake: the
// model calls a tool, the result goes back with the call's signature, the
// model answers; then the history moves to another provider's shape and
// back. Every request must pass the fake's rules.
func TestRoundTripConversation(t *testing.T) {
	t.Parallel()
	f, srv := newFake(t)
	for mode, m := range modes(srv) {
		req := base(user("u1", "Read a.txt"))
		f.Script.Push(fakescript.Reply{Thinking: "Need the file.", ToolCalls: []fakescript.ToolCall{{Name: "files__read_file", Args: raw(`{"path":"a.txt"}`)}}})
		evs, err := run(t.Context(), m, req)
		if err != nil {
			t.Fatalf("%s turn 1: %v", mode, err)
		}
		asst := messageFrom("a1", evs)
		calls := asst.ToolCalls()
		if len(calls) != 1 {
			t.Fatalf("%s: got calls %+v", mode, calls)
		}
		req.Messages = append(req.Messages, asst,
			results("t1", ok(calls[0].ID, calls[0].Name, `{"text":"hello"}`)))
		f.Script.Push(fakescript.Reply{Text: "It says hello."})
		evs, err = run(t.Context(), m, req)
		if err != nil {
			t.Fatalf("%s turn 2: %v", mode, err)
		}
		// The call's own signature is replayed, not the skip sentinel.
		reqs := f.Script.Requests()
		if s := signature(calls[0].ProviderData); s == "" || !bytes.Contains(reqs[len(reqs)-1].Body, []byte(s)) {
			t.Errorf("%s: turn 2 body does not replay the call's signature %q", mode, s)
		}
		if got := textOf(evs); got != "It says hello." {
			t.Errorf("%s: got %q", mode, got)
		}
		// A foreign turn with an unsigned call inside the active loop.
		req.Messages = append(req.Messages, messageFrom("a2", evs), user("u2", "Write b.txt"),
			assistant("a3", "anthropic", callPart(chat.ToolCall{ID: "c9", Name: "files.write_file", Arguments: raw(`{"path":"b.txt"}`),
				ProviderIDs: map[string]string{"anthropic": "toolu_01"}})),
			results("t3", ok("c9", "files.write_file", `"ok"`)))
		evs, err = run(t.Context(), m, req)
		if err != nil {
			t.Fatalf("%s turn 3: %v", mode, err)
		}
		finishIs(t, evs, "stop")
	}
	for _, r := range f.Script.Requests() {
		if r.Status != 200 {
			t.Errorf("request %s got %d (%s); want 200", r.Path, r.Status, r.Rejection)
		}
	}
}

// messageFrom builds the assistant message an agent would store from events.
func messageFrom(id string, evs []chat.Event) chat.Message {
	m := chat.Message{ID: id, Role: chat.RoleAssistant, Provider: chat.ProviderGemini}
	var thought string
	for _, ev := range evs {
		switch e := ev.(type) {
		case chat.ReasoningDelta:
			thought += e.Text
		case chat.ReasoningDone:
			m.Parts = append(m.Parts, chat.ReasoningPart{Text: thought, ProviderData: e.ProviderData})
			thought = ""
		case chat.TextDelta:
			if e.ProviderData != nil || e.Text != "" {
				m.Parts = append(m.Parts, chat.TextPart{Text: e.Text, ProviderData: e.ProviderData})
			}
		case chat.ToolCallDone:
			c := chat.ToolCall{ID: chat.NewID(), Name: canonical(e.Name), Arguments: e.Arguments, ProviderData: e.ProviderData}
			if e.ID != "" {
				c.ProviderIDs = map[string]string{chat.ProviderGemini: e.ID}
			}
			m.Parts = append(m.Parts, chat.ToolCallPart{Call: c})
		}
	}
	return m
}

func canonical(exposed string) string {
	_, names := toolset()
	for c, n := range names {
		if n == exposed {
			return c
		}
	}
	return exposed
}
