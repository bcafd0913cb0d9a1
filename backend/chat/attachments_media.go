package chat

import (
	"encoding/base64"
	"fmt"
	"strings"
)

// media is one attachment of a history as the rules see it: where it is,
// its type and its sizes.
type media struct {
	msg, part int
	// att is the index among a tool result's attachments, -1 for a part.
	att      int
	resource bool
	name     string
	mime     string
	b64      int64 // length of the base64 text sent
	bytes    int64 // decoded length
	side     int   // longest side in pixels, 0 if unknown
	pages    int   // a document's pages (at least 1)
	byURL    bool  // sent as a URL the provider fetches
	missing  bool  // stored bytes that could not be read back
}

// owned reports whether the user attached it (a file or resource of a
// user message), rather than a tool returning it.
func (m media) owned() bool { return m.att < 0 }

func (m media) label() string {
	if m.name != "" {
		return m.name
	}
	return m.mime
}

// collectMedia lists every attachment with content in msgs: files and
// resource bytes of user messages, and tool results' attachments.
func collectMedia(msgs []Message) []media {
	var out []media
	for i, m := range msgs {
		for k, p := range m.Parts {
			switch p := p.(type) {
			case FilePart:
				it := media{msg: i, part: k, att: -1, name: p.Name, mime: BaseType(p.MIMEType)}
				it.measure(p.Data, p.Ref, p.URI)
				out = append(out, it)
			case ResourcePart:
				if p.Data == "" && p.Ref == "" {
					continue // text or a reference only
				}
				it := media{msg: i, part: k, att: -1, resource: true, name: p.Label(), mime: BaseType(p.MIMEType)}
				it.measure(p.Data, p.Ref, "")
				out = append(out, it)
			case ToolResultPart:
				for a, att := range p.Result.Attachments {
					if att.Data == "" {
						continue
					}
					it := media{msg: i, part: k, att: a, name: att.Name, mime: BaseType(att.MIMEType)}
					it.measure(att.Data, "", "")
					out = append(out, it)
				}
			}
		}
	}
	return out
}

// measure reads the sizes of content given as base64, a stored reference
// whose bytes were not put back, or a URL.
func (m *media) measure(data, ref, uri string) {
	switch {
	case data != "":
		m.b64, m.bytes = int64(len(data)), DecodedLen(data)
	case uri != "":
		m.byURL = true
		return
	case ref != "":
		m.missing = true
		return
	}
	switch {
	case strings.HasPrefix(m.mime, "image/"):
		if w, h, ok := ImageSize(imageHead(data)); ok {
			m.side = max(w, h)
		}
	case m.mime == "application/pdf":
		m.pages = 1
		if raw, err := base64.StdEncoding.DecodeString(data); err == nil {
			m.pages = PDFPages(raw)
		}
	}
}

// applyDrops returns msgs with each dropped attachment replaced by a note
// (a text part, or the attachment's Text), and the notes as warnings.
func applyDrops(msgs []Message, items []media, drop map[int]string) ([]Message, []string, error) {
	out := make([]Message, len(msgs))
	copy(out, msgs)
	copied := map[int]bool{}
	var warns []string
	for i, it := range items {
		reason, ok := drop[i]
		if !ok {
			continue
		}
		if !copied[it.msg] {
			out[it.msg].Parts = append(Parts(nil), msgs[it.msg].Parts...)
			copied[it.msg] = true
		}
		note := fmt.Sprintf("[%s %q (%s, %s) left out: %s]", kindWord(it), it.label(), it.mime, HumanSize(it.bytes), reason)
		warns = append(warns, fmt.Sprintf("message %s: %s", msgs[it.msg].ID, note))
		out[it.msg].Parts[it.part] = withNote(out[it.msg].Parts[it.part], it.att, note)
	}
	return out, warns, nil
}

func kindWord(it media) string {
	switch {
	case it.resource:
		return "resource"
	case strings.HasPrefix(it.mime, "image/"):
		return "image"
	}
	return "file"
}

// withNote returns p with its content (or attachment att of a tool result)
// replaced by note.
func withNote(p Part, att int, note string) Part {
	switch p := p.(type) {
	case FilePart:
		return TextPart{Text: note}
	case ResourcePart:
		p.Data, p.Ref, p.Text = "", "", note
		return p
	case ToolResultPart:
		atts := append([]Attachment(nil), p.Result.Attachments...)
		a := atts[att]
		atts[att] = Attachment{Type: a.Type, MIMEType: a.MIMEType, URI: a.URI, Name: a.Name, Text: note}
		p.Result.Attachments = atts
		return p
	}
	return p
}
