package chat

import (
	"encoding/base64"
	"fmt"
	"strings"
	"unicode/utf8"
)

// How attachments that are not sent as media read to a model: every
// adapter sends these texts the same way, so a conversation reads alike
// whichever provider the session uses.

// ModelText is how a tool result's attachment reads to a model when it is
// not sent as media: an embedded text resource under a line naming its
// URI, a resource link as a line naming the resource, and otherwise Text
// (Maestro's note about an attachment it left out).
func (a Attachment) ModelText() string {
	switch a.Type {
	case AttachmentResourceLink:
		s := "[resource link: " + quoteName(a.Name) + a.URI
		if a.MIMEType != "" {
			s += " (" + a.MIMEType + ")"
		}
		if a.Text != "" {
			s += ": " + a.Text
		}
		return s + "]"
	case AttachmentResource:
		if a.Text != "" && a.URI != "" && !strings.HasPrefix(a.Text, "[") {
			return "[resource " + a.URI + "]\n" + a.Text
		}
	}
	return a.Text
}

func quoteName(name string) string {
	if name == "" {
		return ""
	}
	return fmt.Sprintf("%q ", name)
}

// Header is the line that introduces a resource to a model: its label,
// URI, server and type.
func (r ResourcePart) Header() string {
	var b strings.Builder
	b.WriteString("[resource ")
	if l := r.Label(); l != r.URI {
		fmt.Fprintf(&b, "%q ", l)
	}
	b.WriteString(r.URI)
	if r.Server != "" {
		b.WriteString(" from " + r.Server)
	}
	if r.MIMEType != "" {
		b.WriteString(" (" + r.MIMEType + ")")
	}
	if r.Text == "" && r.Data == "" && r.Ref == "" {
		b.WriteString(": not read, only named")
	}
	b.WriteString("]")
	return b.String()
}

// TextContent is the resource's content as text, when it is text: its
// Text, or bytes of a text type that are valid UTF-8.
func (r ResourcePart) TextContent() (string, bool) {
	if r.Text != "" {
		return r.Text, true
	}
	return textOf(r.MIMEType, r.Data)
}

// ModelText is the resource as text for a model: its header, then its
// text content if it has one.
func (r ResourcePart) ModelText() string {
	if text, ok := r.TextContent(); ok {
		return r.Header() + "\n" + text
	}
	return r.Header()
}

// TextContent is a text file's content, when the file is of a text type
// and valid UTF-8.
func (f FilePart) TextContent() (string, bool) { return textOf(f.MIMEType, f.Data) }

// ModelText is a text file for a model: a line naming it, then its text.
func (f FilePart) ModelText() (string, bool) {
	text, ok := f.TextContent()
	if !ok {
		return "", false
	}
	return fmt.Sprintf("[file %s(%s)]\n%s", quoteName(f.Name), BaseType(f.MIMEType), text), true
}

func textOf(mime, b64 string) (string, bool) {
	if b64 == "" || !IsTextType(mime) {
		return "", false
	}
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || !utf8.Valid(raw) {
		return "", false
	}
	return string(raw), true
}
