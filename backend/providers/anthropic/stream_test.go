package anthropic

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"maestro/backend/chat"
)

// sseOf frames JSON event payloads as wire SSE, naming each event by its type.
func sseOf(payloads ...string) string {
	var b strings.Builder
	for _, p := range payloads {
		var head struct{ Type string }
		_ = json.Unmarshal([]byte(p), &head)
		b.WriteString("event: " + head.Type + "\ndata: " + p + "\n\n")
	}
	return b.String()
}

func collect(seq func(func(chat.Event, error) bool)) ([]chat.Event, error) {
	var evs []chat.Event
	for ev, err := range seq {
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
}

func readFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "sse", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func pd(s string) chat.ProviderData { return chat.ProviderData{chat.ProviderAnthropic: raw(s)} }

const (
	msgStart   = `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"usage":{"input_tokens":10,"cache_creation_input_tokens":3,"cache_read_input_tokens":7,"output_tokens":1}}}`
	ping       = `{"type":"ping"}`
	msgStop    = `{"type":"message_stop"}`
	endTurn    = `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":20}}`
	toolUseEnd = `{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":30}}`
)

// usage is msgStart's usage as chat.Usage counts it: input_tokens 10 plus
// the 7 read from and 3 written to the cache.
func usage(out int64) chat.Usage {
	return chat.Usage{InputTokens: 20, OutputTokens: out, CacheReadTokens: 7, CacheWriteTokens: 3}
}

func TestParseStream(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []chat.Event
	}{
		{name: "fixture text", in: readFixture(t, "text.sse"), want: []chat.Event{
			chat.TextDelta{Text: "Hello"}, chat.TextDelta{Text: "! I"}, chat.TextDelta{Text: "'m doing well, thank you for asking"},
			chat.TextDelta{Text: ". How are you doing today?"}, chat.TextDelta{Text: " Is"}, chat.TextDelta{Text: " there anything I can help you with?"},
			chat.Finish{Reason: "stop", Usage: chat.Usage{InputTokens: 12, OutputTokens: 30}, ResponseID: "msg_01QC4g3HwBThD4BaNtBckFDJ"},
		}},
		{name: "fixture json tool", in: readFixture(t, "json-tool.1.sse"), want: []chat.Event{
			chat.ToolCallStart{Index: 0, ID: "toolu_01KFbKqPYSuAKujiL6mTfzYA", Name: "json"},
			chat.ToolCallDelta{Index: 0, Fragment: `{"elements": [{"location": "San Francisco", "temperature": 58, "condition": "sunny"}]`},
			chat.ToolCallDelta{Index: 0, Fragment: `}`},
			chat.ToolCallDone{Index: 0, ID: "toolu_01KFbKqPYSuAKujiL6mTfzYA", Name: "json",
				Arguments: raw(`{"elements": [{"location": "San Francisco", "temperature": 58, "condition": "sunny"}]}`)},
			chat.Finish{Reason: "tool_calls", Usage: chat.Usage{InputTokens: 849, OutputTokens: 47}, ResponseID: "msg_01K2JbSUMYhez5RHoK9ZCj9U"},
		}},
		{name: "fixture tool without arguments", in: readFixture(t, "tool-no-args.sse"), want: []chat.Event{
			chat.TextDelta{Text: "I'll update the issue list for"}, chat.TextDelta{Text: " you."},
			chat.ToolCallStart{Index: 0, ID: "toolu_01QE1WLsSVp5hy5Q3GmGTmjP", Name: "updateIssueList"},
			chat.ToolCallDone{Index: 0, ID: "toolu_01QE1WLsSVp5hy5Q3GmGTmjP", Name: "updateIssueList", Arguments: raw(`{}`)},
			chat.Finish{Reason: "tool_calls", Usage: chat.Usage{InputTokens: 565, OutputTokens: 48}, ResponseID: "msg_01GE2RKp1VYsPzdFs3sS9z5S"},
		}},
		{name: "thinking then text", in: sseOf(msgStart,
			`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me "}}`,
			ping,
			`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"think."}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBsig"}}`,
			`{"type":"content_block_stop","index":0}`,
			`{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Done."}}`,
			`{"type":"content_block_stop","index":1}`, endTurn, msgStop), want: []chat.Event{
			chat.ReasoningDelta{Text: "Let me "}, chat.ReasoningDelta{Text: "think."},
			chat.ReasoningDone{ProviderData: pd(`{"signature":"EqQBsig","thinking":"Let me think."}`)},
			chat.TextDelta{Text: "Done."},
			chat.Finish{Reason: "stop", Usage: usage(20), ResponseID: "msg_1"},
		}},
		{name: "redacted thinking", in: sseOf(msgStart,
			`{"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"EmwKAhgB"}}`,
			`{"type":"content_block_stop","index":0}`, endTurn, msgStop), want: []chat.Event{
			chat.ReasoningDone{ProviderData: pd(`{"type":"redacted_thinking","data":"EmwKAhgB"}`)},
			chat.Finish{Reason: "stop", Usage: usage(20), ResponseID: "msg_1"},
		}},
		{name: "arguments in many fragments", in: sseOf(msgStart,
			`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"weather__get","input":{}}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"ci"}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"ty\": \"Par"}}`,
			ping,
			`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"is\"}"}}`,
			`{"type":"content_block_stop","index":0}`, toolUseEnd, msgStop), want: []chat.Event{
			chat.ToolCallStart{Index: 0, ID: "toolu_1", Name: "weather__get"},
			chat.ToolCallDelta{Index: 0, Fragment: `{"ci`}, chat.ToolCallDelta{Index: 0, Fragment: `ty": "Par`}, chat.ToolCallDelta{Index: 0, Fragment: `is"}`},
			chat.ToolCallDone{Index: 0, ID: "toolu_1", Name: "weather__get", Arguments: raw(`{"city": "Paris"}`)},
			chat.Finish{Reason: "tool_calls", Usage: usage(30), ResponseID: "msg_1"},
		}},
		{name: "parallel calls", in: sseOf(msgStart,
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Checking."}}`,
			`{"type":"content_block_stop","index":0}`,
			`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_a","name":"a__b","input":{}}}`,
			`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"x\":1}"}}`,
			`{"type":"content_block_stop","index":1}`,
			`{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_b","name":"long__name","input":{}}}`,
			`{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":""}}`,
			`{"type":"content_block_stop","index":2}`,
			`{"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_c","name":"unprefixed","input":{"y":2}}}`,
			`{"type":"content_block_stop","index":3}`, toolUseEnd, msgStop), want: []chat.Event{
			chat.TextDelta{Text: "Checking."},
			chat.ToolCallStart{Index: 0, ID: "toolu_a", Name: "a__b"},
			chat.ToolCallDelta{Index: 0, Fragment: `{"x":1}`},
			chat.ToolCallDone{Index: 0, ID: "toolu_a", Name: "a__b", Arguments: raw(`{"x":1}`)},
			chat.ToolCallStart{Index: 1, ID: "toolu_b", Name: "long__name"},
			chat.ToolCallDone{Index: 1, ID: "toolu_b", Name: "long__name", Arguments: raw(`{}`)},
			chat.ToolCallStart{Index: 2, ID: "toolu_c", Name: "unprefixed"},
			chat.ToolCallDone{Index: 2, ID: "toolu_c", Name: "unprefixed", Arguments: raw(`{"y":2}`)},
			chat.Finish{Reason: "tool_calls", Usage: usage(30), ResponseID: "msg_1"},
		}},
		// The model's broken arguments (cut off at max_tokens, or not an
		// object) end the call, not the stream.
		{name: "broken arguments", in: sseOf(msgStart,
			`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"t","input":{}}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\": [1,"}}`,
			`{"type":"content_block_stop","index":0}`,
			`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_2","name":"t","input":{}}}`,
			`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"[1]"}}`,
			`{"type":"content_block_stop","index":1}`, toolUseEnd, msgStop), want: []chat.Event{
			chat.ToolCallStart{Index: 0, ID: "toolu_1", Name: "t"},
			chat.ToolCallDelta{Index: 0, Fragment: `{"a": [1,`},
			chat.ToolCallDone{Index: 0, ID: "toolu_1", Name: "t", Arguments: raw(`{}`), RawArguments: `{"a": [1,`},
			chat.ToolCallStart{Index: 1, ID: "toolu_2", Name: "t"},
			chat.ToolCallDelta{Index: 1, Fragment: `[1]`},
			chat.ToolCallDone{Index: 1, ID: "toolu_2", Name: "t", Arguments: raw(`{}`), RawArguments: `[1]`},
			chat.Finish{Reason: "tool_calls", Usage: usage(30), ResponseID: "msg_1"},
		}},
		// Blocks are keyed by index: a tool_use keeps the call index it
		// started with when a later block stops first.
		{name: "interleaved tool_use blocks stop last first", in: sseOf(msgStart,
			`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_a","name":"x","input":{}}}`,
			`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_b","name":"y","input":{}}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"n\":"}}`,
			`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{}"}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"1}"}}`,
			`{"type":"content_block_stop","index":1}`,
			`{"type":"content_block_stop","index":0}`, toolUseEnd, msgStop), want: []chat.Event{
			chat.ToolCallStart{Index: 0, ID: "toolu_a", Name: "x"},
			chat.ToolCallStart{Index: 1, ID: "toolu_b", Name: "y"},
			chat.ToolCallDelta{Index: 0, Fragment: `{"n":`},
			chat.ToolCallDelta{Index: 1, Fragment: `{}`},
			chat.ToolCallDelta{Index: 0, Fragment: `1}`},
			chat.ToolCallDone{Index: 1, ID: "toolu_b", Name: "y", Arguments: raw(`{}`)},
			chat.ToolCallDone{Index: 0, ID: "toolu_a", Name: "x", Arguments: raw(`{"n":1}`)},
			chat.Finish{Reason: "tool_calls", Usage: usage(30), ResponseID: "msg_1"},
		}},
		{name: "unknown events and blocks are skipped", in: sseOf(msgStart,
			`{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}`,
			`{"type":"content_block_stop","index":0}`,
			`{"type":"brand_new_event","x":1}`,
			`{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":1,"delta":{"type":"citations_delta","citation":{}}}`,
			`{"type":"content_block_stop","index":1}`,
			`{"type":"message_delta","delta":{"stop_reason":"max_tokens"}}`, msgStop), want: []chat.Event{
			chat.Finish{Reason: "max_tokens", Usage: usage(1), ResponseID: "msg_1"},
		}},
		{name: "crlf framing and a ping before start", in: strings.ReplaceAll(sseOf(ping, msgStart,
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}`,
			`{"type":"content_block_stop","index":0}`,
			`{"type":"message_delta","delta":{"stop_reason":"refusal"}}`, msgStop), "\n", "\r\n"), want: []chat.Event{
			chat.TextDelta{Text: "hi"},
			chat.Finish{Reason: "refusal", Usage: usage(1), ResponseID: "msg_1"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, r := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in))} {
				got, err := collect(parseStream(r))
				if err != nil {
					t.Fatalf("got error %v; want none", err)
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("got events\n%#v\nwant\n%#v", got, tt.want)
				}
			}
		})
	}
}

func TestParseStreamErrors(t *testing.T) {
	t.Parallel()
	text0 := `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`
	tests := []struct {
		name      string
		in        string
		wantKind  chat.ProviderKind
		wantCode  string
		wantInMsg string
		wantN     int // events before the error
	}{
		{"overloaded mid-stream", sseOf(msgStart, text0,
			`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"par"}}`,
			`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`), chat.ProviderKindOverloaded, "overloaded_error", "Overloaded", 1},
		{"api error mid-stream", sseOf(msgStart, `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`), chat.ProviderKindServer, "api_error", "Internal", 0},
		{"unknown error type", sseOf(`{"type":"error","error":{"type":"mystery","message":"?"}}`), chat.ProviderKindStream, "mystery", "?", 0},
		{"cut off", sseOf(msgStart, text0, `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"par"}}`), chat.ProviderKindStream, "", "before message_stop", 1},
		{"empty stream", "", chat.ProviderKindStream, "", "before message_stop", 0},
		{"bad json", "event: message_start\ndata: {\"type\":\n\n", chat.ProviderKindStream, "", "decode message_start", 0},
		{"delta before start", sseOf(msgStart, `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}`), chat.ProviderKindStream, "", "not open", 0},
		{"content before message_start", sseOf(text0), chat.ProviderKindStream, "", "before message_start", 0},
		{"second message_start", sseOf(msgStart, msgStart), chat.ProviderKindStream, "", "second message_start", 0},
		{"wrong delta type", sseOf(msgStart, text0, `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{"}}`), chat.ProviderKindStream, "", "input_json_delta in a text block", 0},
		{"stop with open block", sseOf(msgStart, text0, endTurn, msgStop), chat.ProviderKindStream, "", "still open", 0},
		{"block started twice", sseOf(msgStart, text0, text0), chat.ProviderKindStream, "", "started twice", 0},
		{"missing index", sseOf(msgStart, `{"type":"content_block_stop"}`), chat.ProviderKindStream, "", "without index", 0},
		{"event without a type", "data: {\"x\":1}\n\n", chat.ProviderKindStream, "", "without a type", 0},
		{"data after the value", "event: ping\ndata: {\"type\":\"ping\"} {\"type\":\"message_stop\"}\n\n", chat.ProviderKindStream, "", "after the event", 0},
		{"not an object", "event: ping\ndata: [1]\n\n", chat.ProviderKindStream, "", "decode ping", 0},
		{"named event without data", "event: message_start\n\n", chat.ProviderKindStream, "", "without data", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := collect(parseStream(strings.NewReader(tt.in)))
			he, ok := chat.AsProviderError(err)
			if !ok {
				t.Fatalf("got error %v (events %v); want an *chat.ProviderError", err, got)
			}
			if he.Kind != tt.wantKind || he.Code != tt.wantCode || he.Status != 200 || !strings.Contains(he.Error(), tt.wantInMsg) {
				t.Errorf("got %s (kind %s, code %q, status %d); want kind %s, code %q, status 200, message with %q",
					he, he.Kind, he.Code, he.Status, tt.wantKind, tt.wantCode, tt.wantInMsg)
			}
			if len(got) != tt.wantN {
				t.Errorf("got %d events before the error; want %d", len(got), tt.wantN)
			}
		})
	}
}

