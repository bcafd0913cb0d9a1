package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// encodeBody marshals a request body without HTML escaping, so prompts and
// tool results reach the model as written. The tools array is appended by
// hand after the other fields: with hundreds of tools, re-validating every
// schema inside encoding/json was most of the cost of a request
// (BenchmarkRender1000Tools).
func encodeBody(body *request) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(body); err != nil {
		return nil, fmt.Errorf("anthropic: encode request: %w", err)
	}
	out := bytes.TrimSuffix(buf.Bytes(), []byte("}\n"))
	if len(body.Tools) == 0 {
		return append(out, '}'), nil
	}
	size := len(out) + 16
	for _, t := range body.Tools {
		size += len(t.Name) + len(t.Description) + len(t.InputSchema) + 48
	}
	b := make([]byte, 0, size)
	b = append(b, out...)
	b = append(b, `,"tools":[`...)
	for i, t := range body.Tools {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = appendString(b, t.Name)
		if t.Description != "" {
			b = append(b, `,"description":`...)
			b = appendString(b, t.Description)
		}
		b = append(b, `,"input_schema":`...)
		b = append(b, t.InputSchema...) // compacted and validated by toRequest
		b = append(b, '}')
	}
	return append(b, "]}"...), nil
}

// appendString appends s as a JSON string, escaping what JSON requires
// (quotes, backslashes, control characters) plus U+2028 and U+2029 as
// encoding/json does; invalid UTF-8 becomes U+FFFD. HTML characters are
// kept as they are.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plainByte[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// plainByte marks the bytes appendString copies as they are: ASCII from
// the space up, except the quote and the backslash.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()
