package openai

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"maestro/backend/chat"
)

// The codex and vercel recordings parse to the expected events.
func TestParseFixtures(t *testing.T) {
	t.Parallel()
	parallelArgs := `{"tool_uses":[{"recipient_name":"functions.weather","parameters":{"location":"San Francisco"}},{"recipient_name":"functions.cityAttractions","parameters":{"city":"Rome"}}]}`
	tests := []struct {
		name string
		in   []byte
		want []chat.Event
	}{
		{"codex cli_responses_fixture.sse", fixture(t, "cli_responses_fixture.sse"), []chat.Event{
			chat.TextDelta{Text: "fixture hello"}, chat.Finish{Reason: "stop", ResponseID: "resp1"}}},
		{"codex completed_template.json", arrayStream(t, "completed_template.json", "resp_tmpl"), []chat.Event{
			chat.Finish{Reason: "stop", ResponseID: "resp_tmpl"}}},
		// The recording is hand-edited: its response.created and
		// response.completed lines each lack their final "}" (see
		// TestParseFixtureErrors); repaired, it parses.
		{"vercel parallel-tool-call-wrapper, repaired", repaired(chunkStreams(t, "parallel-tool-call-wrapper.1.chunks.txt")[0]), []chat.Event{
			chat.ToolCallStart{Index: 0, ID: "call_parallel", Name: "parallel"},
			chat.ToolCallDelta{Index: 0, Fragment: parallelArgs},
			chat.ToolCallDone{Index: 0, ID: "call_parallel", Name: "parallel", Arguments: json.RawMessage(parallelArgs)},
			chat.Finish{Reason: "tool_calls", Usage: chat.Usage{InputTokens: 34, OutputTokens: 28}, ResponseID: "resp_parallel"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := collect(tt.in)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("events:\n got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestParseFixtureErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []byte
		kind chat.ProviderKind
		code string
		msg  string
	}{
		{"vercel parallel-tool-call-wrapper as recorded", chunkStreams(t, "parallel-tool-call-wrapper.1.chunks.txt")[0], chat.ProviderKindStream, "", "decode event"},
		{"codex incomplete_sse.json", arrayStream(t, "incomplete_sse.json", ""), chat.ProviderKindStream, "", "stream closed before response.completed"},
		{"vercel openai-error", chunkStreams(t, "openai-error.1.chunks.txt")[0], chat.ProviderKindQuota, "insufficient_quota", "You exceeded your current quota"},
		{"vercel response-failed-only", chunkStreams(t, "openai-response-failed-only.1.chunks.txt")[0], chat.ProviderKindRateLimit, "rate_limit_exceeded", "Request too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			evs, err := collect(tt.in)
			he, ok := chat.AsProviderError(err)
			if len(evs) != 0 || !ok {
				t.Fatalf("got %v, %v; want no events and an *chat.ProviderError", evs, err)
			}
			if he.Kind != tt.kind || he.Code != tt.code || !strings.Contains(he.Error(), tt.msg) {
				t.Errorf("err = %+v; want kind %s, code %q, message containing %q", he, tt.kind, tt.code, tt.msg)
			}
		})
	}
}

// The reasoning recording: four responses of a real tool loop.
func TestParseReasoningRecording(t *testing.T) {
	t.Parallel()
	streams := chunkStreams(t, "openai-reasoning-encrypted-content.1.chunks.txt")
	if len(streams) != 4 {
		t.Fatalf("got %d responses in the recording; want 4", len(streams))
	}
	type summary struct {
		reasoning, text string
		deltas          int
		calls           []string
		replay          int
		finish          chat.Finish
	}
	want := []summary{
		{reasoning: "**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply the result by 3, and finally multiply that by 10, reporting the final product.",
			deltas: 13, calls: []string{`calculator {"a":12,"b":7,"op":"add"}`}, replay: 1,
			finish: chat.Finish{Reason: "tool_calls", Usage: chat.Usage{InputTokens: 134, OutputTokens: 28}, ResponseID: "resp_01830d662ab3856501693c321345c88190b0de00f3b9975691"}},
		{deltas: 13, calls: []string{`calculator {"a":19,"b":3,"op":"multiply"}`}},
		{deltas: 13, calls: []string{`calculator {"a":57,"b":10,"op":"multiply"}`}},
		{text: "The final result is **570**."},
	}
	for i, s := range streams {
		evs, err := collect(s)
		if err != nil {
			t.Fatalf("response %d: %v", i, err)
		}
		var got summary
		for _, ev := range evs {
			switch ev := ev.(type) {
			case chat.ReasoningDelta:
				got.reasoning += ev.Text
			case chat.TextDelta:
				got.text += ev.Text
			case chat.ToolCallDelta:
				got.deltas++
			case chat.ToolCallDone:
				got.calls = append(got.calls, ev.Name+" "+string(ev.Arguments))
			case chat.ReasoningDone:
				got.replay++
				var item map[string]any
				if err := json.Unmarshal(ev.ProviderData["openai"], &item); err != nil {
					t.Fatalf("response %d: reasoning data: %v", i, err)
				}
				if _, hasID := item["id"]; hasID || !strings.HasPrefix(item["encrypted_content"].(string), "gAAAAA") {
					t.Errorf("response %d: stored reasoning item %v; want no id and the encrypted_content", i, item)
				}
			case chat.Finish:
				got.finish = ev
			}
		}
		if i > 0 { // only the first response's usage and id are spelled out
			got.finish = chat.Finish{}
		}
		if !reflect.DeepEqual(got, want[i]) {
			t.Errorf("response %d:\n got %+v\nwant %+v", i, got, want[i])
		}
	}
}

// repaired closes the data lines of a stream that lack their final brace.
func repaired(sse []byte) []byte {
	lines := strings.Split(string(sse), "\n")
	for i, l := range lines {
		if d, ok := strings.CutPrefix(l, "data: "); ok && !json.Valid([]byte(d)) && json.Valid([]byte(d+"}")) {
			lines[i] = l + "}"
		}
	}
	return []byte(strings.Join(lines, "\n"))
}