func TestParseStreamReadError(t *testing.T) {
	t.Parallel()
	boom := errors.New("connection reset")
	r := io.MultiReader(strings.NewReader(sseOf(msgStart)), iotest.ErrReader(boom))
	_, err := collect(parseStream(r))
	he, ok := chat.AsProviderError(err)
	if !ok || he.Kind != chat.ProviderKindStream || !errors.Is(err, boom) {
		t.Errorf("got %v; want a stream *chat.ProviderError wrapping the read error", err)
	}
}

func TestParseStreamStopsWhenConsumerStops(t *testing.T) {
	t.Parallel()
	n := 0
	for range parseStream(strings.NewReader(readFixture(t, "text.sse"))) {
		n++
		if n == 2 {
			break
		}
	}
	if n != 2 {
		t.Errorf("got %d events; want 2", n)
	}
}

func TestParseStreamIgnoresTrailingData(t *testing.T) {
	t.Parallel()
	in := readFixture(t, "text.sse") + "event: garbage\ndata: {not json\n\n"
	evs, err := collect(parseStream(strings.NewReader(in)))
	if err != nil || len(evs) == 0 {
		t.Fatalf("got %d events, %v; want a complete stream", len(evs), err)
	}
	if _, ok := evs[len(evs)-1].(chat.Finish); !ok {
		t.Errorf("last event %#v; want Finish", evs[len(evs)-1])
	}
}
