package anthropic

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestAppendString(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "plain", `q"uote\back`, "tab\tnl\ncr\r", "\x00\x01\x1f\x7f", "<b>&amp;</b>", "ünïcode ✓ 😀",
		"bad \xff\xfe utf8", "line\u2028sep\u2029", "trailing\xe2\x82"} {
		checkAppendString(t, s)
	}
}

func FuzzAppendString(f *testing.F) {
	f.Add("ünïcode \x00 \xff \u2028 \"q\"")
	f.Fuzz(checkAppendString)
}

// checkAppendString asserts that appendString encodes s as a JSON string
// that decodes to what encoding/json's own encoding of s decodes to.
func checkAppendString(t *testing.T, s string) {
	b := appendString(nil, s)
	var got, want string
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("appendString(%q) = %s: not a JSON string: %v", s, b, err)
	}
	std, _ := json.Marshal(s)
	_ = json.Unmarshal(std, &want)
	if got != want {
		t.Errorf("appendString(%q) decodes to %q; want %q", s, got, want)
	}
}

// TestEncodeBodyTools checks the hand-written tools array against
// encoding/json's encoding of the same tools.
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
		std, _ := json.Marshal(body.Tools)
		var want []map[string]any
		_ = json.Unmarshal(std, &want)
		if !reflect.DeepEqual(got.Tools, want) || len(got.Messages) != len(body.Messages) {
			t.Errorf("%s: tools %v; want %v", c.name, got.Tools, want)
		}
	}
}
