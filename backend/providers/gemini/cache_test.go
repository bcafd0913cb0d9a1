package gemini

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"maestro/backend/chat"
)

// session builds a realistic session: a system prompt, tools declared, and
// prior messages (a mix of plain exchanges and tool loops), plus the
// current turn's prompt.
func session(prior, tools int) chat.Request {
	req := chat.Request{Model: "gemini-2.5-pro", SessionID: "sess-42", PromptID: "prompt-7",
		System:    strings.Repeat("You are Maestro, a careful assistant that uses tools. ", 20),
		ToolNames: map[string]string{}}
	for i := range tools {
		name := fmt.Sprintf("srv%d__tool_%02d", i%5, i)
		req.Tools = append(req.Tools, chat.Tool{Name: name, Canonical: fmt.Sprintf("srv%d.tool_%02d", i%5, i),
			Description: fmt.Sprintf("Tool %d: does one well-described thing with its arguments and returns JSON.", i),
			InputSchema: raw(fmt.Sprintf(`{"type":"object","properties":{"path":{"type":"string","description":"a path"},`+
				`"limit":{"type":"integer","description":"at most this many"},"mode%d":{"type":"string","enum":["a","b","c"]}},"required":["path"]}`, i))})
		req.ToolNames[req.Tools[i].Canonical] = name
	}
	for i := 0; len(req.Messages) < prior; i++ {
		req.Messages = append(req.Messages, user(fmt.Sprintf("u%d", i), fmt.Sprintf("Question %d: %s", i, strings.Repeat("some context ", 30))))
		if i%2 == 1 { // every other exchange is a tool loop
			c := chat.ToolCall{ID: fmt.Sprintf("old%d", i), Name: req.Tools[i%tools].Canonical, Arguments: raw(`{"path":"x"}`),
				ProviderData: sig("CiQBold")}
			req.Messages = append(req.Messages, assistant(fmt.Sprintf("a%d", i), "gemini", callPart(c)),
				results(fmt.Sprintf("t%d", i), ok(c.ID, c.Name, fmt.Sprintf(`{"text":%q}`, strings.Repeat("result ", 80)))))
		}
		req.Messages = append(req.Messages, assistant(fmt.Sprintf("b%d", i), "gemini",
			chat.TextPart{Text: strings.Repeat("An answer. ", 40)}))
	}
	req.Messages = append(req.Messages, user("now", "Read both files and summarise them."))
	return req
}

// loopSteps are the requests of one tool-loop turn: the prompt, then after
// each of n tool results.
func loopSteps(req chat.Request, n int) []chat.Request {
	steps := []chat.Request{req}
	for i := range n {
		c := chat.ToolCall{ID: fmt.Sprintf("c%d", i), Name: req.Tools[i].Canonical, Arguments: raw(fmt.Sprintf(`{"path":"f%d"}`, i)),
			ProviderData: sig(fmt.Sprintf("CiQBstep%d", i))}
		msgs := append([]chat.Message(nil), req.Messages...)
		msgs = append(msgs,
			assistant(fmt.Sprintf("s%d", i), "gemini", chat.ReasoningPart{Text: "Thinking about the next file."}, callPart(c)),
			results(fmt.Sprintf("r%d", i), ok(c.ID, c.Name, fmt.Sprintf(`{"text":%q}`, strings.Repeat("file body ", 100)))))
		req.Messages = msgs
		steps = append(steps, req)
	}
	return steps
}

// closing is what ends a body after its last content: the contents array,
// the request and, in Code Assist, the envelope.
func closing(m *Model) string {
	if m.apiKey != "" {
		return "]}"
	}
	return "]}}"
}

// sharedPrefix checks that each step's body starts with the previous
// body minus its closing brackets, and returns the shared byte share of
// each step after the first.
func sharedPrefix(t testing.TB, m *Model, steps []chat.Request) []float64 {
	t.Helper()
	var prev []byte
	var shares []float64
	for i, req := range steps {
		body, _ := m.body(req)
		b, err := encodeBody(body)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasSuffix(b, []byte(closing(m))) {
			t.Fatalf("step %d: body ends %q; want %q", i, b[max(0, len(b)-20):], closing(m))
		}
		if prev != nil {
			stable := prev[:len(prev)-len(closing(m))]
			if !bytes.HasPrefix(b, stable) {
				n := 0
				for n < len(stable) && b[n] == stable[n] {
					n++
				}
				t.Fatalf("step %d: body departs from the previous one at byte %d of %d: %q vs %q", i, n, len(stable),
					b[n:min(len(b), n+60)], stable[n:min(len(stable), n+60)])
			}
			shares = append(shares, float64(len(stable))/float64(len(b)))
		}
		prev = b
	}
	return shares
}

// TestCachePrefix: for consecutive steps of one turn with the tools
// unchanged, request N+1's body starts with request N's body minus its
// closing brackets, in both modes (docs/providers/gemini.md §Caching).
func TestCachePrefix(t *testing.T) {
	t.Parallel()
	for name, m := range map[string]*Model{
		"code assist": New(WithProject("proj-1")),
		"api key":     New(WithAPIKey("k")),
	} {
		for _, req := range []chat.Request{session(0, 3), session(20, 30)} {
			shares := sharedPrefix(t, m, loopSteps(req, 2))
			if len(shares) != 2 {
				t.Fatalf("%s: got %d shares; want 2", name, len(shares))
			}
			t.Logf("%s, %d prior messages, %d tools: shared prefix %.1f%%, %.1f%%", name, len(req.Messages)-1, len(req.Tools),
				100*shares[0], 100*shares[1])
		}
	}
}

// BenchmarkCachePrefix reports the shared-prefix share of consecutive
// steps of one turn in a session of 20 prior messages and 30 tools.
func BenchmarkCachePrefix(b *testing.B) {
	steps := loopSteps(session(20, 30), 2)
	for _, mode := range []string{"code assist", "api key"} {
		m := New(WithProject("proj-1"))
		if mode == "api key" {
			m = New(WithAPIKey("k"))
		}
		b.Run(strings.ReplaceAll(mode, " ", "_"), func(b *testing.B) {
			var shares []float64
			for b.Loop() {
				shares = sharedPrefix(b, m, steps)
			}
			b.ReportMetric(100*shares[0], "shared%/step2")
			b.ReportMetric(100*shares[1], "shared%/step3")
		})
	}
}
