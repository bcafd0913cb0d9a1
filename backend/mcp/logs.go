package mcp

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// LogLine is one line of a connector's log: a line the server wrote to
// stderr (Source "stderr"), a notifications/message it sent (Source
// "server", with its level and logger), or a note from the supervisor
// (Source "maestro": starts, exits, restarts).
type LogLine struct {
	Time   time.Time `json:"time"`
	Source string    `json:"source"`
	Level  string    `json:"level,omitempty"`
	Logger string    `json:"logger,omitempty"`
	Text   string    `json:"text"`
}

// Log line sources.
const (
	SourceStderr  = "stderr"
	SourceServer  = "server"
	SourceMaestro = "maestro"
)

const (
	// logCapacity is how many lines a connector keeps.
	logCapacity = 500
	// maxLogLine cuts longer lines (a server dumping a blob on one line).
	maxLogLine = 2 << 10
	// tailLines is how many stderr lines an error state keeps: enough for
	// the whole of a typical Node or Python start-up failure.
	tailLines = 12
	// quoteLines is how many stderr lines an error message quotes.
	quoteLines = 3
)

// logRing is a connector's log: the last logCapacity lines. It is safe for
// concurrent use; the supervisor keeps one per connector across restarts.
type logRing struct {
	mu    sync.Mutex
	lines []LogLine // ring; next is the write position once full
	next  int
	full  bool
}

func (r *logRing) add(l LogLine) LogLine {
	if len(l.Text) > maxLogLine {
		l.Text = cutUTF8(l.Text, maxLogLine) + "…"
	}
	l.Text = strings.ToValidUTF8(l.Text, "�")
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.full {
		r.lines = append(r.lines, l)
		if len(r.lines) == logCapacity {
			r.full = true
		}
		return l
	}
	r.lines[r.next] = l
	r.next = (r.next + 1) % logCapacity
	return l
}

// snapshot returns the lines, oldest first.
func (r *logRing) snapshot() []LogLine {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.full {
		return append([]LogLine(nil), r.lines...)
	}
	out := make([]LogLine, 0, logCapacity)
	out = append(out, r.lines[r.next:]...)
	return append(out, r.lines[:r.next]...)
}

// stderrTail returns the last n stderr lines written since `since`.
func (r *logRing) stderrTail(since time.Time, n int) []string {
	lines := r.snapshot()
	var out []string
	for i := len(lines) - 1; i >= 0 && len(out) < n; i-- {
		l := lines[i]
		if l.Time.Before(since) {
			break
		}
		if l.Source == SourceStderr && strings.TrimSpace(l.Text) != "" {
			out = append(out, l.Text)
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// logText renders a notifications/message data value: strings as they are,
// anything else as compact JSON.
func logText(data any) string {
	switch v := data.(type) {
	case nil:
		return ""
	case string:
		return v
	}
	b, err := json.Marshal(data)
	if err != nil || !utf8.Valid(b) {
		return ""
	}
	return string(b)
}

// quoteTail picks the stderr lines an error message quotes: the last n,
// unless none of them says what went wrong while an earlier one does (a
// stack trace printed after the error line, as Node does): then that line
// and the last one.
func quoteTail(lines []string, n int) []string {
	if len(lines) <= n {
		return lines
	}
	last := lines[len(lines)-n:]
	if slices.ContainsFunc(last, looksLikeError) {
		return last
	}
	for i := len(lines) - n - 1; i >= 0; i-- {
		if looksLikeError(lines[i]) {
			return []string{strings.TrimSpace(lines[i]), lines[len(lines)-1]}
		}
	}
	return last
}

var errorWords = []string{"error", "exception", "fatal", "panic", "cannot", "can't", "could not",
	"not found", "no such", "denied", "refused", "failed"}

func looksLikeError(line string) bool {
	l := strings.ToLower(line)
	return slices.ContainsFunc(errorWords, func(w string) bool { return strings.Contains(l, w) })
}
