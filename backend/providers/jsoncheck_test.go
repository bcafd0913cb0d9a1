package providers

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// nested returns an array nested depth deep.
func nested(depth int) string {
	return strings.Repeat("[", depth) + "0" + strings.Repeat("]", depth)
}

// Documents already in encoding/json's compact form, which IsCompactJSON
// should accept (else callers lose the fast path, not correctness).
var compactDocs = []string{
	`{}`, `[]`, `""`, `0`, `-0`, `1.5e-3`, `-12E+4`, `10.25E4`, `true`, `false`, `null`,
	`{"a":[1,{"b":null}],"c":"\"\\\/\b\f\n\r\t\u00e9\uD83D"}`, `[[],{},[{}],""]`,
	"\"ünï ✓ 😀 \xff\xfe\"", `{"x":"\u003c\u2028"}`,
	`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`,
	nested(MaxCheckDepth),
}

// Documents IsCompactJSON must reject: invalid, not compact, or nested
// deeper than it follows.
var notCompactDocs = []string{
	``, ` {}`, `{} `, "{\n}", `{"a": 1}`, `{"a" :1}`, `[1, 2]`, `[1 ]`,
	`{"a":1,}`, `[1,]`, `{,}`, `[,]`, `{"a"}`, `{"a":}`, `{1:2}`, `{"a",1}`, `{"a":1"b":2}`,
	`01`, `-01`, `1.`, `.5`, `1e`, `1e+`, `-`, `+1`, `0x1`, `1.e3`,
	`tru`, `nul`, `truex`, `True`, `"abc`, `"\x"`, `"\u12"`, `"\u12g4"`, `"\`, "\"\x01\"", "\"\t\"",
	`{"a":1}}`, `[1]]`, `{"a":1]`, `[1}`, `{}{}`, `"a""b"`, `[`, `{`, `{"a":[}`,
	nested(MaxCheckDepth + 1),
}

// Compact documents whose strings encoding/json rewrites when escaping HTML.
var htmlDocs = []string{`"<"`, `{"a":">"}`, `["&"]`, "\"\u2028\"", "\"a\u2029b\""}

func TestCompactJSON(t *testing.T) {
	t.Parallel()
	for _, escapeHTML := range []bool{false, true} {
		for _, doc := range compactDocs {
			if !IsCompactJSON([]byte(doc), escapeHTML) {
				t.Errorf("IsCompactJSON(%q, %v) = false; want true", doc, escapeHTML)
			}
			checkCompactJSON(t, []byte(doc), escapeHTML)
		}
		for _, doc := range notCompactDocs {
			if IsCompactJSON([]byte(doc), escapeHTML) {
				t.Errorf("IsCompactJSON(%q, %v) = true; want false", doc, escapeHTML)
			}
		}
		for _, doc := range htmlDocs {
			if IsCompactJSON([]byte(doc), escapeHTML) == escapeHTML {
				t.Errorf("IsCompactJSON(%q, %v) = %v", doc, escapeHTML, !escapeHTML)
			}
			checkCompactJSON(t, []byte(doc), escapeHTML)
		}
	}
}

func FuzzCompactJSON(f *testing.F) {
	for _, docs := range [][]string{compactDocs, notCompactDocs, htmlDocs} {
		for _, doc := range docs {
			f.Add([]byte(doc))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkCompactJSON(t, b, false)
		checkCompactJSON(t, b, true)
	})
}

// checkCompactJSON asserts what callers rely on: whatever IsCompactJSON
// accepts, encoding/json accepts and compacts to the same bytes (as
// json.Compact, or as json.Marshal encodes a json.RawMessage when escaping
// HTML).
func checkCompactJSON(t *testing.T, b []byte, escapeHTML bool) {
	t.Helper()
	if !IsCompactJSON(b, escapeHTML) {
		return
	}
	var got []byte
	var err error
	if escapeHTML {
		got, err = json.Marshal(json.RawMessage(b))
	} else {
		var buf bytes.Buffer
		err = json.Compact(&buf, b)
		got = buf.Bytes()
	}
	if err != nil || !bytes.Equal(got, b) {
		t.Errorf("IsCompactJSON(%q, %v) = true, but encoding/json gives %q, %v", b, escapeHTML, got, err)
	}
}

func TestToolArguments(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, args, raw string
	}{
		{"", "{}", ""},
		{" null ", "{}", ""},
		{`{"a":1}`, `{"a":1}`, ""},
		{" {\"a\": [1, 2]}\n", `{"a": [1, 2]}`, ""},
		{`{"a":1`, "{}", `{"a":1`},
		{`{"a":1}}`, "{}", `{"a":1}}`},
		{`[1,2]`, "{}", `[1,2]`},
		{`"text"`, "{}", `"text"`},
		{`not json`, "{}", `not json`},
	}
	for _, tt := range tests {
		args, raw := ToolArguments([]byte(tt.in))
		if string(args) != tt.args || raw != tt.raw {
			t.Errorf("ToolArguments(%q) = %s, %q; want %s, %q", tt.in, args, raw, tt.args, tt.raw)
		}
	}
}
