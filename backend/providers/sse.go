package providers

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
)

// SSEEvent is one server-sent event.
type SSEEvent struct {
	// Event is the "event:" field; "" when the server sent none.
	Event string
	// Data is the "data:" lines joined with "\n". It is only valid until the
	// iteration continues; copy it to keep it.
	Data []byte
	ID   string
}

// MaxSSELine bounds one line of a stream, so a server that never sends a
// newline gets an error instead of unbounded memory.
const MaxSSELine = 8 << 20

// ErrSSELineTooLong is returned for a line longer than MaxSSELine.
var ErrSSELineTooLong = errors.New("sse: line too long")

// ReadSSE yields the events of an SSE stream in order. Lines may end in LF,
// CRLF or CR (Google ends events with CRLF). Comments and unknown fields are
// skipped. An event still pending at EOF is yielded. Read errors are yielded
// once, after which the sequence ends.
func ReadSSE(r io.Reader) iter.Seq2[SSEEvent, error] {
	return func(yield func(SSEEvent, error) bool) {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 4<<10), MaxSSELine)
		sc.Split(scanLines)
		var ev SSEEvent
		var data bytes.Buffer
		hasData := false
		flush := func() bool {
			if !hasData && ev.Event == "" {
				return true
			}
			ev.Data = data.Bytes()
			ok := yield(ev, nil)
			ev = SSEEvent{ID: ev.ID}
			data.Reset()
			hasData = false
			return ok
		}
		for sc.Scan() {
			line := sc.Bytes()
			if len(line) == 0 {
				if !flush() {
					return
				}
				continue
			}
			if line[0] == ':' {
				continue
			}
			field, value, _ := bytes.Cut(line, []byte{':'})
			value = bytes.TrimPrefix(value, []byte{' '})
			switch string(field) {
			case "data":
				if hasData {
					data.WriteByte('\n')
				}
				data.Write(value)
				hasData = true
			case "event":
				ev.Event = string(value)
			case "id":
				ev.ID = string(value)
			}
		}
		if err := sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				err = ErrSSELineTooLong
			}
			yield(SSEEvent{}, fmt.Errorf("read event stream: %w", err))
			return
		}
		flush()
	}
}

// scanLines splits on LF, CRLF or a lone CR.
func scanLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
		if data[i] == '\n' {
			return i + 1, data[:i], nil
		}
		// A CR: a following LF belongs to it, so wait to see the next byte.
		if i+1 < len(data) {
			if data[i+1] == '\n' {
				return i + 2, data[:i], nil
			}
			return i + 1, data[:i], nil
		}
		if atEOF {
			return i + 1, data[:i], nil
		}
		return 0, nil, nil
	}
	if atEOF {
		return len(data), data, nil
	}
	return 0, nil, nil
}
