package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"maestro/backend/chat"

	"maestro/backend/providers"
)

// awkward holds what encoding/json escapes or rewrites in a string.
const awkward = "q\"uote\\ \b\f\n\r\t \x01\x1f\x7f <b>&amp;</b> \u2028\u2029 bad\xff\xfe ünï ✓ 😀 trailing\xe2\x82"

// encodeCases are requests that reach encodeBody's fallbacks and escapes.
func encodeCases() []chat.Request {
	deep := strings.Repeat(`{"a":`, providers.MaxCheckDepth+1) + "1" + strings.Repeat("}", providers.MaxCheckDepth+1)
	tools := []chat.Tool{
		{Name: "spaced", InputSchema: raw(" {\n \"type\" : \"object\" }\n")},
		{Name: "html", Description: "<b>", InputSchema: raw(`{"description":"a <b> & c"}`)},
		{Name: "separators", InputSchema: raw("{\"description\":\"a\u2028b\u2029\"}")},
		{Name: "escaped", InputSchema: raw(`{"description":"\u003c\"\\\n\ud83d"}`)},
		{Name: "deep", InputSchema: raw(deep)},
		{Name: "array", InputSchema: raw(`[1]`)},
		{Name: "null", InputSchema: raw(`null`)},
		{Name: "none"},
		{Name: awkward, Description: awkward, InputSchema: raw(`{"type":"object"}`)},
	}
	withTools := func(ts ...chat.Tool) chat.Request {
		r := base(user("u1", "hi"))
		r.Tools = ts
		return r
	}
	nan := math.NaN()
	return []chat.Request{
		withTools(tools...),
		withTools(chat.Tool{Name: "invalid", InputSchema: raw(`{"type":}`)}),
		withTools(append(tools[:1:1], chat.Tool{Name: "invalid", InputSchema: raw(`{"a":[}`)})...),
		{Model: "models/" + awkward, System: awkward, SessionID: awkward, PromptID: awkward,
			Messages: []chat.Message{user("u1", awkward)}, Reasoning: &chat.Reasoning{Effort: "low"}},
		{Model: "m", Temperature: &nan, Messages: []chat.Message{user("u1", "hi")}},
		{},
	}
}

// TestEncodeBody checks encodeBody against json.Marshal, byte for byte and
// error for error, for every rendered case in every mode.
func TestEncodeBody(t *testing.T) {
	t.Parallel()
	reqs := encodeCases()
	for _, tc := range renderCases() {
		reqs = append(reqs, tc.req)
	}
	modes := [][]Option{
		{WithProject("proj-1")},
		{WithAPIKey("k")},
		{WithProject(awkward)},
	}
	for _, req := range reqs {
		for _, opts := range modes {
			body, _ := New(opts...).body(req)
			checkEncodeBody(t, body)
		}
	}
}

// TestEncodeBodyShapes covers bodies toRequest does not build.
func TestEncodeBodyShapes(t *testing.T) {
	t.Parallel()
	a := []functionDeclaration{{Name: "a", ParametersJSONSchema: raw(`{"type":"object"}`)}}
	b := []functionDeclaration{{Name: "b", ParametersJSONSchema: raw(`{ }`)}}
	budget := 0
	for _, body := range []any{
		(*envelope)(nil),
		(*generateRequest)(nil),
		&envelope{},
		&generateRequest{},
		&generateRequest{Contents: []content{}, Tools: []tool{}},
		&generateRequest{Tools: []tool{{}, {FunctionDeclarations: a}, {FunctionDeclarations: b}}},
		&generateRequest{SessionID: "s", GenerationConfig: &generationConfig{ThinkingConfig: &thinkingConfig{ThinkingBudget: &budget}}},
		&generateRequest{GenerationConfig: &generationConfig{ThinkingConfig: &thinkingConfig{ThinkingLevel: levelHigh}}},
		"not a body",
	} {
		checkEncodeBody(t, body)
	}
}

func checkEncodeBody(t *testing.T, body any) {
	t.Helper()
	want, wantErr := json.Marshal(body)
	got, err := encodeBody(body)
	if !bytes.Equal(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Errorf("encodeBody(%T) =\n%s, %v\nwant json.Marshal's\n%s, %v", body, got, err, want, wantErr)
	}
}
