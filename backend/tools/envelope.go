package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"maestro/backend/chat"
)

// The envelope is a tool's answer as the model and the UI get it:
// chat.ToolResult{successful, data, error}, every copy bounded
// (docs/SECURITY.md). A server's answer is read and decoded by the package
// that talks to it (backend/mcp: what is read from the server, ReadLimits;
// the attachments, fitted to what every provider takes; the raw copy kept
// for the UI, ResultLimits.Stored); Envelope shapes what it decoded, an
// Output, and bounds the data sent to the model (ResultLimits.Model). A cut
// copy says so: Truncated, Size, and a note with the sizes.

// ResultLimits bound the copies of a tool result.
type ResultLimits struct {
	// Model is the most of the data (and of the error text) sent to the
	// model, in bytes (DefaultResultCap).
	Model int
	// Stored is the most of the server's result kept as Raw with the
	// message, for the UI (DefaultStoredCap).
	Stored int
	// Attachments is the most base64 data of one result's images, audio
	// and blobs kept, all together (DefaultAttachmentsCap).
	Attachments int
}

// Defaults of ResultLimits.
const (
	DefaultResultCap      = 32 << 10
	DefaultStoredCap      = 1 << 20
	DefaultAttachmentsCap = 8 << 20
)

// WithDefaults returns l with every unset limit at its default.
func (l ResultLimits) WithDefaults() ResultLimits {
	if l.Model <= 0 {
		l.Model = DefaultResultCap
	}
	if l.Stored <= 0 {
		l.Stored = DefaultStoredCap
	}
	if l.Attachments <= 0 {
		l.Attachments = DefaultAttachmentsCap
	}
	return l
}

// Output is a tool's answer as its server gave it, decoded: what Envelope
// shapes.
type Output struct {
	IsError bool
	// Texts are the text parts, in order.
	Texts []Text
	// Structured is the structured content as compact JSON, or nil.
	Structured []byte
	// Attachments are the images, audio and resources, already bounded.
	Attachments []chat.Attachment
}

// Text is one text part of an Output. Size is the length the text had
// before the reader cut it, or 0 when it is whole.
type Text struct {
	Text string
	Size int
}

// Size is how large the answer was, as the server sent it: its texts
// joined by newlines and its structured content.
func (o Output) Size() int { return measure(o.Texts).size + len(o.Structured) }

// Envelope turns an Output into the result the model reads:
//   - successful is !IsError;
//   - data is the structured content when present; else the text when it
//     parses as a JSON object; else {"text": all text parts joined by
//     newlines}; {} when there is no text at all;
//   - on IsError, error is the text (data is kept only from the structured
//     content);
//   - data longer than lim.Model is cut to about lim.Model: {"text": "<the
//     first bytes>", "note": "truncated: …"}; the error text is capped the
//     same way. Truncated and Size say when anything was cut, here or by
//     the reader.
//
// It never copies a text whole: the data is built from a prefix of the
// texts. CallID, Name, Raw and DurationMS are left for the caller.
func Envelope(out Output, lim ResultLimits) chat.ToolResult {
	lim = lim.WithDefaults()
	res := chat.ToolResult{Successful: !out.IsError, Attachments: out.Attachments}
	tx := measure(out.Texts)
	data := out.Structured
	switch {
	case out.IsError:
		res.Error, res.Truncated = errorText(tx, lim.Model)
	case data == nil && len(out.Texts) == 0:
		data = []byte("{}")
	case data == nil && tx.size <= lim.Model && !tx.cut:
		data = textData(tx.prefix(lim.Model))
	case data == nil:
		res.Data, res.Truncated = truncateText(tx.prefix(lim.Model), tx.size, lim.Model), true
	}
	if data != nil {
		if len(data) > lim.Model {
			res.Data, res.Truncated = truncateText(string(data[:lim.Model]), len(data), lim.Model), true
		} else {
			res.Data = data
		}
	}
	if res.Truncated || tx.cut {
		res.Truncated, res.Size = true, int64(tx.size+len(out.Structured))
	}
	return res
}

// errorText is the error message of a failed call, capped at limit.
func errorText(tx texts, limit int) (string, bool) {
	msg := strings.TrimSpace(tx.prefix(limit + 1))
	if msg == "" {
		msg = "the tool reported an error without a message"
	}
	if tx.size > limit || tx.cut {
		return cutUTF8(msg, limit) + "\n[" + truncationNote(tx.size, limit) + "]", true
	}
	return msg, false
}

// textData is a whole text as data: the text itself when it is a JSON
// object, else {"text": text}.
func textData(text string) []byte {
	if trimmed := strings.TrimSpace(text); strings.HasPrefix(trimmed, "{") && json.Valid([]byte(trimmed)) {
		var buf bytes.Buffer
		_ = json.Compact(&buf, []byte(trimmed)) // valid, so it cannot fail
		return buf.Bytes()
	}
	data, _ := json.Marshal(map[string]string{"text": text})
	return data
}

// ErrorResult is the envelope for a call that never reached a server: a
// denial, an unknown tool, a disabled connector, a missing sign-in.
func ErrorResult(callID, name, msg string) chat.ToolResult {
	return chat.ToolResult{CallID: callID, Name: name, Successful: false, Error: msg}
}

// texts measures an answer's text parts without joining them: size is the
// length of their join ("\n" between parts), with the size the reader
// reported for a text it cut.
type texts struct {
	parts []Text
	size  int
	cut   bool // the reader cut one of them
}

func measure(parts []Text) texts {
	t := texts{parts: parts}
	for i, p := range parts {
		if i > 0 {
			t.size++
		}
		if p.Size > 0 {
			t.size, t.cut = t.size+p.Size, true
		} else {
			t.size += len(p.Text)
		}
	}
	return t
}

// prefix joins the parts up to n bytes (never splitting a character).
func (t texts) prefix(n int) string {
	var b strings.Builder
	for i, p := range t.parts {
		if i > 0 {
			if b.Len() >= n {
				break
			}
			b.WriteByte('\n')
		}
		if room := n - b.Len(); len(p.Text) > room {
			b.WriteString(cutUTF8(p.Text, room))
			break
		}
		b.WriteString(p.Text)
	}
	return b.String()
}

// truncateText builds {"text": <a prefix of s>, "note": …} of at most
// capBytes bytes (the longest prefix that fits once escaped); total is the
// size of the result before truncation.
func truncateText(s string, total, capBytes int) json.RawMessage {
	note := truncationNote(total, capBytes)
	encode := func(n int) []byte {
		b, _ := json.Marshal(struct {
			Text string `json:"text"`
			Note string `json:"note"`
		}{cutUTF8(s, n), note})
		return b
	}
	lo, hi := 0, min(len(s), capBytes) // encode(lo) fits, or nothing does
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if len(encode(mid)) <= capBytes {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return encode(lo)
}

func truncationNote(total, capBytes int) string {
	return fmt.Sprintf("truncated: the result was %s; showing the first %s", HumanSize(total), HumanSize(capBytes))
}

// cutUTF8 returns at most n bytes of s, never splitting a character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// HumanSize writes a byte count the way every note about a tool result's
// size does ("32 KiB", "1.5 MiB"), here and in the package that reads the
// server's answer, so the notes of one result read alike.
func HumanSize(n int) string { return chat.HumanSize(int64(n)) }
