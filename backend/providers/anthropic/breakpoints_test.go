package anthropic

import (
	"bytes"
	"fmt"
	"testing"

	"maestro/backend/chat"
)

func TestWithBreakpoint(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		block any
		want  bool
	}{
		{"text", textBlock{Type: "text", Text: "hi"}, true},
		{"empty text", textBlock{Type: "text"}, false},
		{"image", mediaBlock{Type: "image"}, true},
		{"tool result", toolResultBlock{Type: "tool_result", ToolUseID: "toolu_1"}, true},
		{"thinking", thinkingBlock{Type: "thinking", Thinking: "x", Signature: "s"}, false},
		{"redacted thinking", redactedThinkingBlock{Type: "redacted_thinking", Data: "d"}, false},
		{"tool use", toolUseBlock{Type: "tool_use"}, false},
	}
	for _, tt := range tests {
		if _, got := withBreakpoint(tt.block); got != tt.want {
			t.Errorf("%s: marked %v; want %v", tt.name, got, tt.want)
		}
	}
}

func TestMarkLastBlockStepsBack(t *testing.T) {
	t.Parallel()
	content := []any{textBlock{Type: "text", Text: "a"}, textBlock{Type: "text"}}
	if !markLastBlock(content) {
		t.Fatal("got no breakpoint; want one on the first block")
	}
	if got := content[0].(textBlock).Cache; got != ephemeral {
		t.Errorf("first block cache_control %v; want ephemeral", got)
	}
	if got := content[1].(textBlock).Cache; got != nil {
		t.Errorf("empty block cache_control %v; want none", got)
	}
	if markLastBlock([]any{thinkingBlock{Type: "thinking"}}) {
		t.Error("marked a thinking block")
	}
}

// breakpoints lists where body's cache_control markers are.
func breakpoints(body *request) []string {
	var at []string
	for i, tl := range body.Tools {
		if tl.cache {
			at = append(at, fmt.Sprintf("tools.%d", i))
		}
	}
	for i, b := range body.System {
		if b.Cache != nil {
			at = append(at, fmt.Sprintf("system.%d", i))
		}
	}
	for i, m := range body.Messages {
		for k, b := range m.Content {
			if c, ok := cacheOf(b); ok && c != nil {
				at = append(at, fmt.Sprintf("messages.%d.content.%d", i, k))
			}
		}
	}
	return at
}

func cacheOf(b any) (*cacheControl, bool) {
	switch b := b.(type) {
	case textBlock:
		return b.Cache, true
	case mediaBlock:
		return b.Cache, true
	case toolResultBlock:
		return b.Cache, true
	}
	return nil, false
}

func TestMarkBreakpoints(t *testing.T) {
	t.Parallel()
	turn := sessionTurn(4, 3)
	tests := []struct {
		name string
		opts []Option
		req  chat.Request
		want []string
	}{
		{"one message, no tools, no system, api key", []Option{WithAPIKey("k")},
			chat.Request{Model: "claude-sonnet-4-6", Messages: []chat.Message{user("hi")}}, []string{"messages.0.content.0"}},
		{"oauth system line", nil,
			chat.Request{Model: "claude-sonnet-4-6", Messages: []chat.Message{user("hi")}}, []string{"system.0", "messages.0.content.0"}},
		{"tools, system, new user turn", nil, turn[0],
			[]string{"tools.3", "system.1", "messages.10.content.0", "messages.12.content.0"}},
		{"tools, system, tool-loop step", nil, turn[1],
			[]string{"tools.3", "system.1", "messages.12.content.0", "messages.14.content.1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			body, _ := toRequest(tt.req, New(tt.opts...).renderOptions())
			if got := breakpoints(body); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("breakpoints at %v; want %v", got, tt.want)
			}
		})
	}
}

// stripBreakpoints removes every cache_control member from an encoded body.
func stripBreakpoints(b []byte) []byte {
	return bytes.ReplaceAll(b, []byte(cacheMember), nil)
}

// TestConsecutiveStepsSharePrefix checks the prefix property of
// docs/providers/anthropic.md ("Caching"): for consecutive steps of one
// tool-loop turn, with the cache_control members removed, request N+1's
// body starts with request N's body minus its closing "]}".
func TestConsecutiveStepsSharePrefix(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			steps := sessionTurn(30, 5)
			prev := encodeStep(t, steps[0], mode.opts)
			for i, req := range steps[1:] {
				next := encodeStep(t, req, mode.opts)
				a, b := stripBreakpoints(prev), stripBreakpoints(next)
				if !bytes.HasSuffix(a, []byte("]}")) || !bytes.HasPrefix(b, a[:len(a)-2]) {
					t.Fatalf("step %d: body does not extend step %d's body\nstep %d: %s\nstep %d: %s", i+2, i+1, i+1, a, i+2, b)
				}
				prev = next
			}
		})
	}
}

