package export

import (
	"bufio"
	"fmt"
	"io"
	"iter"
	"path/filepath"
	"strings"
	"time"

	"maestro/backend/agent"
	"maestro/backend/chat"
)

// Format is an export format.
type Format string

// The formats.
const (
	Markdown Format = "markdown"
	JSON     Format = "json"
)

// Formats lists every format, in the order the UI offers them.
func Formats() []Format { return []Format{Markdown, JSON} }

// ParseFormat returns the format named s, or a chat.ErrInvalid error.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case Markdown, JSON:
		return f, nil
	}
	return "", chat.E(chat.ErrInvalid, "unknown export format %.40q (want markdown or json)", s)
}

// Ext is the file extension of the format, without the dot.
func (f Format) Ext() string {
	if f == JSON {
		return "json"
	}
	return "md"
}

// Description names the format's files for a file picker.
func (f Format) Description() string {
	if f == JSON {
		return "JSON files (*.json)"
	}
	return "Markdown files (*.md)"
}

// encoder writes one format: the session first, then each message, then
// what closes the document.
type encoder interface {
	begin(s chat.Session) error
	message(m chat.Message) error
	end() error
}

// Write renders session s and its messages in format f to w, a message at
// a time. Superseded attempts (never shown, never sent) are left out.
func Write(w io.Writer, f Format, s chat.Session, msgs iter.Seq[chat.Message]) error {
	bw := bufio.NewWriter(w)
	var enc encoder
	switch f {
	case Markdown:
		enc = &markdown{w: bw}
	case JSON:
		enc = &jsonDoc{w: bw}
	default:
		_, err := ParseFormat(string(f))
		return err
	}
	if err := enc.begin(s); err != nil {
		return fmt.Errorf("export %s: %w", f, err)
	}
	for m := range msgs {
		if m.Status == agent.StatusSuperseded {
			continue
		}
		if err := enc.message(m); err != nil {
			return fmt.Errorf("export %s: message %d: %w", f, m.Seq, err)
		}
	}
	if err := enc.end(); err != nil {
		return fmt.Errorf("export %s: %w", f, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("export %s: %w", f, err)
	}
	return nil
}

// FileName is the file name an export of a chat titled title is offered
// under: the title without path separators or characters some systems
// refuse, with the format's extension unless it has it already (a chat
// titled "Summarise notes.md" exports as "Summarise notes.md").
func FileName(title string, f Format) string {
	name := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>|`, r) || r < 0x20 {
			return '-'
		}
		return r
	}, strings.TrimSpace(title))
	if name == "" || name == "." || name == ".." {
		name = "chat"
	}
	if strings.EqualFold(filepath.Ext(name), "."+f.Ext()) {
		return name
	}
	return strings.TrimRight(name, ".") + "." + f.Ext()
}

// timestamp is t in UTC as RFC 3339, or "" for the zero time.
func timestamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
