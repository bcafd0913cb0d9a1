package agent_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
)

const addSchema = `{"type":"object","properties":{"a":{"type":"integer","description":"first addend"},` +
	`"b":{"type":"integer","description":"second addend"},"mode":{"type":"string","enum":["exact","round"]}},"required":["a","b"]}`

// brokenCases are arguments a model gets wrong. Gemini's args is a Struct,
// so it can only get the schema wrong: its fake answers anything else
// with MALFORMED_FUNCTION_CALL, as the service does.
var brokenCases = []struct {
	name       string
	raw        string
	unparsable bool // not a JSON object: OpenAI and Anthropic only
	want       []string
}{
	{"cut off", `{"a": 1, "b":`, true, []string{"not valid JSON", `The arguments sent were: {"a": 1, "b":`}},
	{"not an object", `[1, 2]`, true, []string{"must be one JSON object, not an array", "The arguments sent were: [1, 2]"}},
	{"missing required", `{"a": 1}`, false, []string{`missing required property "b" (integer)`}},
	{"wrong type", `{"a": "one", "b": 2}`, false, []string{`property "a" must be integer, got a string`}},
	{"not in the enum", `{"a": 1, "b": 2, "mode": "fuzzy"}`, false, []string{`property "mode" must be one of "exact", "round", got "fuzzy"`}},
}

// TestBrokenArgumentsAreAnswered: a call whose arguments the model got
// wrong gets an error result with what was wrong and the schema, in one
// request, without a retry, without running the tool or asking for
// approval; the next request carries the result and the model's repaired
// call runs.
func TestBrokenArgumentsAreAnswered(t *testing.T) {
	t.Parallel()
	for _, p := range allProviders {
		for _, tt := range brokenCases {
			if tt.unparsable && p == chat.ProviderGemini {
				continue
			}
			t.Run(p+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, p)
				h.tools.set("srv.add", fakeTool{schema: addSchema})
				h.setSession(func(s *chat.Session) { s.Approval = chat.ApprovalAsk })
				h.approver.decide["srv.add"] = agent.AllowOnce
				h.script(p).Push(
					fakescript.Reply{Text: "Adding.", ToolCalls: []fakescript.ToolCall{{Name: "srv__add", RawArgs: tt.raw}}},
					fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("srv__add", `{"a":1,"b":2}`)}},
					fakescript.Reply{Text: "It is 3."},
				)
				sink := &recSink{}
				if _, err := h.run(t.Context(), user("add 1 and 2"), sink); err != nil {
					t.Fatalf("Run: %v", err)
				}
				// One request per step: no retry, no backoff.
				reqs := h.requests(p)
				if len(reqs) != 3 {
					t.Errorf("%d requests; want 3 (broken call, repaired call, answer)", len(reqs))
				}
				if s := h.clock.slept(); len(s) != 0 {
					t.Errorf("waited %v; want no backoff", s)
				}
				// Only the repaired call ran, and only it was approved.
				if got := h.tools.requests(); len(got) != 1 || string(got[0].Call.Arguments) != `{"a":1,"b":2}` {
					t.Errorf("tool calls %+v; want the repaired call only", got)
				}
				if q := h.approver.questions(); len(q) != 1 {
					t.Errorf("approval asked for %v; want the repaired call only", q)
				}
				msgs := h.messages()
				if got := roles(msgs); got != "user,assistant,tool,assistant,tool,assistant" {
					t.Fatalf("stored roles %s", got)
				}
				broken := msgs[1].ToolCalls()[0]
				if !json.Valid(broken.Arguments) || broken.Arguments[0] != '{' {
					t.Errorf("stored arguments %s; want a JSON object", broken.Arguments)
				}
				if tt.unparsable && broken.InvalidArguments != tt.raw {
					t.Errorf("stored invalid arguments %q; want %q", broken.InvalidArguments, tt.raw)
				}
				res := msgs[2].Parts[0].(chat.ToolResultPart).Result
				if res.Successful || res.CallID != broken.ID {
					t.Errorf("result %+v; want a failure for the broken call", res)
				}
				for _, want := range append(tt.want, "the tool was not run", addSchema) {
					if !strings.Contains(res.Error, want) {
						t.Errorf("error %q lacks %q", res.Error, want)
					}
				}
				// The next request answers the broken call, in a shape the
				// provider accepts (h.requests reports any rejection).
				if len(reqs) > 1 {
					next := string(reqs[1].Body)
					if !strings.Contains(next, resultShape[p]) || !strings.Contains(next, "the tool was not run") {
						t.Errorf("the next request lacks the error result")
					}
					if tt.unparsable && !strings.Contains(next, chat.InvalidArgumentsKey) {
						t.Errorf("the next request lacks the broken call's text under %s", chat.InvalidArgumentsKey)
					}
				}
				if got := msgs[5].Text(); got != "It is 3." {
					t.Errorf("final answer %q", got)
				}
				// The card of the broken call finishes with the error; it
				// never runs.
				var failed, running []string
				for _, f := range eventsOf[agent.ToolCallFinished](sink) {
					if !f.Result.Successful {
						failed = append(failed, f.CallID)
					}
				}
				for _, r := range eventsOf[agent.ToolCallRunning](sink) {
					running = append(running, r.CallID)
				}
				if !slices.Equal(failed, []string{broken.ID}) || slices.Contains(running, broken.ID) || len(running) != 1 {
					t.Errorf("failed cards %v, running %v; want the broken call failed and only the repaired one running", failed, running)
				}
			})
		}
	}
}

// TestInvalidArgumentsReplayEverywhere: a call stored with invalid
// arguments renders, on every provider, in a shape that provider accepts.
func TestInvalidArgumentsReplayEverywhere(t *testing.T) {
	t.Parallel()
	for _, from := range []string{chat.ProviderOpenAI, chat.ProviderAnthropic} {
		for _, to := range allProviders {
			t.Run(from+"→"+to, func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, from)
				h.script(from).Push(
					fakescript.Reply{ToolCalls: []fakescript.ToolCall{{Name: "srv__echo", RawArgs: `{"x": 1,`}}},
					fakescript.Reply{Text: "Sorry, fixed."},
				)
				if _, err := h.run(t.Context(), user("first"), nil); err != nil {
					t.Fatalf("turn on %s: %v", from, err)
				}
				h.setSession(func(s *chat.Session) { s.Provider, s.Model = to, modelNames[to] })
				h.script(to).Push(fakescript.Reply{Text: "Second answer."})
				if _, err := h.run(t.Context(), user("second"), nil); err != nil {
					t.Fatalf("turn on %s after %s: %v", to, from, err)
				}
				reqs := h.requests(to)
				if last := string(reqs[len(reqs)-1].Body); !strings.Contains(last, chat.InvalidArgumentsKey) {
					t.Errorf("request to %s lacks the invalid arguments under %s: %s", to, chat.InvalidArgumentsKey, last)
				}
			})
		}
	}
}
