package providers

// MaxCheckDepth bounds the nesting IsCompactJSON follows. Deeper documents
// are reported as not compact, so callers take encoding/json's path, which
// has its own (larger) limit.
const MaxCheckDepth = 256

// IsCompactJSON reports whether b is one valid JSON value that encoding/json
// would copy unchanged when compacting it (json.Compact, or encoding a
// json.RawMessage): no whitespace outside strings and, when escapeHTML is
// set, no '<', '>', '&', U+2028 or U+2029 to escape.
//
// Tool schemas arrive from the registry already compact, and with many
// tools scanning them with encoding/json's state machine is most of the
// cost of a request. This single pass is several times faster than even
// json.Valid. It is conservative: whatever it accepts encoding/json
// accepts and leaves as it is; anything else (including valid but
// non-compact JSON) must go through encoding/json, which produces the
// bytes or the error.
func IsCompactJSON(b []byte, escapeHTML bool) bool {
	special := &stringSpecial
	if escapeHTML {
		special = &stringSpecialHTML
	}
	// closers holds the byte that ends each open container.
	var closers [MaxCheckDepth]byte
	depth, i := 0, 0
	key := false // whether a member's key, rather than a value, starts at i
	for {
		if i >= len(b) {
			return false
		}
		c := b[i]
		if c == '"' {
			// Strings are most of a schema. The common case, a string with
			// nothing special in it, is scanned here rather than in a call.
			i++
			for i < len(b) && !special[b[i]] {
				i++
			}
			if i < len(b) && b[i] == '"' {
				i++
			} else if i = checkStringRest(b, i, special); i < 0 {
				return false
			}
			if key {
				if i >= len(b) || b[i] != ':' {
					return false
				}
				i++
				key = false
				continue
			}
		} else if key {
			return false
		} else if c == '{' || c == '[' {
			closer := c + 2 // '}' follows '{' as ']' follows '[', two apart in ASCII
			i++
			if i >= len(b) || b[i] != closer {
				if depth == MaxCheckDepth {
					return false
				}
				closers[depth] = closer
				depth++
				key = c == '{'
				continue
			}
			i++ // an empty container: a complete value
		} else if i = checkScalar(b, i); i < 0 {
			return false
		}
		// A value ended at i: close the containers that end here, then
		// move to the next element or member.
		for {
			if depth == 0 {
				return i == len(b)
			}
			if i >= len(b) {
				return false
			}
			closer := closers[depth-1]
			if b[i] == closer {
				i++
				depth--
				continue
			}
			if b[i] != ',' {
				return false
			}
			i++
			key = closer == '}'
			break
		}
	}
}

// checkScalar checks the literal or number at b[i], returning the index
// after it, or -1.
func checkScalar(b []byte, i int) int {
	switch c := b[i]; {
	case c == 't':
		return checkLiteral(b, i, "true")
	case c == 'f':
		return checkLiteral(b, i, "false")
	case c == 'n':
		return checkLiteral(b, i, "null")
	case c == '-' || '0' <= c && c <= '9':
		return checkNumber(b, i)
	}
	return -1
}

// checkStringRest checks the rest of a string from b[i], the first byte
// of it in special (or the end), returning the index after its closing
// quote, or -1. Bytes from 0x80 up are copied unchanged by compaction,
// valid UTF-8 or not, so of those only 0xE2 is looked at, for the two line
// separators that escapeHTML rewrites.
func checkStringRest(b []byte, i int, special *[256]bool) int {
	for ; i < len(b); i++ {
		c := b[i]
		if !special[c] {
			continue
		}
		switch {
		case c == '"':
			return i + 1
		case c == '\\':
			i++
			if i >= len(b) {
				return -1
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(b) || !isHex(b[i+1]) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) {
					return -1
				}
				i += 4
			default:
				return -1
			}
		case c == 0xE2: // U+2028 and U+2029 are E2 80 A8 and E2 80 A9
			if i+2 < len(b) && b[i+1] == 0x80 && b[i+2]&^1 == 0xA8 {
				return -1
			}
		default: // control characters; with escapeHTML, '<', '>' and '&'
			return -1
		}
	}
	return -1
}

// stringSpecial marks the bytes a string scan must stop at: the quote, the
// backslash and control characters; stringSpecialHTML adds what escapeHTML
// rewrites ('<', '>', '&', and 0xE2, which starts U+2028 and U+2029).
var stringSpecial, stringSpecialHTML = func() (plain, html [256]bool) {
	for c := range 0x20 {
		plain[c] = true
	}
	plain['"'], plain['\\'] = true, true
	html = plain
	for _, c := range []byte{'<', '>', '&', 0xE2} {
		html[c] = true
	}
	return plain, html
}()

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// checkLiteral checks that lit (true, false or null) is at b[i:],
// returning the index after it, or -1.
func checkLiteral(b []byte, i int, lit string) int {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

// checkNumber checks the number starting at b[i], returning the index
// after it, or -1: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func checkNumber(b []byte, i int) int {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = skipDigits(b, i+1)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		j := skipDigits(b, i+1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := skipDigits(b, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

func skipDigits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}