// TestSharedPrefixFigures logs the figures of docs/providers/anthropic.md
// ("Caching") for a realistic session: 20 prior messages and 30 tools, then
// one turn of three steps. Run with -v to see them.
func TestSharedPrefixFigures(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		steps := sessionTurn(30, 5)
		for i := 1; i < len(steps); i++ {
			a, b := encodeStep(t, steps[i-1], mode.opts), encodeStep(t, steps[i], mode.opts)
			raw := commonPrefix(a, b)
			stripped := commonPrefix(stripBreakpoints(a), stripBreakpoints(b))
			last := bytes.LastIndex(b, []byte(`"cache_control"`))
			t.Logf("%s, step %d→%d: body %d bytes; shared prefix %d bytes (%.1f%%), %d bytes (%.1f%%) without cache_control; last breakpoint at byte %d (%.1f%%)",
				mode.name, i, i+1, len(b), raw, pct(raw, len(b)), stripped, pct(stripped, len(stripBreakpoints(b))), last, pct(last, len(b)))
			if stripped < len(stripBreakpoints(a))-2 {
				t.Errorf("%s step %d: shared prefix %d; want at least %d", mode.name, i+1, stripped, len(stripBreakpoints(a))-2)
			}
		}
	}
}

func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func pct(n, of int) float64 { return 100 * float64(n) / float64(of) }

func encodeStep(t *testing.T, req chat.Request, opts []Option) []byte {
	t.Helper()
	body, _ := toRequest(req, New(opts...).renderOptions())
	data, err := encodeBody(body)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// sessionTurn is a session of `tools` tools and `exchanges` earlier
// exchanges of four messages each (question, a tool call, its result, an
// answer: five exchanges are 20 prior messages), then one new turn in three steps: the question, the step after
// two parallel tool calls, the step after one more. It returns the request
// of each step.
func sessionTurn(tools, exchanges int) []chat.Request {
	req := chat.Request{Model: "claude-sonnet-4-6", System: "You are Maestro's assistant. Use the tools when they help; be brief.",
		ToolNames: map[string]string{}}
	for i := range tools {
		name := fmt.Sprintf("server%d__tool_%d", i%5, i)
		req.Tools = append(req.Tools, chat.Tool{Name: name, Canonical: fmt.Sprintf("server%d.tool_%d", i%5, i),
			Description: fmt.Sprintf("Looks things up in the records of server %d and returns what it finds, tool %d", i%5, i),
			InputSchema: raw(`{"type":"object","properties":{"query":{"type":"string","description":"what to look for"},"limit":{"type":"integer","minimum":1,"maximum":100}},"required":["query"]}`)})
		req.ToolNames[req.Tools[i].Canonical] = name
	}
	n := 0
	exchange := func(question string, calls int) []chat.Message {
		msgs := []chat.Message{user(question)}
		for range calls {
			n++
			id := fmt.Sprintf("c%d", n)
			canonical := req.Tools[n%tools].Canonical
			msgs = append(msgs,
				assistant(chat.ProviderAnthropic, chat.TextPart{Text: "Let me look that up."},
					call(id, canonical, fmt.Sprintf(`{"query":"item %d","limit":5}`, n), anthropicID(fmt.Sprintf("toolu_%04d", n)))),
				toolMsg(ok(id, canonical, fmt.Sprintf(`{"items":[{"id":%d,"title":"Result number %d","body":"Some text the tool returned for the query."}]}`, n, n))))
		}
		return msgs
	}
	for i := range exchanges {
		req.Messages = append(req.Messages, exchange(fmt.Sprintf("Question %d: what do the records say about item %d?", i, i), 1)...)
		req.Messages = append(req.Messages, assistant(chat.ProviderAnthropic, chat.TextPart{Text: fmt.Sprintf("The records say item %d is fine.", i)}))
	}
	var steps []chat.Request
	step := func(msgs ...chat.Message) {
		req.Messages = append(append([]chat.Message(nil), req.Messages...), msgs...)
		steps = append(steps, req)
	}
	step(user("Now compare items 3 and 7, and tell me which is newer."))
	tool := func(i int) string { return req.Tools[i%tools].Canonical }
	ids := []string{"t1", "t2"}
	step(assistant(chat.ProviderAnthropic, chat.TextPart{Text: "Checking both."},
		call(ids[0], tool(3), `{"query":"item 3"}`, anthropicID("toolu_t1")),
		call(ids[1], tool(7), `{"query":"item 7"}`, anthropicID("toolu_t2"))),
		toolMsg(ok(ids[0], tool(3), `{"items":[{"id":3,"updated":"2026-10-01"}]}`),
			ok(ids[1], tool(7), `{"items":[{"id":7,"updated":"2026-11-02"}]}`)))
	step(assistant(chat.ProviderAnthropic, call("t3", tool(9), `{"query":"item 7 history"}`, anthropicID("toolu_t3"))),
		toolMsg(ok("t3", tool(9), `{"items":[]}`)))
	return steps
}
