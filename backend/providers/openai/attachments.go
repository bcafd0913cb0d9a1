package openai

import (
	"cmp"

	"maestro/backend/chat"
)

// Attachments in requests (docs/providers/openai.md §Attachments): images
// as input_image (data URLs), PDFs as input_file, text files and resources'
// text as input_text under a line naming them; a tool result's images and
// PDFs go in its output list, its links and embedded texts as text. What
// the service refuses never reaches the renderer: newRequest fits the
// history to AttachmentRules first.

var imageTypes = []string{"image/png", "image/jpeg", "image/webp", "image/gif"}

// file renders an attached file.
func (r *renderer) file(f chat.FilePart) (contentPart, bool) {
	mt := chat.BaseType(f.MIMEType)
	if text, ok := f.ModelText(); ok {
		return contentPart{Type: "input_text", Text: text}, true
	}
	if c, ok := media(mt, f.Name, f.Data, f.URI); ok {
		return c, true
	}
	r.warnf("file %q (%s) dropped: openai takes images, PDFs and text", f.Name, f.MIMEType)
	return contentPart{}, false
}

// media is an image or PDF as a content part, by data or URL.
func media(mt, name, data, uri string) (contentPart, bool) {
	image := isImage(mt)
	switch {
	case image && data != "":
		return contentPart{Type: "input_image", ImageURL: dataURL(mt, data)}, true
	case image && uri != "":
		return contentPart{Type: "input_image", ImageURL: uri}, true
	case mt == "application/pdf" && data != "":
		return contentPart{Type: "input_file", Filename: cmp.Or(name, "file.pdf"), FileData: dataURL(mt, data)}, true
	case mt == "application/pdf" && uri != "":
		return contentPart{Type: "input_file", FileURL: uri}, true
	}
	return contentPart{}, false
}

func isImage(mt string) bool {
	for _, t := range imageTypes {
		if mt == t {
			return true
		}
	}
	return false
}

// resource renders a resource part: its text under a line naming it, then
// its image or PDF.
func (r *renderer) resource(p chat.ResourcePart) []contentPart {
	out := []contentPart{{Type: "input_text", Text: p.ModelText()}}
	if _, isText := p.TextContent(); isText || p.Data == "" {
		return out
	}
	if c, ok := media(chat.BaseType(p.MIMEType), p.Label(), p.Data, ""); ok {
		return append(out, c)
	}
	r.warnf("resource %s: bytes of type %s dropped", p.URI, p.MIMEType)
	return out
}

// attachments renders a tool result's attachments for its output list.
func (r *renderer) attachments(atts []chat.Attachment) []contentPart {
	var out []contentPart
	for _, a := range atts {
		if a.Data != "" {
			if c, ok := media(chat.BaseType(a.MIMEType), a.Name, a.Data, ""); ok {
				out = append(out, c)
				continue
			}
		}
		if text := a.ModelText(); text != "" {
			out = append(out, contentPart{Type: "input_text", Text: text})
			continue
		}
		r.warnf("%s attachment (%s) dropped: openai tool outputs take text, images and PDFs", a.Type, a.MIMEType)
	}
	return out
}

// AttachmentRules are the Responses API's limits on what a request carries
// (docs/providers/openai.md §Attachments, with sources): PNG, JPEG, WebP
// and GIF images of at most 20 MB each, 500 images and 50 MB of images per
// request; PDFs, 50 MB of files per request.
func AttachmentRules() chat.AttachmentRules {
	return chat.AttachmentRules{
		Provider:         chat.ProviderOpenAI,
		Label:            "ChatGPT",
		Images:           imageTypes,
		Documents:        []string{"application/pdf"},
		MaxImageBytes:    20_000_000,
		MaxImages:        500,
		MaxImageTotal:    50_000_000,
		MaxDocumentTotal: 50_000_000,
		Source:           "docs/providers/openai.md §Attachments",
	}
}

// AttachmentRules are the rules for one model (chat.AttachmentChecker).
func (m *Model) AttachmentRules(chat.ModelInfo) chat.AttachmentRules { return AttachmentRules() }
