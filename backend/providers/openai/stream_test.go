package openai

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"maestro/backend/chat"
	"maestro/backend/providers"
)

// stream builds a wire SSE stream from data payloads.
func stream(payloads ...string) []byte {
	var buf strings.Builder
	for _, p := range payloads {
		var head struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal([]byte(p), &head)
		buf.WriteString("event: " + head.Type + "\ndata: " + p + "\n\n")
	}
	return []byte(buf.String())
}

const (
	created   = `{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","status":"in_progress"}}`
	completed = `{"type":"response.completed","response":{"id":"resp_1","status":"completed","usage":{"input_tokens":45,"input_tokens_details":{"cached_tokens":12},"output_tokens":25,"output_tokens_details":{"reasoning_tokens":7},"total_tokens":70}}}`
)

var usage = chat.Usage{InputTokens: 45, OutputTokens: 25, ReasoningTokens: 7, CacheReadTokens: 12}

func TestParseStream(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []byte
		want []chat.Event
	}{
		{"text", stream(created,
			`{"type":"response.output_item.added","output_index":0,"item":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`,
			`{"type":"response.output_text.delta","output_index":0,"delta":"Hel"}`,
			`{"type":"response.output_text.delta","output_index":0,"delta":"lo"}`,
			`{"type":"response.output_item.done","output_index":0,"item":{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"output_text","text":"Hello"}]}}`,
			completed), []chat.Event{
			chat.TextDelta{Text: "Hel"}, chat.TextDelta{Text: "lo"},
			chat.Finish{Reason: "stop", Usage: usage, ResponseID: "resp_1"}}},
		{"thinking in two summary parts", stream(created,
			`{"type":"response.output_item.added","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[]}}`,
			`{"type":"response.reasoning_summary_part.added","output_index":0,"summary_index":0}`,
			`{"type":"response.reasoning_summary_text.delta","output_index":0,"summary_index":0,"delta":"**Plan**"}`,
			`{"type":"response.reasoning_summary_part.added","output_index":0,"summary_index":1}`,
			`{"type":"response.reasoning_summary_text.delta","output_index":0,"summary_index":1,"delta":"Then act."}`,
			`{"type":"response.output_item.done","output_index":0,"item":{"id":"rs_1","type":"reasoning","status":"completed","summary":[{"type":"summary_text","text":"**Plan**"},{"type":"summary_text","text":"Then act."}],"encrypted_content":"gAAAAABx"}}`,
			`{"type":"response.output_text.delta","output_index":1,"delta":"Done."}`,
			completed), []chat.Event{
			chat.ReasoningDelta{Text: "**Plan**"}, chat.ReasoningDelta{Text: "\n\n"}, chat.ReasoningDelta{Text: "Then act."},
			chat.ReasoningDone{ProviderData: chat.ProviderData{"openai": json.RawMessage(
				`{"type":"reasoning","summary":[{"type":"summary_text","text":"**Plan**"},{"type":"summary_text","text":"Then act."}],"encrypted_content":"gAAAAABx"}`)}},
			chat.TextDelta{Text: "Done."},
			chat.Finish{Reason: "stop", Usage: usage, ResponseID: "resp_1"}}},
		{"reasoning text without summary deltas or encrypted content", stream(created,
			`{"type":"response.reasoning_text.delta","output_index":0,"delta":"raw thought"}`,
			`{"type":"response.output_item.done","output_index":0,"item":{"type":"reasoning","summary":[]}}`,
			completed), []chat.Event{
			chat.ReasoningDelta{Text: "raw thought"}, chat.ReasoningDone{},
			chat.Finish{Reason: "stop", Usage: usage, ResponseID: "resp_1"}}},
		{"one call in many fragments", stream(created,
			`{"type":"response.output_item.added","output_index":0,"item":{"id":"fc_1","type":"function_call","arguments":"","call_id":"call_abc","name":"get_weather"}}`,
			`{"type":"response.function_call_arguments.delta","output_index":0,"delta":"{\"ci"}`,
			`{"type":"response.function_call_arguments.delta","output_index":0,"delta":"ty\":\"Be"}`,
			`{"type":"response.function_call_arguments.delta","output_index":0,"delta":"ijing\"}"}`,
			`{"type":"response.function_call_arguments.done","output_index":0,"arguments":"{\"city\":\"Beijing\"}"}`,
			`{"type":"response.output_item.done","output_index":0,"item":{"id":"fc_1","type":"function_call","status":"completed","arguments":"{\"city\":\"Beijing\"}","call_id":"call_abc","name":"get_weather"}}`,
			completed), []chat.Event{
			chat.ToolCallStart{Index: 0, ID: "call_abc", Name: "get_weather"},
			chat.ToolCallDelta{Index: 0, Fragment: `{"ci`}, chat.ToolCallDelta{Index: 0, Fragment: `ty":"Be`},
			chat.ToolCallDelta{Index: 0, Fragment: `ijing"}`},
			chat.ToolCallDone{Index: 0, ID: "call_abc", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Beijing"}`)},
			chat.Finish{Reason: "tool_calls", Usage: usage, ResponseID: "resp_1"}}},
		{"parallel calls and an empty-arguments call", stream(created,
			`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","arguments":"","call_id":"call_a","name":"fs__list"}}`,
			`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","arguments":"","call_id":"call_a","name":"fs__list"}}`,
			`{"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","arguments":"","call_id":"call_b","name":"fs__read_file"}}`,
			`{"type":"response.function_call_arguments.delta","output_index":1,"delta":"{\"path\":\"a\"}"}`,
			`{"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","arguments":" {\"path\":\"a\"} ","call_id":"call_b","name":"fs__read_file"}}`,
			completed), []chat.Event{
			chat.ToolCallStart{Index: 0, ID: "call_a", Name: "fs__list"},
			chat.ToolCallDone{Index: 0, ID: "call_a", Name: "fs__list", Arguments: json.RawMessage(`{}`)},
			chat.ToolCallStart{Index: 1, ID: "call_b", Name: "fs__read_file"},
			chat.ToolCallDelta{Index: 1, Fragment: `{"path":"a"}`},
			chat.ToolCallDone{Index: 1, ID: "call_b", Name: "fs__read_file", Arguments: json.RawMessage(`{"path":"a"}`)},
			chat.Finish{Reason: "tool_calls", Usage: usage, ResponseID: "resp_1"}}},
		{"call done without added", stream(created,
			`{"type":"response.output_item.done","output_index":3,"item":{"type":"function_call","arguments":"{}","call_id":"call_z","name":"x"}}`,
			`{"type":"response.completed","response":{"id":"resp_1"}}`), []chat.Event{
			chat.ToolCallStart{Index: 0, ID: "call_z", Name: "x"},
			chat.ToolCallDone{Index: 0, ID: "call_z", Name: "x", Arguments: json.RawMessage(`{}`)},
			chat.Finish{Reason: "tool_calls", ResponseID: "resp_1"}}},
		// Arguments the model got wrong end the call, not the stream.
		{"broken and non-object arguments", stream(created,
			`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","arguments":"","call_id":"call_a","name":"x"}}`,
			`{"type":"response.function_call_arguments.delta","output_index":0,"delta":"{\"a\":"}`,
			`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","arguments":"{\"a\":","call_id":"call_a","name":"x"}}`,
			`{"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","arguments":"[1]","call_id":"call_b","name":"x"}}`,
			completed), []chat.Event{
			chat.ToolCallStart{Index: 0, ID: "call_a", Name: "x"},
			chat.ToolCallDelta{Index: 0, Fragment: `{"a":`},
			chat.ToolCallDone{Index: 0, ID: "call_a", Name: "x", Arguments: json.RawMessage(`{}`), RawArguments: `{"a":`},
			chat.ToolCallStart{Index: 1, ID: "call_b", Name: "x"},
			chat.ToolCallDone{Index: 1, ID: "call_b", Name: "x", Arguments: json.RawMessage(`{}`), RawArguments: `[1]`},
			chat.Finish{Reason: "tool_calls", Usage: usage, ResponseID: "resp_1"}}},
		// Items multiplexed by output_index: a call keeps the index it was
		// added with when another completes first.
		{"interleaved calls complete last first", stream(created,
			`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","arguments":"","call_id":"call_a","name":"x"}}`,
			`{"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","arguments":"","call_id":"call_b","name":"y"}}`,
			`{"type":"response.function_call_arguments.delta","output_index":0,"delta":"{\"n\""}`,
			`{"type":"response.function_call_arguments.delta","output_index":1,"delta":"{}"}`,
			`{"type":"response.function_call_arguments.delta","output_index":0,"delta":":1}"}`,
			`{"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","arguments":"{}","call_id":"call_b","name":"y"}}`,
			`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","arguments":"{\"n\":1}","call_id":"call_a","name":"x"}}`,
			completed), []chat.Event{
			chat.ToolCallStart{Index: 0, ID: "call_a", Name: "x"},
			chat.ToolCallStart{Index: 1, ID: "call_b", Name: "y"},
			chat.ToolCallDelta{Index: 0, Fragment: `{"n"`},
			chat.ToolCallDelta{Index: 1, Fragment: `{}`},
			chat.ToolCallDelta{Index: 0, Fragment: `:1}`},
			chat.ToolCallDone{Index: 1, ID: "call_b", Name: "y", Arguments: json.RawMessage(`{}`)},
			chat.ToolCallDone{Index: 0, ID: "call_a", Name: "x", Arguments: json.RawMessage(`{"n":1}`)},
			chat.Finish{Reason: "tool_calls", Usage: usage, ResponseID: "resp_1"}}},
		{"incomplete at max tokens", stream(created,
			`{"type":"response.output_text.delta","delta":"Trunc"}`,
			`{"type":"response.incomplete","response":{"id":"resp_1","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"}}}`), []chat.Event{
			chat.TextDelta{Text: "Trunc"}, chat.Finish{Reason: "max_tokens", ResponseID: "resp_1"}}},
		{"comments, keep-alives and unknown events", []byte(": keep-alive\n\nevent: ping\n\n" + string(stream(created,
			`{"type":"response.content_part.added","output_index":0}`, `{"type":"response.output_text.delta","delta":"x"}`, completed))), []chat.Event{
			chat.TextDelta{Text: "x"}, chat.Finish{Reason: "stop", Usage: usage, ResponseID: "resp_1"}}},
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

func TestParseStreamErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		in         []byte
		events     int
		kind       chat.ProviderKind
		code       string
		msg        string
		retryAfter time.Duration
	}{
		{"cut off", stream(created, `{"type":"response.output_text.delta","delta":"Hel"}`), 1,
			chat.ProviderKindStream, "", "stream closed before response.completed", 0},
		{"empty body", nil, 0, chat.ProviderKindStream, "", "stream closed before response.completed", 0},
		{"bad json", []byte("data: {\"type\":\"response.output_text.delta\",\n\n"), 0, chat.ProviderKindStream, "", "decode event", 0},
		{"no type", []byte("data: {\"delta\":\"x\"}\n\n"), 0, chat.ProviderKindStream, "", "event without a type", 0},
		{"call without id", stream(`{"type":"response.output_item.done","item":{"type":"function_call","arguments":"{}","name":"x"}}`), 0,
			chat.ProviderKindStream, "", "without call_id", 0},
		{"call completed twice", stream(
			`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","arguments":"{}","call_id":"call_a","name":"x"}}`,
			`{"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","arguments":"{}","call_id":"call_a","name":"x"}}`), 2,
			chat.ProviderKindStream, "", "completed twice", 0},
		{"call never completed", stream(
			`{"type":"response.output_item.added","item":{"type":"function_call","call_id":"call_a","name":"x"}}`, completed), 1,
			chat.ProviderKindStream, "", "never completed", 0},
		{"context too large", stream(created,
			`{"type":"response.failed","response":{"id":"resp_1","status":"failed","error":{"code":"context_length_exceeded","message":"Your input exceeds the context window of this model."}}}`), 0,
			chat.ProviderKindContextTooLarge, "context_length_exceeded", "exceeds the context window", 0},
		{"rate limit in seconds", stream(
			`{"type":"response.failed","response":{"error":{"code":"rate_limit_exceeded","message":"Rate limit reached for gpt-5 on tokens per min. Please try again in 1.5s. Visit …"}}}`), 0,
			chat.ProviderKindRateLimit, "rate_limit_exceeded", "Rate limit reached", 1500 * time.Millisecond},
		{"rate limit in ms", stream(
			`{"type":"response.failed","response":{"error":{"code":"rate_limit_exceeded","message":"Please try again in 20ms."}}}`), 0,
			chat.ProviderKindRateLimit, "rate_limit_exceeded", "", 20 * time.Millisecond},
		{"usage not included", stream(
			`{"type":"response.failed","response":{"error":{"code":"usage_not_included","message":"not in plan"}}}`), 0,
			chat.ProviderKindEntitlement, "usage_not_included", "not in plan", 0},
		{"failed without error", stream(`{"type":"response.failed","response":{"id":"resp_1"}}`), 0,
			chat.ProviderKindServer, "", "response failed", 0},
		{"top-level error event", stream(`{"type":"error","code":"server_error","message":"boom","param":null,"sequence_number":3}`), 0,
			chat.ProviderKindServer, "server_error", "boom", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			evs, err := collect(tt.in)
			if len(evs) != tt.events {
				t.Errorf("got %d events before the error (%#v); want %d", len(evs), evs, tt.events)
			}
			he, ok := chat.AsProviderError(err)
			if !ok {
				t.Fatalf("err = %v; want *chat.ProviderError", err)
			}
			if he.Kind != tt.kind || he.Code != tt.code || he.Status != 200 || !strings.Contains(he.Error(), tt.msg) || he.RetryAfter != tt.retryAfter {
				t.Errorf("err = %+v; want kind %s, code %q, status 200, message containing %q, retry after %s",
					he, tt.kind, tt.code, tt.msg, tt.retryAfter)
			}
		})
	}
}

