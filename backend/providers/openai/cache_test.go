package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
	"maestro/backend/providers/openai/openaifake"
)

// closing is how every body ends: the input list, then the object.
var closing = []byte("]}")

// extends reports whether next starts with prev minus its closing brackets:
// the cached prefix of prev is all reused (docs/providers/openai.md
// §Caching).
func extends(prev, next []byte) bool {
	p, ok := bytes.CutSuffix(prev, closing)
	return ok && bytes.HasPrefix(next, p) && len(next) > len(p)
}

// The steps of one tool-loop turn, as the agent sends them to the fake in
// both modes: each request's body starts with the previous one's minus "]}".
func TestCachePrefixAcrossSteps(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"chatgpt", "api"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			f, m, _ := newFake(t)
			if mode == "api" {
				f = openaifake.New(openaifake.WithAPIKey("sk-test"))
				srv := httptest.NewServer(f)
				t.Cleanup(srv.Close)
				m = New(WithBaseURL(srv.URL), WithAPIKey("sk-test"))
			}
			call := func(path string) fakescript.Reply {
				return fakescript.Reply{Thinking: "**Reading** " + path, ToolCalls: []fakescript.ToolCall{
					{Name: "fs__read_file", Args: json.RawMessage(`{"path":"` + path + `"}`)}}}
			}
			f.Script.Push(call("/etc/hosts"), call("/etc/resolv.conf"), fakescript.Reply{Text: "Both read."})
			temp := 0.2
			req := baseRequest(user("Read two files."))
			req.MaxOutputTokens, req.Temperature = 4000, &temp
			for step := range 3 {
				evs, err := run(t.Context(), m, req)
				if err != nil {
					t.Fatalf("step %d: %v (rejection %q)", step, err, f.Script.Requests()[step].Rejection)
				}
				msg, calls, _ := turn(evs)
				req.Messages = append(req.Messages, msg)
				for _, c := range calls {
					req.Messages = append(req.Messages, results(ok("canon-"+c.ID, "fs.read_file", `{"text":"…"}`)))
				}
			}
			recs := f.Script.Requests()
			for i := 1; i < len(recs); i++ {
				if !extends(recs[i-1].Body, recs[i].Body) {
					p := sharedPrefix(recs[i-1].Body, recs[i].Body)
					t.Errorf("step %d does not extend step %d; they part at byte %d:\n%s\n%s", i, i-1, p,
						excerpt(recs[i-1].Body, p), excerpt(recs[i].Body, p))
				}
			}
		})
	}
}

func sharedPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func excerpt(b []byte, at int) string {
	lo, hi := max(at-60, 0), min(at+60, len(b))
	return string(b[lo:hi])
}

// session is a realistic conversation: prior user/assistant exchanges
// (messages in all), tools tool declarations, and a new question.
func session(messages, tools int) chat.Request {
	req := manyTools(tools)
	req.System = "You are Maestro, a desktop assistant. Answer briefly and use the tools when a question needs data."
	req.Messages = nil
	for i := range messages / 2 {
		req.Messages = append(req.Messages,
			user(fmt.Sprintf("Question %d: %s", i, strings.Repeat("what does this part of the project do? ", 6))),
			assistant("openai", chat.TextPart{Text: fmt.Sprintf("Answer %d: %s", i, strings.Repeat("It reads the configuration and starts the workers. ", 12))}))
	}
	req.Messages = append(req.Messages, user("Now list the files of the project and read the README."))
	req.MaxOutputTokens = 8000
	return req
}

// loopStep appends one tool-loop step: the assistant's reasoning and call,
// and the call's result.
func loopStep(req chat.Request, n int) chat.Request {
	id := fmt.Sprintf("c%d", n)
	enc := fmt.Sprintf(`{"type":"reasoning","summary":[{"type":"summary_text","text":"step %d"}],"encrypted_content":"gAAAAA%s"}`,
		n, strings.Repeat("x", 400))
	req.Messages = append(append([]chat.Message(nil), req.Messages...),
		assistant("openai",
			chat.ReasoningPart{Text: "step", ProviderData: chat.ProviderData{"openai": json.RawMessage(enc)}},
			call(id, "srv0.tool_1", `{"path":"."}`, map[string]string{"openai": "call_" + id})),
		results(ok(id, "srv0.tool_1", fmt.Sprintf(`{"text":%q}`, strings.Repeat("file.go\n", 120)))))
	return req
}

// rendered is the exact body a mode sends for req.
func rendered(t testing.TB, m *Model, req chat.Request) []byte {
	t.Helper()
	hr, err := m.newRequest(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(hr.Body)
	return b
}

// The shared-prefix share of consecutive steps of one turn in a realistic
// session (20 prior messages, 30 tools): how much of step N+1's body the
// service can take from its prompt cache. Run with -v for the figures.
func TestCachePrefixShare(t *testing.T) {
	t.Parallel()
	for _, mode := range []struct {
		name string
		m    *Model
	}{
		{"chatgpt", New(WithAccountID("acc"), WithBaseURL("http://127.0.0.1:9"))},
		{"api", New(WithAPIKey("sk"), WithBaseURL("http://127.0.0.1:9"))},
	} {
		req := session(20, 30)
		prev := rendered(t, mode.m, req)
		for step := 1; step <= 3; step++ {
			req = loopStep(req, step)
			next := rendered(t, mode.m, req)
			if !extends(prev, next) {
				t.Fatalf("%s step %d does not extend the previous body", mode.name, step)
			}
			shared := len(prev) - len(closing)
			t.Logf("%s: step %d→%d shares %d of %d bytes (%.1f%%)", mode.name, step-1, step, shared, len(next),
				100*float64(shared)/float64(len(next)))
			prev = next
		}
	}
}
