package mcp

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"maestro/backend/tools"
	"mime"
	"net/http"
	"regexp"
	"strconv"
)

// What Maestro reads from a server is bounded before mcp-go sees it.
// mcp-go reads each JSON-RPC message whole (stdio and SSE: one line with
// bufio.Reader.ReadString; a JSON response body with json.Decoder) and
// then copies it several times while decoding, so a 50 MB tool result cost
// about 700 MB. A boundedReader sits between the server's stream and
// mcp-go and rewrites each message as it streams through, keeping only
// what Maestro will use:
//
//   - a JSON string longer than ReadLimits.String is cut, and ends with a
//     note saying how long it was (cutMarker), which Normalize reads back;
//   - a base64 string (the value of a "data" or "blob" member) longer than
//     ReadLimits.Binary is replaced by droppedMarker and its length: an
//     image or file too large to use is refused, not half kept;
//   - a message still larger than ReadLimits.Message, or nested deeper than
//     ReadLimits.Depth (encoding/json stops at 10,000 levels; Maestro's own
//     recursive code should never see anything near that), is dropped. A
//     response to one of Maestro's requests is replaced by a JSON-RPC error
//     for the same id, so the call fails at once with the reason instead of
//     waiting for its timeout;
//   - on stdio, a line that is not JSON (a server printing its banner to
//     stdout) is dropped and reported through onNote, with a bounded
//     excerpt: mcp-go skips such lines silently.
//
// The reader holds at most one message (ReadLimits.Message bytes) and one
// input buffer; the input itself can be any size. It is not safe for
// concurrent use: mcp-go's reader goroutine is its only caller.

// ReadLimits bound what is read from a server, per JSON-RPC message.
type ReadLimits struct {
	// String is the longest JSON string kept (DefaultReadString).
	String int
	// Binary is the longest base64 string (a "data" or "blob" member)
	// kept (DefaultReadBinary).
	Binary int
	// Message is the largest message, after cutting, passed on
	// (DefaultReadMessage).
	Message int
	// Depth is the deepest nesting passed on (DefaultReadDepth).
	Depth int
}

// Defaults of ReadLimits.
const (
	DefaultReadString  = 1 << 20
	DefaultReadBinary  = 16 << 20
	DefaultReadMessage = 24 << 20
	DefaultReadDepth   = 128
)

func (l ReadLimits) withDefaults() ReadLimits {
	if l.String <= 0 {
		l.String = DefaultReadString
	}
	if l.Binary <= 0 {
		l.Binary = DefaultReadBinary
	}
	if l.Message <= 0 {
		l.Message = DefaultReadMessage
	}
	if l.Depth <= 0 {
		l.Depth = DefaultReadDepth
	}
	return l
}

// The notes the reader leaves in place of what it cut.
const (
	cutMarkerPrefix = "…[Maestro cut this text: the server sent "
	droppedMarker   = "maestro:dropped:"
)

var cutMarkerRE = regexp.MustCompile(`…\[Maestro cut this text: the server sent ([0-9]+) bytes\]$`)

