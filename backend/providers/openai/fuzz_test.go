package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"maestro/backend/chat"
)

// fuzzSeeds are the fixtures plus the hand-written streams.
func fuzzSeeds(t testing.TB) [][]byte {
	seeds := allFixtureStreams(t)
	seeds = append(seeds,
		stream(created, `{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","call_id":"call_a","name":"x"}}`,
			`{"type":"response.function_call_arguments.delta","output_index":0,"delta":"{\"a\""}`,
			`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","arguments":"{\"a\":1}","call_id":"call_a","name":"x"}}`, completed),
		stream(created, `{"type":"response.reasoning_summary_text.delta","delta":"t"}`,
			`{"type":"response.output_item.done","item":{"type":"reasoning","summary":[],"encrypted_content":"gAAAAAx"}}`,
			`{"type":"response.incomplete","response":{"incomplete_details":{"reason":"max_output_tokens"}}}`),
		stream(`{"type":"error","code":"rate_limit_exceeded","message":"try again in 1s"}`),
		[]byte("data: {\"type\":\"response.completed\"}\r\r"),
	)
	return seeds
}

// FuzzParseStream: any input terminates without a panic, and ends either
// with a typed error or with a Finish, with well-formed tool calls.
func FuzzParseStream(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var last chat.Event
		var lastErr error
		done := map[int]bool{}
		for ev, err := range parseStream(bytes.NewReader(data)) {
			if err != nil {
				lastErr = err
				continue // the sequence must end here by itself
			}
			if lastErr != nil {
				t.Fatalf("event %#v after the error %v", ev, lastErr)
			}
			if _, ok := last.(chat.Finish); ok {
				t.Fatalf("event %#v after Finish", ev)
			}
			if d, ok := ev.(chat.ToolCallDone); ok {
				if done[d.Index] || len(d.Arguments) == 0 || d.Arguments[0] != '{' || !json.Valid(d.Arguments) ||
					d.RawArguments != "" && string(d.Arguments) != "{}" {
					t.Fatalf("bad ToolCallDone %#v (done before: %v)", d, done[d.Index])
				}
				done[d.Index] = true
			}
			last = ev
		}
		if lastErr != nil {
			if _, ok := chat.AsProviderError(lastErr); !ok {
				t.Fatalf("error %v is not an *chat.ProviderError", lastErr)
			}
			return
		}
		if _, ok := last.(chat.Finish); !ok {
			t.Fatalf("stream ended with %#v; want Finish or an error", last)
		}
	})
}

// TestWriteFuzzCorpus rewrites testdata/fuzz/FuzzParseStream/seed-* from
// fuzzSeeds under -update, so the corpus stays in Go's file format.
func TestWriteFuzzCorpus(t *testing.T) {
	if !*update {
		t.Skip("run with -update to rewrite the seed corpus")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzParseStream")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, s := range fuzzSeeds(t) {
		body := "go test fuzz v1\n[]byte(" + strconv.Quote(string(s)) + ")\n"
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed-%02d", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzDecodeDelta: the hand-written delta reader agrees with encoding/json.
func FuzzDecodeDelta(f *testing.F) {
	for _, s := range []string{
		`{"type":"response.output_text.delta","output_index":1,"delta":"Hel\"lo\n\u00e9\ud83d\ude00"}`,
		`{"type":"x","summary_index":2,"delta":null,"output_index":null}`,
		`{"type":"x","delta":"\ud800 lone","output_index":1.5}`,
		`{"delta":"a","delta":"b", "nested":{"delta":"c"}, "arr":[1,"]"]}`,
		"{\"delta\":\"\xff\"}", `{"delta":5}`, `[1]`, `{"output_index":-1}`, `{"output_index":99999999999}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got, want deltaFields
		gotErr := decodeDelta(data, &got)
		wantErr := json.Unmarshal(data, &want)
		if (gotErr == nil) != (wantErr == nil) || gotErr == nil && got != want {
			t.Fatalf("decodeDelta(%q) = %+v, %v; encoding/json gives %+v, %v", data, got, gotErr, want, wantErr)
		}
	})
}
