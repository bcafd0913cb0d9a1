package gemini

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"maestro/backend/chat"
)

// sse builds a CRLF stream from payloads.
func sse(payloads ...string) []byte {
	var b strings.Builder
	for _, p := range payloads {
		b.WriteString("data: " + p + "\r\n\r\n")
	}
	return []byte(b.String())
}

// ca wraps a chunk the Code Assist way.
func ca(chunk string) string { return `{"response":` + chunk + `,"traceId":"t1"}` }

func cand(parts, finish string) string {
	s := `{"candidates":[{"content":{"role":"model","parts":[` + parts + `]},"index":0`
	if finish != "" {
		s += `,"finishReason":"` + finish + `"`
	}
	return s + `}]}`
}

func TestParseFixtures(t *testing.T) {
	t.Parallel()
	byName := map[string][]byte{}
	for _, fs := range fixtureStreams(t) {
		byName[fs.name] = fs.sse
	}
	writeArgs := `{"content":"Approved content","file_path":"approved.txt"}`
	tests := []struct {
		name string
		want []chat.Event
	}{
		{"hooks-system.allow-tool-0", []chat.Event{
			chat.ReasoningDelta{Text: "**Formulating the Write Operation**\n\nOkay, I'm now clear on the user's intent: they want a file called `approved.txt`, containing the words \"Approved content.\"  I've decided to leverage the `write_file` tool.  The specific parameter assignments seem straightforward; `file_path` will be \"approved.txt\", and the file's `content` will precisely mirror the desired output string.\n\n\n"},
			chat.ReasoningDone{},
			chat.ToolCallStart{Index: 0, Name: "write_file"},
			chat.ToolCallDelta{Index: 0, Fragment: writeArgs},
			chat.ToolCallDone{Index: 0, Name: "write_file", Arguments: raw(writeArgs), ProviderData: sig("CiQBcsjafF4NswdygCBTU7cA/yXVRcUI3XHwV+E8BDg/hRr1MaoKZQFyyNp8HRY1qEvivtg0LpYPo1022IfTY3QIeigqGvSoRVospxT5MBggc9nRbwH2vrdhZ772IdqOCrpjNHs3wc+h0AF4JzjlBet6+yC2m7TdenVOkzVAtqnNDMQAIS1gDZyKs8w/CngBcsjafOeuyDQtxuK7JCafKjtfvPvoKOkVxzDetQtHesBkPtv1Xng9dkP77jLH44hn9rrg7yA+za6vssiFZUjC/FU25pCWQgIhM+K7nt3wbAgoOZRqra2gRr3od2D3osV/UpYhy8MoloykqrWvHDOzT/0KScpHarwKXQFyyNp8qabyDYlfElywQBjqQT4f6My7+Ln9AbKZQz4NaEe90ESg4jr4jjANxyd/WKzRheaBq7BYxTHQSeShgQbVjk2D0tZO4hAN+CToMtQwJl95Ss4ZEov6gAwMNA==")},
			chat.Finish{Reason: "tool_calls", Usage: chat.Usage{InputTokens: 12778, OutputTokens: 84, ReasoningTokens: 60}, ResponseID: "hooks-system.allow-tool-0"},
		}},
		{"hooks-system.allow-tool-1", []chat.Event{
			chat.Finish{Reason: "stop", Usage: chat.Usage{InputTokens: 12939, CacheReadTokens: 12203}, ResponseID: "hooks-system.allow-tool-1"},
		}},
		{"api-resilience-0", []chat.Event{
			chat.TextDelta{Text: "Part 1. "},
			chat.TextDelta{Text: "Part 2."},
			chat.Finish{Reason: "stop", Usage: chat.Usage{InputTokens: 100, OutputTokens: 10}, ResponseID: "api-resilience-0"},
		}},
		{"parallel-tools-1", []chat.Event{
			chat.ToolCallStart{Index: 0, Name: "read_file"},
			chat.ToolCallDelta{Index: 0, Fragment: `{"file_path":"file1.txt"}`},
			chat.ToolCallDone{Index: 0, Name: "read_file", Arguments: raw(`{"file_path":"file1.txt"}`)},
			chat.ToolCallStart{Index: 1, Name: "read_file"},
			chat.ToolCallDelta{Index: 1, Fragment: `{"file_path":"file2.txt"}`},
			chat.ToolCallDone{Index: 1, Name: "read_file", Arguments: raw(`{"file_path":"file2.txt"}`)},
			chat.ToolCallStart{Index: 2, Name: "write_file"},
			chat.ToolCallDelta{Index: 2, Fragment: `{"file_path":"output.txt","content":"wave2"}`},
			chat.ToolCallDone{Index: 2, Name: "write_file", Arguments: raw(`{"file_path":"output.txt","content":"wave2"}`)},
			chat.ToolCallStart{Index: 3, Name: "read_file"},
			chat.ToolCallDelta{Index: 3, Fragment: `{"file_path":"file3.txt"}`},
			chat.ToolCallDone{Index: 3, Name: "read_file", Arguments: raw(`{"file_path":"file3.txt"}`)},
			chat.ToolCallStart{Index: 4, Name: "read_file"},
			chat.ToolCallDelta{Index: 4, Fragment: `{"file_path":"file4.txt"}`},
			chat.ToolCallDone{Index: 4, Name: "read_file", Arguments: raw(`{"file_path":"file4.txt"}`)},
			chat.TextDelta{Text: "All waves completed successfully."},
			chat.Finish{Reason: "tool_calls", ResponseID: "parallel-tools-1"},
		}},
		{"google-text", []chat.Event{
			chat.TextDelta{Text: "There are **3**"},
			chat.TextDelta{Text: " \"r\"s in strawberry.\n\nst**r**awbe**rr**y"},
			chat.TextDelta{ProviderData: sig("EqsFCqgFAb4+9vvtAF5n87lB4OGDOoTRMOqp35jW65XsYXh6BySMwl9nvrbAvPcl2U0xITaYUyV4CmREEDB1z0ZPpCg7iEwiZcj40Eh1jXoL8Y/BbPqxdgZKvKxdBsJx92y2ML5ytajQHVFQb9ohEMMnjs9uNadLAhDEsOU1nC5tl3FQkx94uaGfWvg61bJT3Y9OxFdo/kbpm4RBngvYhVkBzHKkHBj72T2bUd8J4HPssi7ORC5iPosPRIOyH/CAVHEtMzFYMwb7OhRu+CW8Z9u7gDieME5iJjXtJtLrNGDxgR7XtWfRRyGjsj6uDS+KvjR3SUSWPdn5eeH6w+LXZm1X///Hvhhcx+NHxsuGjF3fGhyzTVAoIzk0lxyB4+/A9I4Xa0o/T4coVDiewMzGZDwmket//ig8x9UC8cyWr/hy1joZWUO7ooJlLncv8gy4Ng+y1JdievZokSFDNWfMMNAQr3kgUwJDucqDp44C1xMtgR3lhJ75IBBnprHCE/ThgvNXujmqNkwAjp5dS4PjVbrw8fqSylfE80tvU0g9dXqg4pEyG+hGIxbANLhsWjAKLqh69hyqvVLg2Ds3wppphf61IfC4VoeLWj85CjBZMf+k85NsUIJQ6+DQS9IPNbM29ZOzpUbHoWKJB6VzNCSJse7Pi07L+pd6skl77km00y4lJdHIGHfEgi8PaOonakBcxbRqKzGJAA/urlP0tiWya2fTWrvNZOybJHyyofNNSI4s5y76yKEjP1wnPqC7ujrQk6xb7eyCeqH9ekByy3vv0JfgERFptoSUoG2toIr9M3lS/LKpnwfCvZh+z3J0iMb83d4MaPKhGhE49J4660XUsEmjygAZNi9HnjfC3KtaU/07Sx4JCezMtpsLKUxBgy4xaNqwew3FwAG37eeWcow=")},
			chat.Finish{Reason: "stop", Usage: chat.Usage{InputTokens: 9, OutputTokens: 208, ReasoningTokens: 185}, ResponseID: "bH6LaZW8Fp_3nsEPqtaSwQ4"},
		}},
		{"google-stream-tool-call-arguments", []chat.Event{
			chat.ToolCallStart{Index: 0, Name: "getWeather"},
			chat.ToolCallDelta{Index: 0, Fragment: `{"location":"Boston`},
			chat.ToolCallDelta{Index: 0, Fragment: `"`},
			chat.ToolCallDelta{Index: 0, Fragment: `}`},
			chat.ToolCallDone{Index: 0, Name: "getWeather", Arguments: raw(`{"location":"Boston"}`), ProviderData: sig("CiMBjz1rX25KieIB4d4AwFn8/WbsHTRNHBXso88PtemwfsSfRAp6AY89a1/e2FrmrE2HtlOxvV7vy8Kn5Og9n6CepcBKYW9aBT5QdXtTD4PGv9pDDWLEDAfsd86Et6k7HDEV976M3kC0ahLS8FCrwRntUKr+GF5uiUfPvgpzqNl5m8d8EwYykfwo1VwuTStR7q3mr/TzDcNzepafpVLdZloKYQGPPWtfkohmdau0GqGi3DuPbFTUBe5Ac/UbCvUk+P7KFbCGb93vFmnjmmTV7228DcAddqtWfe4iVePtSumw3JptYE6PIeVao2r8q7FXZKazzEiA9c04nmq6Vv9lOtt5NsgKrwEBjz1rX1ajIx3yeG/QI78uO+MsKoqgwrCI7PAEaDRqbyDCW/NX/4Vfuz1wp96oT3h/ttJ5ejzQyGamOrYreUUFvJBR/0TvFBdWOXwwCOWtvJ0Jh7SinV9HNqBDM1WWH8e+tGWY0r7xU/o/M1Fkwd73bvyp3BmSm5orrQL4jUZ1TN6ECqw7T7wHEkIfuBXGMZhQwAPzaapGVCdn0LjFJwd1aVReWmt6pE4ut993/K+0CqsBAY89a1+ts0Nggt7GZxVw/dQhH2Gc6KxRbAZKFMTuYRcNufJ5CyTvq85rMWEhTPWQxlQe1V7NIOlsQzyDhlejiCVbq0chDVrwRY23BmLrhSLi+SfKukEc0M+V9LdFiqxxLgUBrVdCvxA17g11j6HGdmXiNze2WDKm7ZXgMYvEiVmglpRZOb4JeJzxNPFsxhv2k6VkKB+GRtO48XwNz/i2taQ8Nq+LO5tED6HhCp4BAY89a18wBKoSkBT2IRo530FeNq/lpVozY0+k+p+H//TAtKoWZBamKCwra81idaMm1TTaWZGlX85Pq0kBvx1sQLFEhILeQrbH0O3Iuk9JlKLKctAwnBj8BZUGJEGtbigTKaSgWcMBhW+jfKWi1xwSxyJLRkIcXmE8U3FE/XHCLeiBy0NRa0yKn3xh62JU9087Q2nOMClxy5Zy5VsZ0qQ=")},
			chat.ToolCallStart{Index: 1, Name: "getWeather"},
			chat.ToolCallDelta{Index: 1, Fragment: `{"location":"San Francisco`},
			chat.ToolCallDelta{Index: 1, Fragment: `"`},
			chat.ToolCallDelta{Index: 1, Fragment: `}`},
			chat.ToolCallDone{Index: 1, Name: "getWeather", Arguments: raw(`{"location":"San Francisco"}`)},
			chat.Finish{Reason: "tool_calls", Usage: chat.Usage{InputTokens: 26, OutputTokens: 155, ReasoningTokens: 132}, ResponseID: "dqHOab6xGLzWodAPkPuViA4"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			stream, ok := byName[tt.name]
			if !ok {
				t.Fatalf("fixture %s not found", tt.name)
			}
			got, err := collect(stream)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			assertEvents(t, got, tt.want)
		})
	}
}

// TestParseAllFixtures: every recording parses to a clean Finish.
func TestParseAllFixtures(t *testing.T) {
	t.Parallel()
	for _, fs := range fixtureStreams(t) {
		t.Run(fs.name, func(t *testing.T) {
			t.Parallel()
			evs, err := collect(fs.sse)
			if err != nil {
				t.Fatalf("got error %v; want a clean stream", err)
			}
			checkInvariants(t, evs, err)
		})
	}
}

func assertEvents(t *testing.T, got, want []chat.Event) {
	t.Helper()
	n := max(len(got), len(want))
	for i := range n {
		var g, w chat.Event
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("event %d:\n got %#v\nwant %#v", i, g, w)
		}
	}
}

