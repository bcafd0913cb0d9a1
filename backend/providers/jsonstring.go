package providers

import (
	"strings"
	"unicode/utf8"
)

// AppendJSONString appends s as a JSON string exactly as encoding/json
// encodes it: U+2028/U+2029 escaped, invalid UTF-8 replaced by U+FFFD, and
// '<', '>' and '&' escaped when escapeHTML is set (json.Marshal) or kept
// (an Encoder with SetEscapeHTML(false)). It follows encoding/json's
// appendString (Go 1.26); the adapters use it to write request bodies by
// hand where encoding/json would re-validate large pre-encoded parts.
func AppendJSONString(b []byte, s string, escapeHTML bool) []byte {
	safe := &plainSafe
	if escapeHTML {
		safe = &htmlSafe
	}
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if safe[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default: // other control characters, '<', '>' and '&'
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
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
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
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

// htmlSafe and plainSafe mark the bytes copied into a string as they are:
// ASCII from the space up except '"' and '\\' (and, for htmlSafe, '<', '>'
// and '&').
var htmlSafe = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = !strings.ContainsRune(`"\<>&`, rune(c))
	}
	return t
}()

var plainSafe = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()
