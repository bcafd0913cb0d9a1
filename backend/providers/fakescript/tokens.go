package fakescript

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"
)

// The fakes count a request's tokens the way a byte-pair tokenizer roughly
// does, so that a window set on a fake (Script.SetWindow) refuses what the
// real service would refuse at about the same size, and the usage a fake
// reports is close to what the service would report. It is not Maestro's
// estimate (chat.EstimateTokens): the agent has to cope with a count it
// does not know in advance, as it does with the real services.
//
// Text is split into runs: a run of ASCII letters and digits costs one
// token per five characters (rounded up), a run of other ASCII symbols one
// token per two, a space before a word nothing, and every other character
// (non-ASCII) one token.

// CountText counts the tokens of s.
func CountText(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ':
			i++
		case alnum(c):
			j := i
			for j < len(s) && alnum(s[j]) {
				j++
			}
			n += (j - i + 4) / 5
			i = j
		case c < utf8.RuneSelf:
			j := i
			for j < len(s) && s[j] < utf8.RuneSelf && s[j] != ' ' && !alnum(s[j]) {
				j++
			}
			n += (j - i + 1) / 2
			i = j
		default:
			_, size := utf8.DecodeRuneInString(s[i:])
			n++
			i += size
		}
	}
	return n
}

func alnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// opaqueFields hold provider state a model does not read as text
// (signatures, encrypted reasoning): they cost nothing. Base64 data
// (images, files) is counted as one token per hundred bytes.
var opaqueFields = map[string]bool{
	"signature": true, "thoughtSignature": true, "thought_signature": true, "encrypted_content": true,
}

// CountJSON counts the tokens of a request body: every key and string
// value (CountText), every number and literal as one token, opaque fields
// as nothing and "data" fields as base64. A body that is not JSON is
// counted as text.
func CountJSON(body []byte) int {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	n := 0
	key := true // the next string in an object is a key
	var stack []bool
	skip := ""
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			return CountText(string(body))
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, true)
				key = true
			case '[':
				stack = append(stack, false)
			default:
				stack = stack[:len(stack)-1]
				key = len(stack) > 0 && stack[len(stack)-1]
			}
			skip = ""
			continue
		case string:
			inObject := len(stack) > 0 && stack[len(stack)-1]
			if inObject && key {
				skip = t
				n += CountText(t)
				key = false
				continue
			}
			switch {
			case opaqueFields[skip]:
			case skip == "data":
				n += len(t) / 100
			default:
				n += CountText(t)
			}
		default:
			n++
		}
		if len(stack) > 0 && stack[len(stack)-1] {
			key = true
		}
		skip = ""
	}
}
