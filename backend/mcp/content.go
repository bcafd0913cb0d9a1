package mcp

import (
	"fmt"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
	"maestro/backend/tools"
)

// What a prompt or a resource read brings into a user message is bounded
// like a tool result (docs/SECURITY.md): the bounded reader has already cut
// strings over ReadLimits.String and dropped base64 over ReadLimits.Binary
// (its marker becomes a note here); a resource's text is cut to
// MaxResourceText with a visible note, Truncated and the full Size; bytes
// go as they are (the provider's own limits are checked when the message
// is sent, chat.AttachmentRules).

// MaxResourceText is the most of one resource's text a message carries.
const MaxResourceText = 256 << 10

// contentPart turns one item of a prompt message into a part: text, an
// image or audio clip as a file, an embedded resource or a resource link
// as a resource part.
func contentPart(c mcpgo.Content, connectorID, server string) (chat.Part, bool) {
	switch t := c.(type) {
	case mcpgo.TextContent:
		text, size := cutResourceText(t.Text)
		if size > 0 {
			text += fmt.Sprintf("\n[Maestro cut this text: it was %s]", tools.HumanSize(size))
		}
		return chat.TextPart{Text: text}, true
	case mcpgo.ImageContent:
		return mediaFile("image", t.MIMEType, t.Data), true
	case mcpgo.AudioContent:
		return mediaFile("audio", t.MIMEType, t.Data), true
	case mcpgo.EmbeddedResource:
		return resourcePart(t.Resource, connectorID, server), true
	case mcpgo.ResourceLink:
		return chat.ResourcePart{URI: t.URI, ConnectorID: connectorID, Server: server, Name: short(t.Name, maxName),
			Title: short(t.Title, maxName), MIMEType: t.MIMEType}, true
	case *mcpgo.TextContent:
		return contentPart(*t, connectorID, server)
	case *mcpgo.ImageContent:
		return contentPart(*t, connectorID, server)
	case *mcpgo.AudioContent:
		return contentPart(*t, connectorID, server)
	case *mcpgo.EmbeddedResource:
		return contentPart(*t, connectorID, server)
	case *mcpgo.ResourceLink:
		return contentPart(*t, connectorID, server)
	}
	return nil, false
}

// mediaFile is an image or clip a prompt sent, or a note if the reader
// dropped it.
func mediaFile(kind, mime, data string) chat.Part {
	if n, ok := droppedSize(data); ok {
		return chat.TextPart{Text: fmt.Sprintf("[%s %s left out: the server sent %s of base64, more than Maestro reads]", mime, kind, tools.HumanSize(n))}
	}
	return chat.FilePart{Name: kind, MIMEType: mime, Data: data, Size: chat.DecodedLen(data)}
}

// resourcePart turns read contents into a resource part: text cut to
// MaxResourceText, or bytes, or a note for bytes the reader dropped.
func resourcePart(rc mcpgo.ResourceContents, connectorID, server string) chat.ResourcePart {
	p := chat.ResourcePart{ConnectorID: connectorID, Server: server}
	switch c := rc.(type) {
	case mcpgo.TextResourceContents:
		p.URI, p.MIMEType = c.URI, c.MIMEType
		text, size := cutResourceText(c.Text)
		p.Text, p.Size = text, int64(len(c.Text))
		if size > 0 {
			p.Truncated, p.Size = true, int64(size)
			p.Text += fmt.Sprintf("\n[Maestro cut this resource: it is %s; the message carries the first %s]",
				tools.HumanSize(size), tools.HumanSize(MaxResourceText))
		}
	case mcpgo.BlobResourceContents:
		p.URI, p.MIMEType = c.URI, c.MIMEType
		if n, ok := droppedSize(c.Blob); ok {
			p.Size = int64(n) * 3 / 4
			p.Text = fmt.Sprintf("[the content of this resource was left out: the server sent %s of base64, more than Maestro reads]", tools.HumanSize(n))
			break
		}
		p.Data, p.Size = c.Blob, chat.DecodedLen(c.Blob)
	case *mcpgo.TextResourceContents:
		return resourcePart(*c, connectorID, server)
	case *mcpgo.BlobResourceContents:
		return resourcePart(*c, connectorID, server)
	}
	return p
}

// cutResourceText returns text within MaxResourceText, and the size it had
// (the reader's size for a text it cut) when it was cut, else 0.
func cutResourceText(text string) (string, int) {
	size, readerCut := cutSize(text)
	if readerCut {
		text = strings.TrimSuffix(text, cutMarkerRE.FindString(text))
	} else {
		size = len(text)
	}
	switch {
	case len(text) > MaxResourceText:
		return cutUTF8(text, MaxResourceText), size
	case readerCut:
		return text, size
	}
	return text, 0
}
