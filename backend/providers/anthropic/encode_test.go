package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"maestro/backend/chat"

	"maestro/backend/providers"
)

// TestEncodeBodyTools checks the hand-written tools array against
// encoding/json's encoding of the same tools, breakpoint included.
func TestEncodeBodyTools(t *testing.T) {
	t.Parallel()
	for _, c := range renderCases() {
		body, _ := toRequest(c.req, New(c.opts...).renderOptions())
		data, err := encodeBody(body)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got struct {
			Tools    []map[string]any `json:"tools"`
			Messages []any            `json:"messages"`
		}
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatalf("%s: body is not JSON: %v", c.name, err)
		}
		type stdTool struct {
			tool
			Cache *cacheControl `json:"cache_control,omitempty"`
		}
		var tools []stdTool
		for _, tl := range body.Tools {
			st := stdTool{tool: tl}
			if tl.cache {
				st.Cache = ephemeral
			}
			tools = append(tools, st)
		}
		std, _ := json.Marshal(tools)
		var want []map[string]any
		_ = json.Unmarshal(std, &want)
		if !reflect.DeepEqual(got.Tools, want) || len(got.Messages) != len(body.Messages) {
			t.Errorf("%s: tools %v; want %v", c.name, got.Tools, want)
		}
	}
}

// TestRenderSchemaCompacted checks every schema against what compacting it
// with encoding/json gives, whether it takes providers.IsCompactJSON's fast path or
// not, with and without a warm cache.
func TestRenderSchemaCompacted(t *testing.T) {
	t.Parallel()
	schemas := []string{
		`{"type":"object","properties":{"q":{"type":"string"}}}`,
		" {\n \"type\" : \"object\" }\n",
		`{"description":"a <b> & c \u2028"}`,
		"{\"description\":\"a <b> & c \u2028\"}",
		`{"description":"\"\\\/\b\f\n\r\t\u00e9"}`,
		strings.Repeat(`{"a":`, providers.MaxCheckDepth+1) + "1" + strings.Repeat("}", providers.MaxCheckDepth+1),
		`{"type":`, `{"a":1}}`, `[1,2]`, `"s"`, `null`, ``,
	}
	req := chat.Request{Model: "claude-sonnet-4-5", Messages: []chat.Message{user("hi")}}
	for i, s := range schemas {
		req.Tools = append(req.Tools, chat.Tool{Name: fmt.Sprintf("t%d", i), InputSchema: raw(s)})
	}
	opts := New().renderOptions()
	for range 2 {
		body, _ := toRequest(req, opts)
		for i, s := range schemas {
			want := emptySchema
			var buf bytes.Buffer
			if trimmed := bytes.TrimSpace([]byte(s)); len(trimmed) > 0 && trimmed[0] == '{' && json.Compact(&buf, trimmed) == nil {
				want = buf.Bytes()
			}
			if got := body.Tools[i].InputSchema; !bytes.Equal(got, want) {
				t.Errorf("schema %q rendered as %s; want %s", s, got, want)
			}
		}
	}
}