// cutSize returns the size a cut text had before the reader cut it.
func cutSize(s string) (int, bool) {
	m := cutMarkerRE.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// droppedSize returns the size of base64 data the reader dropped.
func droppedSize(s string) (int, bool) {
	if len(s) > len(droppedMarker)+20 || !bytes.HasPrefix([]byte(s), []byte(droppedMarker)) {
		return 0, false
	}
	n, err := strconv.Atoi(s[len(droppedMarker):])
	return n, err == nil
}

// framing says how messages are delimited in the stream.
type framing int

const (
	frameLines framing = iota // stdio: one message per line
	frameSSE                  // text/event-stream: messages on "data:" lines
	frameBody                 // application/json: the whole body is one message
)

// boundedReader rewrites a server's stream message by message (see above).
type boundedReader struct {
	src    io.Reader
	in     *bufio.Reader
	frame  framing
	lim    ReadLimits
	onNote func(string)
	// onGarbage is told of each stdio line that is not JSON: a bounded
	// excerpt and the line's size.
	onGarbage func(excerpt string, size int)

	out  []byte // ready for Read
	done bool
	err  error

	msg msgScanner
}

func newBoundedReader(r io.Reader, frame framing, lim ReadLimits, onNote func(string)) *boundedReader {
	if onNote == nil {
		onNote = func(string) {}
	}
	return &boundedReader{src: r, in: bufio.NewReaderSize(r, 64<<10), frame: frame, lim: lim.withDefaults(), onNote: onNote}
}

func (b *boundedReader) Read(p []byte) (int, error) {
	for len(b.out) == 0 {
		if b.done {
			return 0, b.err
		}
		b.next()
	}
	n := copy(p, b.out)
	b.out = b.out[n:]
	return n, nil
}

// Close closes the underlying stream when it is a Closer (an HTTP body).
func (b *boundedReader) Close() error {
	if c, ok := b.src.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// next reads one line (or, for frameBody, the whole body) and queues its
// rewritten form. An SSE line that is not a data line passes as it is.
func (b *boundedReader) next() {
	m := &b.msg
	m.reset(b.lim)
	first, pass := true, false
	for {
		chunk, err := b.in.ReadSlice('\n')
		complete := err == nil
		if complete && b.frame != frameBody {
			chunk = chunk[:len(chunk)-1]
		}
		if first && b.frame == frameSSE {
			if rest, ok := bytes.CutPrefix(chunk, []byte("data:")); ok {
				m.out = append(m.out, "data: "...)
				m.start, m.verbatim = len(m.out), true
				chunk = bytes.TrimPrefix(rest, []byte(" "))
			} else {
				pass = true
			}
		}
		first = false
		if pass {
			m.out = append(m.out, chunk...)
			m.seen += len(chunk)
		} else {
			m.feed(chunk)
		}
		if err == bufio.ErrBufferFull || (complete && b.frame == frameBody) {
			continue
		}
		if err != nil {
			b.done, b.err = true, err
			if m.seen == 0 && len(m.out) == 0 {
				return
			}
		}
		break
	}
	if pass {
		b.out = append(m.out, '\n')
		return
	}
	b.out = b.finish()
}

// finish decides what becomes of the scanned message and returns the bytes
// to pass on.
func (b *boundedReader) finish() []byte {
	m := &b.msg
	nl := []byte("\n")
	if b.frame == frameBody {
		nl = nil
	}
	switch {
	case m.blank:
		if b.frame == frameSSE {
			return append(m.out, nl...)
		}
		return nil
	case m.garbage && m.verbatim && !m.tooBig:
		return append(m.out, nl...)
	case m.garbage:
		if b.frame == frameLines && b.onGarbage != nil {
			b.onGarbage(string(m.excerpt), m.seen)
		}
		return nil
	case m.tooDeep || m.tooBig:
		why := fmt.Sprintf("nested more than %d levels deep", b.lim.Depth)
		if m.tooBig {
			why = fmt.Sprintf("larger than %s after cutting long texts (%s in all)", tools.HumanSize(b.lim.Message), tools.HumanSize(m.seen))
		}
		if m.id != nil && !m.hasMethod {
			b.onNote("the server's answer was " + why + ": Maestro dropped it")
			out := append([]byte(nil), m.out[:m.start]...)
			out = fmt.Appendf(out, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"the server's answer was %s; Maestro dropped it"}}`, m.id, why)
			return append(out, nl...)
		}
		b.onNote("the server sent a message " + why + ": Maestro dropped it")
		return nil
	}
	if m.cuts > 0 && m.cutNote != "" {
		b.onNote(m.cutNote)
	}
	return append(m.out, nl...)
}

// maxOtherBody bounds a response body that is not a JSON-RPC message (an
// error page, which mcp-go reads whole with io.ReadAll to quote it).
const maxOtherBody = 1 << 20

// boundedTransport bounds the bodies of a remote server's responses (the
// HTTP transports' counterpart of the stdio reader): JSON and event-stream
// bodies through a boundedReader, any other body to its first
// maxOtherBody bytes.
type boundedTransport struct {
	next http.RoundTripper
	lim  ReadLimits
	note func(string)
}

// limitedBody is the first n bytes of an HTTP body, closing the body.
type limitedBody struct {
	io.Reader
	io.Closer
}

func (t boundedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	frame := frameLines
	switch mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); {
	case resp.StatusCode >= 300:
	case mt == "application/json":
		frame = frameBody
	case mt == "text/event-stream":
		frame = frameSSE
	}
	if frame == frameLines {
		if resp.ContentLength < 0 || resp.ContentLength > maxOtherBody {
			resp.Body = limitedBody{io.LimitReader(resp.Body, maxOtherBody), resp.Body}
			resp.ContentLength = -1
			resp.Header.Del("Content-Length")
		}
		return resp, nil
	}
	resp.Body = newBoundedReader(resp.Body, frame, t.lim, t.note)
	resp.ContentLength = -1
	resp.Header.Del("Content-Length")
	return resp, nil
}