// Stopping the range stops the parse: nothing more is yielded.
func TestParseStreamStop(t *testing.T) {
	t.Parallel()
	in := stream(created, `{"type":"response.output_text.delta","delta":"a"}`, `{"type":"response.output_text.delta","delta":"b"}`, completed)
	n := 0
	for range parseStream(strings.NewReader(string(in))) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("yielded %d events after break; want 1", n)
	}
}

// Large and pathological inputs end, with an error, in linear time.
func TestParseStreamPathological(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20)
	tests := map[string]string{
		"one long line":       "data: {" + strings.Repeat("x", 4<<20),
		"deep nesting":        "data: {\"type\":\"response.output_text.delta\",\"x\":" + deep + "}\n\n",
		"deep ignored":        "data: {\"type\":\"response.in_progress\",\"x\":" + deep + "}\n\n",
		"many tiny events":    strings.Repeat("data: {\"type\":\"response.in_progress\"}\n\n", 100_000),
		"many empty lines":    strings.Repeat("\n", 4<<20),
		"line over the limit": "data: " + strings.Repeat("a", providers.MaxSSELine+1) + "\n\n",
	}
	for name, in := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			_, err := collect([]byte(in))
			if _, ok := chat.AsProviderError(err); !ok {
				t.Errorf("err = %v; want an *chat.ProviderError", err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %s", d)
			}
		})
	}
}
