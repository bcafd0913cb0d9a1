package providers

import (
	"bytes"
	"encoding/json"
	"testing"
)

// awkwardString holds everything encoding/json escapes or rewrites.
const awkwardString = "q\"uote\\ \b\f\n\r\t \x01\x1f\x7f <b>&amp;</b> \u2028\u2029 bad\xff\xfe ünï ✓ 😀 trailing\xe2\x82"

func TestAppendJSONString(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "plain", awkwardString, "\u2028", "\xe2\x80", "\xed\xa0\x80 surrogate", "\U0010FFFF"} {
		checkAppendJSONString(t, s)
	}
	for c := range 256 {
		checkAppendJSONString(t, string([]byte{byte(c)}))
	}
}

func FuzzAppendJSONString(f *testing.F) {
	f.Add(awkwardString)
	f.Fuzz(checkAppendJSONString)
}

// checkAppendJSONString asserts both modes give encoding/json's exact bytes:
// json.Marshal with HTML escaping, an Encoder without it.
func checkAppendJSONString(t *testing.T, s string) {
	t.Helper()
	html, _ := json.Marshal(s)
	if got := AppendJSONString(nil, s, true); !bytes.Equal(got, html) {
		t.Errorf("AppendJSONString(%q, html) = %s; want %s", s, got, html)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	plain := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if got := AppendJSONString(nil, s, false); !bytes.Equal(got, plain) {
		t.Errorf("AppendJSONString(%q, plain) = %s; want %s", s, got, plain)
	}
}
