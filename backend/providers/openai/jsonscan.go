package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Delta events are most of a stream, so they are read without
// encoding/json's reflection: json.Valid checks the whole event (it does
// not allocate), then the three fields are picked out of the top level.

// errInvalidJSON reports a data line that is not JSON.
var errInvalidJSON = errors.New("invalid JSON")

// decodeDelta fills d from a delta event, with encoding/json's semantics for
// the fields it reads (last duplicate wins, null leaves the zero value, a
// wrong type is an error).
func decodeDelta(data []byte, d *deltaFields) error {
	if !json.Valid(data) {
		return errInvalidJSON
	}
	pos := skipSpace(data, 0)
	if pos >= len(data) || data[pos] != '{' {
		return errors.New("event is not an object")
	}
	pos++
	for {
		pos = skipSpace(data, pos)
		if data[pos] == '}' {
			return nil
		}
		if data[pos] == ',' {
			pos = skipSpace(data, pos+1)
		}
		kEnd := skipValue(data, pos)
		key := data[pos+1 : kEnd-1]
		pos = skipSpace(data, kEnd)
		pos = skipSpace(data, pos+1) // the colon
		vEnd := skipValue(data, pos)
		val := data[pos:vEnd]
		pos = vEnd
		var err error
		switch field(key) {
		case "delta":
			err = jsonString(val, &d.Delta)
		case "output_index":
			err = jsonInt(val, &d.OutputIndex)
		case "summary_index":
			err = jsonInt(val, &d.SummaryIndex)
		}
		if err != nil {
			return err
		}
	}
}

// field names the deltaFields member a raw key sets, "" for none. Like
// encoding/json it unescapes the key and matches case-insensitively.
func field(key []byte) string {
	switch string(key) { // no allocation: the results are constants
	case "delta":
		return "delta"
	case "output_index":
		return "output_index"
	case "summary_index":
		return "summary_index"
	case "type", "sequence_number", "item_id", "content_index", "obfuscation", "logprobs":
		return ""
	}
	name := string(key)
	if bytes.IndexByte(key, '\\') >= 0 {
		if jsonString(append(append([]byte{'"'}, key...), '"'), &name) != nil {
			return ""
		}
	}
	for _, f := range []string{"delta", "output_index", "summary_index"} {
		if strings.EqualFold(name, f) {
			return f
		}
	}
	return ""
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the value starting at i in valid JSON.
func skipValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		for j := i + 1; j < len(data); j++ {
			switch data[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return len(data)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				j = skipValue(data, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(data)
	}
	j := i
	for j < len(data) {
		switch data[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return j
		}
		j++
	}
	return j
}

// jsonString decodes a string value as encoding/json does; only invalid
// UTF-8 (which encoding/json replaces with U+FFFD) takes its slow path.
func jsonString(val []byte, s *string) error {
	if string(val) == "null" {
		return nil
	}
	if len(val) < 2 || val[0] != '"' || !utf8.Valid(val) {
		return json.Unmarshal(val, s)
	}
	body := val[1 : len(val)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		*s = string(body)
		return nil
	}
	var b strings.Builder
	b.Grow(len(body))
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++ // valid JSON: an escape is complete
		switch body[i] {
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r := hex4(body[i+1:])
			i += 4
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if i+6 < len(body) && body[i+1] == '\\' && body[i+2] == 'u' {
					r2 = hex4(body[i+3:])
				}
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					b.WriteRune(dec)
					i += 6
					continue
				}
				r = utf8.RuneError
			}
			b.WriteRune(r)
		default: // '"', '\\', '/'
			b.WriteByte(body[i])
		}
	}
	*s = b.String()
	return nil
}

// hex4 reads the four hex digits of a \u escape (valid JSON has them).
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// jsonInt decodes a small non-negative integer; anything else takes the
// slow path (which rejects what encoding/json rejects).
func jsonInt(val []byte, n *int) error {
	if string(val) == "null" {
		return nil
	}
	if len(val) > 0 && len(val) < 10 {
		v := 0
		for _, c := range val {
			if c < '0' || c > '9' {
				return json.Unmarshal(val, n)
			}
			v = v*10 + int(c-'0')
		}
		*n = v
		return nil
	}
	return json.Unmarshal(val, n)
}

// eventKind is the role of an event type in the grammar (docs/providers/openai.md §Stream events).
type eventKind uint8

const (
	kindIgnored eventKind = iota
	kindCreated
	kindTextDelta
	kindSummaryPart
	kindReasoningDelta
	kindArgsDelta
	kindItemAdded
	kindItemDone
	kindCompleted
	kindIncomplete
	kindFailed
	kindError
	kindUntyped
)

// kindOf classifies an event type. A switch on string(b) does not allocate.
func kindOf(t []byte) eventKind {
	switch string(t) {
	case "response.created":
		return kindCreated
	case "response.output_text.delta", "response.refusal.delta":
		return kindTextDelta
	case "response.reasoning_summary_part.added":
		return kindSummaryPart
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		return kindReasoningDelta
	case "response.function_call_arguments.delta":
		return kindArgsDelta
	case "response.output_item.added":
		return kindItemAdded
	case "response.output_item.done":
		return kindItemDone
	case "response.completed":
		return kindCompleted
	case "response.incomplete":
		return kindIncomplete
	case "response.failed":
		return kindFailed
	case "error":
		return kindError
	case "":
		return kindUntyped
	}
	return kindIgnored
}

// peekType reads the type of an event written the way OpenAI writes them,
// {"type":"…",…}, without decoding it; ok is false for any other layout.
func peekType(data []byte) (typ []byte, ok bool) {
	const prefix = `{"type":"`
	if !bytes.HasPrefix(data, []byte(prefix)) {
		return nil, false
	}
	rest := data[len(prefix):]
	i := bytes.IndexByte(rest, '"')
	if i < 0 || bytes.IndexByte(rest[:i], '\\') >= 0 {
		return nil, false
	}
	return rest[:i], true
}
