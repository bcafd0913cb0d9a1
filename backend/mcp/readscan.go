package mcp

import (
	"bytes"
	"fmt"
	"maestro/backend/tools"
	"strconv"
	"unicode/utf8"
)

// msgScanner rewrites one JSON-RPC message as its bytes arrive (see
// readlimit.go). It tracks just enough of the JSON grammar to know where
// strings start and end, whether a string is an object key, the nesting
// depth and the top-level "id"; it does not validate: mcp-go does that on
// what comes out.
type msgScanner struct {
	lim   ReadLimits
	out   []byte // the message as rewritten (with the SSE prefix)
	start int    // where the JSON starts in out
	seen  int    // input bytes of the message

	blank   bool // nothing but spaces so far
	garbage bool // the first character is not { or [
	// verbatim keeps what is not JSON as it is (an SSE data line such as
	// the legacy transport's endpoint event), within lim.Message.
	verbatim bool
	excerpt  []byte

	depth   int
	stack   []byte // '{' or '[' per open level, up to lim.Depth
	wantKey bool   // the next string in this object is a key

	inStr      bool
	esc        bool
	hex        int // hex digits of a \u escape still to come
	isKey      bool
	strStart   int // offset in out of the string's first content byte
	strLen     int // input bytes of the string's content
	strCap     int
	writing    bool // still copying the string's content
	key        []byte
	keyCapture bool
	binary     bool // the string is a "data" or "blob" value

	idCapture bool
	id        []byte // the top-level id value, raw
	hasMethod bool

	tooDeep, tooBig bool
	cuts            int
	cutNote         string
}

// maxExcerpt bounds the quote of a non-JSON line.
const maxExcerpt = 200

func (m *msgScanner) reset(lim ReadLimits) {
	out, stack, key := m.out[:0], m.stack[:0], m.key[:0]
	*m = msgScanner{lim: lim, out: out, stack: stack, key: key, blank: true}
}

func (m *msgScanner) emit(c byte) {
	if m.tooBig || m.tooDeep {
		return
	}
	if len(m.out)-m.start >= m.lim.Message {
		m.tooBig = true
		return
	}
	m.out = append(m.out, c)
}

func (m *msgScanner) feed(chunk []byte) {
	m.seen += len(chunk)
	for i := 0; i < len(chunk); i++ {
		c := chunk[i]
		if m.garbage {
			if m.verbatim {
				for _, c := range chunk[i:] {
					m.emit(c)
				}
			}
			if len(m.excerpt) < maxExcerpt {
				m.excerpt = append(m.excerpt, chunk[i:min(len(chunk), i+maxExcerpt-len(m.excerpt))]...)
			}
			return
		}
		if m.inStr {
			i = m.str(chunk, i)
			continue
		}
		m.token(c)
	}
}

// token handles a byte outside strings.
func (m *msgScanner) token(c byte) {
	if m.blank {
		switch c {
		case ' ', '\t', '\r', '\n':
			m.emit(c)
			return
		case '{', '[':
			m.blank = false
		default:
			m.blank, m.garbage = false, true
			m.excerpt = append(m.excerpt[:0], c)
			if m.verbatim {
				m.emit(c)
			}
			return
		}
	}
	if m.idCapture {
		switch c {
		case ',', '}', ' ', '\t', '\r', '\n':
			if len(m.id) > 0 {
				m.idCapture = false
			}
		default:
			if len(m.id) < 128 {
				m.id = append(m.id, c)
			}
		}
	}
	switch c {
	case '{', '[':
		m.depth++
		if m.depth > m.lim.Depth {
			m.tooDeep = true
			return
		}
		m.stack = append(m.stack, c)
		m.wantKey = c == '{'
	case '}', ']':
		if m.depth > 0 {
			m.depth--
		}
		if m.depth < len(m.stack) {
			m.stack = m.stack[:m.depth]
		}
		m.wantKey = false
	case ',':
		m.wantKey = len(m.stack) > 0 && m.stack[len(m.stack)-1] == '{' && m.depth == len(m.stack)
	case ':':
		m.wantKey = false
		m.idCapture = m.depth == 1 && string(m.key) == "id"
	case '"':
		m.openString()
		return
	}
	m.emit(c)
}

func (m *msgScanner) openString() {
	m.emit('"')
	m.inStr, m.esc, m.hex, m.strLen, m.writing = true, false, 0, 0, true
	m.isKey = m.wantKey
	m.strStart = len(m.out)
	m.keyCapture = m.isKey
	if m.isKey {
		m.key = m.key[:0]
	}
	m.binary = !m.isKey && (string(m.key) == "data" || string(m.key) == "blob")
	m.strCap = m.lim.String
	if m.binary {
		m.strCap = m.lim.Binary
	}
	if m.idCapture {
		m.id = append(m.id[:0], '"')
	}
}

// str consumes string content from chunk[i:], returning the index of the
// last byte it handled. Once the string is past its cap it stops copying,
// at the start of a character outside any escape, and only counts.
func (m *msgScanner) str(chunk []byte, i int) int {
	for ; i < len(chunk); i++ {
		c := chunk[i]
		if m.writing && m.strLen >= m.strCap && !m.esc && m.hex == 0 && c != '"' && utf8.RuneStart(c) {
			m.writing = false
		}
		switch {
		case m.esc:
			m.esc = false
			if c == 'u' {
				m.hex = 4
			}
		case m.hex > 0:
			m.hex--
		case c == '\\':
			m.esc = true
		case c == '"':
			m.closeString()
			return i
		case !m.writing:
			// Past the cap: skip to the next quote or backslash.
			j := bytes.IndexAny(chunk[i:], `"\`)
			if j < 0 {
				m.strLen += len(chunk) - i
				return len(chunk) - 1
			}
			m.strLen += j
			i += j - 1
			continue
		}
		m.strLen++
		if m.keyCapture && len(m.key) < 32 {
			m.key = append(m.key, c)
		}
		if m.idCapture && len(m.id) < 128 {
			m.id = append(m.id, c)
		}
		if m.writing {
			m.emit(c)
		}
	}
	return i
}

func (m *msgScanner) closeString() {
	m.inStr = false
	if m.idCapture {
		m.id = append(m.id, '"')
		m.idCapture = false
	}
	if m.isKey {
		m.keyCapture = false
		if m.depth == 1 && string(m.key) == "method" {
			m.hasMethod = true
		}
	}
	if !m.writing {
		m.cuts++
		if m.binary && !m.tooBig && !m.tooDeep {
			m.out = append(m.out[:m.strStart], droppedMarker+strconv.Itoa(m.strLen)...)
			m.cutNote = fmt.Sprintf("the server sent %s of base64 data; Maestro reads at most %s and dropped it", tools.HumanSize(m.strLen), tools.HumanSize(m.lim.Binary))
		} else {
			for _, c := range []byte(cutMarkerPrefix + strconv.Itoa(m.strLen) + " bytes]") {
				m.emit(c)
			}
			m.cutNote = fmt.Sprintf("the server sent a text of %s; Maestro kept the first %s", tools.HumanSize(m.strLen), tools.HumanSize(m.lim.String))
		}
	}
	m.emit('"')
	if !m.isKey {
		m.key = m.key[:0]
	}
}
