package anthropic

import (
	"encoding/base64"
	"fmt"
	"strings"

	"maestro/backend/chat"
)

// Attachments in requests (docs/providers/anthropic.md §Attachments):
// images and PDFs as image and document blocks, by data or URL; text files
// as document blocks with a text source; resources as a text block naming
// them, then their content as one of those. What the API refuses (a type,
// a size, too many) never reaches the renderer: Stream fits the history to
// AttachmentRules first.

// imageTypes are the image media types the API accepts.
var imageTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true}

// file renders a user attachment: an image or PDF by data or URL, a text
// file as a text document titled with its name.
func (r *renderer) file(f chat.FilePart) (any, bool) {
	mt := chat.BaseType(f.MIMEType)
	if text, ok := f.TextContent(); ok {
		return mediaBlock{Type: "document", Source: mediaSource{Type: "text", MediaType: "text/plain", Data: text}, Title: f.Name}, true
	}
	kind := mediaKind(mt)
	switch {
	case kind == "":
		r.warn(fmt.Sprintf("file %s: type %q is not supported, left out", f.Name, f.MIMEType))
		return nil, false
	case f.Data != "":
		return mediaBlock{Type: kind, Source: mediaSource{Type: "base64", MediaType: mt, Data: f.Data}}, true
	case f.URI != "":
		return mediaBlock{Type: kind, Source: mediaSource{Type: "url", URL: f.URI}}, true
	}
	r.warn(fmt.Sprintf("file %s: no data, left out", f.Name))
	return nil, false
}

// mediaKind is the block type of a media type: image, document (PDF), or
// "" when the API takes neither.
func mediaKind(mt string) string {
	switch {
	case imageTypes[mt]:
		return "image"
	case mt == "application/pdf":
		return "document"
	}
	return ""
}

// resource renders a resource part: a text block naming it (with its text
// content, if it is text), then an image or document block for its bytes.
func (r *renderer) resource(p chat.ResourcePart) []any {
	blocks := []any{textBlock{Type: "text", Text: p.ModelText()}}
	if _, isText := p.TextContent(); isText || p.Data == "" {
		return blocks
	}
	mt := chat.BaseType(p.MIMEType)
	if kind := mediaKind(mt); kind != "" {
		return append(blocks, mediaBlock{Type: kind, Source: mediaSource{Type: "base64", MediaType: mt, Data: p.Data}})
	}
	r.warn(fmt.Sprintf("resource %s: bytes of type %q left out", p.URI, p.MIMEType))
	return blocks
}

// attachment renders a tool result's attachment: an image by data or URL,
// a PDF, anything else as its text for the model (chat.Attachment.ModelText).
func (r *renderer) attachment(a chat.Attachment) (any, bool) {
	mt := chat.BaseType(a.MIMEType)
	switch {
	case a.Data != "" && mediaKind(mt) != "":
		return mediaBlock{Type: mediaKind(mt), Source: mediaSource{Type: "base64", MediaType: mt, Data: a.Data}}, true
	case a.Type == chat.AttachmentImage && a.Data == "" && a.URI != "" && a.Text == "" && isWebURL(a.URI):
		return mediaBlock{Type: "image", Source: mediaSource{Type: "url", URL: a.URI}}, true
	case a.Data != "" && a.Text == "":
		if raw, err := base64.StdEncoding.DecodeString(a.Data); err == nil && chat.IsTextType(mt) {
			a.Text = string(raw)
		}
	}
	if text := a.ModelText(); text != "" {
		return textBlock{Type: "text", Text: text}, true
	}
	return nil, false
}

func isWebURL(u string) bool {
	return strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://")
}

// AttachmentRules are the Messages API's limits on what a request carries
// (docs/providers/anthropic.md §Attachments, with sources): JPEG, PNG, GIF
// and WebP images of at most 5 MB of base64 (5,242,880 characters) and
// 8000 px on a side, 2000 px when a request has more than 20 images; PDFs;
// 600 images and document pages in one request, 100 for models with a
// 200k-token context window; 32 MB of request body.
func AttachmentRules(info chat.ModelInfo) chat.AttachmentRules {
	media := 600
	if info.ContextWindow > 0 && info.ContextWindow <= 200_000 {
		media = 100
	}
	return chat.AttachmentRules{
		Provider:         chat.ProviderAnthropic,
		Label:            "Claude",
		Images:           []string{"image/jpeg", "image/png", "image/gif", "image/webp"},
		Documents:        []string{"application/pdf"},
		MaxImageBase64:   5 << 20,
		MaxImageSide:     8000,
		ManyImages:       20,
		MaxImageSideMany: 2000,
		MaxMedia:         media,
		MaxInline:        maxRequestBytes,
		MaxRequest:       maxRequestBytes,
		Source:           "docs/providers/anthropic.md §Attachments",
	}
}

// maxRequestBytes is the Messages API's request size limit (32 MB; 413
// request_too_large above it).
const maxRequestBytes = 32 << 20

// AttachmentRules are the rules for one model (chat.AttachmentChecker).
func (m *Model) AttachmentRules(info chat.ModelInfo) chat.AttachmentRules {
	return AttachmentRules(info)
}