func TestParseHandWritten(t *testing.T) {
	t.Parallel()
	stop := `{"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":3,"totalTokenCount":8}}`
	tests := []struct {
		name     string
		stream   []byte
		want     []chat.Event
		wantKind chat.ProviderKind // "" = no error
		wantCode string
	}{
		{name: "text", stream: sse(ca(cand(`{"text":"Hel"}`, "")), ca(cand(`{"text":"lo"}`, "")), ca(stop)),
			want: []chat.Event{chat.TextDelta{Text: "Hel"}, chat.TextDelta{Text: "lo"},
				chat.Finish{Reason: "stop", Usage: chat.Usage{InputTokens: 5, OutputTokens: 3}, ResponseID: "t1"}}},
		{name: "thinking with signed thought", stream: sse(
			ca(cand(`{"text":"Let me ","thought":true}`, "")),
			ca(cand(`{"text":"think.","thought":true,"thoughtSignature":"CiQBth"}`, "")),
			ca(cand(`{"text":"Done."}`, "STOP"))),
			want: []chat.Event{chat.ReasoningDelta{Text: "Let me "}, chat.ReasoningDelta{Text: "think."},
				chat.ReasoningDone{ProviderData: sig("CiQBth")}, chat.TextDelta{Text: "Done."},
				chat.Finish{Reason: "stop", ResponseID: "t1"}}},
		{name: "thinking only, cut at end", stream: sse(ca(cand(`{"text":"hmm","thought":true}`, ""))),
			want:     []chat.Event{chat.ReasoningDelta{Text: "hmm"}, chat.ReasoningDone{}},
			wantKind: chat.ProviderKindStream, wantCode: codeNoFinishReason},
		{name: "arguments in many fragments", stream: sse(
			ca(cand(`{"functionCall":{"name":"plan","willContinue":true},"thoughtSignature":"CiQBpa"}`, "")),
			ca(cand(`{"functionCall":{"partialArgs":[{"jsonPath":"$.title","stringValue":"Tri","willContinue":true}],"willContinue":true}}`, "")),
			ca(cand(`{"functionCall":{"partialArgs":[{"jsonPath":"$.title","stringValue":"p \"x\""}],"willContinue":true}}`, "")),
			ca(cand(`{"functionCall":{"partialArgs":[{"jsonPath":"$.steps[0].n","numberValue":1},{"jsonPath":"$.steps[0].done","boolValue":false}],"willContinue":true}}`, "")),
			ca(cand(`{"functionCall":{"partialArgs":[{"jsonPath":"$.steps[1].n","numberValue":2.5},{"jsonPath":"$.note","nullValue":null}],"willContinue":true}}`, "")),
			ca(cand(`{"functionCall":{}}`, "STOP"))),
			want: []chat.Event{
				chat.ToolCallStart{Index: 0, Name: "plan"},
				chat.ToolCallDelta{Index: 0, Fragment: `{"title":"Tri`},
				chat.ToolCallDelta{Index: 0, Fragment: `p \"x\""`},
				chat.ToolCallDelta{Index: 0, Fragment: `,"steps":[{"n":1,"done":false`},
				chat.ToolCallDelta{Index: 0, Fragment: `},{"n":2.5}],"note":null`},
				chat.ToolCallDelta{Index: 0, Fragment: `}`},
				chat.ToolCallDone{Index: 0, Name: "plan", ProviderData: sig("CiQBpa"),
					Arguments: raw(`{"title":"Trip \"x\"","steps":[{"n":1,"done":false},{"n":2.5}],"note":null}`)},
				chat.Finish{Reason: "tool_calls", ResponseID: "t1"}}},
		{name: "parallel calls with ids", stream: sse(
			ca(cand(`{"functionCall":{"id":"a1","name":"read","args":{"p":"a"}},"thoughtSignature":"CiQBpl"},{"functionCall":{"id":"b2","name":"read","args":{"p":"b"}}}`, "STOP"))),
			want: []chat.Event{
				chat.ToolCallStart{Index: 0, ID: "a1", Name: "read"},
				chat.ToolCallDelta{Index: 0, Fragment: `{"p":"a"}`},
				chat.ToolCallDone{Index: 0, ID: "a1", Name: "read", Arguments: raw(`{"p":"a"}`), ProviderData: sig("CiQBpl")},
				chat.ToolCallStart{Index: 1, ID: "b2", Name: "read"},
				chat.ToolCallDelta{Index: 1, Fragment: `{"p":"b"}`},
				chat.ToolCallDone{Index: 1, ID: "b2", Name: "read", Arguments: raw(`{"p":"b"}`)},
				chat.Finish{Reason: "tool_calls", ResponseID: "t1"}}},
		{name: "empty arguments", stream: sse(`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"now"}}]},"finishReason":"STOP"}],"responseId":"r9"}`),
			want: []chat.Event{chat.ToolCallStart{Index: 0, Name: "now"}, chat.ToolCallDelta{Index: 0, Fragment: `{}`},
				chat.ToolCallDone{Index: 0, Name: "now", Arguments: raw(`{}`)}, chat.Finish{Reason: "tool_calls", ResponseID: "r9"}}},
		{name: "max tokens", stream: sse(ca(cand(`{"text":"cut"}`, "MAX_TOKENS"))),
			want: []chat.Event{chat.TextDelta{Text: "cut"}, chat.Finish{Reason: "max_tokens", ResponseID: "t1"}}},
		{name: "safety with text", stream: sse(ca(cand(`{"text":"partial"}`, "SAFETY"))),
			want: []chat.Event{chat.TextDelta{Text: "partial"}, chat.Finish{Reason: "safety", ResponseID: "t1"}}},
		{name: "safety without text", stream: sse(ca(cand(`{"text":""}`, "SAFETY"))),
			wantKind: chat.ProviderKindStream, wantCode: "SAFETY"},
		{name: "unexpected tool call", stream: sse(ca(`{"candidates":[{"content":{"role":"model"},"finishReason":"UNEXPECTED_TOOL_CALL","finishMessage":"Unexpected tool call: x","index":0}]}`)),
			wantKind: chat.ProviderKindStream, wantCode: finishUnexpectedToolCall},
		{name: "malformed function call", stream: sse(ca(cand(`{"text":"ok"}`, "MALFORMED_FUNCTION_CALL"))),
			want: []chat.Event{chat.TextDelta{Text: "ok"}}, wantKind: chat.ProviderKindStream, wantCode: finishMalformedCall},
		{name: "error inside the stream", stream: sse(ca(cand(`{"text":"Hi"}`, "")),
			`{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}`),
			want: []chat.Event{chat.TextDelta{Text: "Hi"}}, wantKind: chat.ProviderKindOverloaded, wantCode: "UNAVAILABLE"},
		{name: "malformed json", stream: sse(ca(cand(`{"text":"Hi"}`, "")), `{"response":{"candidates":[`),
			want: []chat.Event{chat.TextDelta{Text: "Hi"}}, wantKind: chat.ProviderKindStream, wantCode: codeMalformedEvent},
		{name: "cut-off stream", stream: []byte("data: " + ca(cand(`{"text":"Hi"}`, "")) + "\r\n\r\ndata: {\"respo"),
			want: []chat.Event{chat.TextDelta{Text: "Hi"}}, wantKind: chat.ProviderKindStream, wantCode: codeMalformedEvent},
		{name: "ends without finish reason", stream: sse(ca(cand(`{"functionCall":{"name":"a","args":{}}}`, ""))),
			want:     []chat.Event{chat.ToolCallStart{Index: 0, Name: "a"}, chat.ToolCallDelta{Index: 0, Fragment: "{}"}, chat.ToolCallDone{Index: 0, Name: "a", Arguments: raw("{}")}},
			wantKind: chat.ProviderKindStream, wantCode: codeNoFinishReason},
		{name: "empty body", stream: nil, wantKind: chat.ProviderKindStream, wantCode: codeNoFinishReason},
		{name: "prompt blocked", stream: sse(ca(`{"promptFeedback":{"blockReason":"PROHIBITED_CONTENT"},"usageMetadata":{"promptTokenCount":4}}`)),
			wantKind: chat.ProviderKindInvalidRequest, wantCode: "PROHIBITED_CONTENT"},
		{name: "LF delimiters and comments", stream: []byte(": keepalive\n\ndata: " + ca(cand(`{"text":"x"}`, "STOP")) + "\n\n"),
			want: []chat.Event{chat.TextDelta{Text: "x"}, chat.Finish{Reason: "stop", ResponseID: "t1"}}},
		// usageMetadata is cumulative and each chunk carries only the counts
		// known so far: a count a later chunk leaves out keeps its earlier
		// value (the fixtures never lower one).
		{name: "usage-only last chunk without thoughts", stream: sse(
			ca(`{"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]},"index":0}],"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":1,"thoughtsTokenCount":40}}`),
			ca(`{"candidates":[{"content":{"role":"model","parts":[{"text":"!"}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":2,"thoughtsTokenCount":40}}`),
			ca(`{"usageMetadata":{"promptTokenCount":12,"candidatesTokenCount":2,"cachedContentTokenCount":4}}`)),
			want: []chat.Event{chat.TextDelta{Text: "Hi"}, chat.TextDelta{Text: "!"},
				chat.Finish{Reason: "stop", Usage: chat.Usage{InputTokens: 12, OutputTokens: 42, ReasoningTokens: 40, CacheReadTokens: 4}, ResponseID: "t1"}}},
		{name: "usage without counts (Vertex trafficType) keeps them", stream: sse(
			ca(`{"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":7,"candidatesTokenCount":1,"thoughtsTokenCount":3}}`),
			ca(`{"usageMetadata":{"trafficType":"ON_DEMAND"}}`)),
			want: []chat.Event{chat.TextDelta{Text: "Hi"},
				chat.Finish{Reason: "stop", Usage: chat.Usage{InputTokens: 7, OutputTokens: 4, ReasoningTokens: 3}, ResponseID: "t1"}}},
		// args is a Struct, so this breaks the wire format; it is still the
		// call the model made, answered with an error result.
		{name: "arguments not an object", stream: sse(ca(cand(`{"functionCall":{"name":"a","args":[1]}}`, "STOP"))),
			want: []chat.Event{chat.ToolCallStart{Index: 0, Name: "a"}, chat.ToolCallDelta{Index: 0, Fragment: "[1]"},
				chat.ToolCallDone{Index: 0, Name: "a", Arguments: raw("{}"), RawArguments: "[1]"},
				chat.Finish{Reason: "tool_calls", ResponseID: "t1"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := collect(tt.stream)
			if tt.wantKind == "" {
				if err != nil {
					t.Fatalf("got error %v; want none", err)
				}
			} else {
				var he *chat.ProviderError
				if !errors.As(err, &he) {
					t.Fatalf("got error %v; want *chat.ProviderError", err)
				}
				if he.Kind != tt.wantKind || he.Code != tt.wantCode || he.Status != 200 {
					t.Errorf("got kind %s code %q status %d; want kind %s code %q status 200", he.Kind, he.Code, he.Status, tt.wantKind, tt.wantCode)
				}
			}
			assertEvents(t, got, tt.want)
		})
	}
}

// TestParseStopEarly: breaking out of the range stops the parser.
func TestParseStopEarly(t *testing.T) {
	t.Parallel()
	stream := sse(ca(cand(`{"text":"a"}`, "")), ca(cand(`{"text":"b"}`, "")), ca(cand(`{"text":"c"}`, "STOP")))
	n := 0
	for range parseStream(strings.NewReader(string(stream))) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("got %d events before break; want 1", n)
	}
}
