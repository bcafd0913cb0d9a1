package gemini

import (
	"strings"

	"maestro/backend/chat"
)

// Attachments in requests (docs/providers/gemini.md §Attachments): images,
// PDFs, audio and video as inlineData (or fileData for a URL); text files
// and resources' text as text parts under a line naming them. What the
// service refuses never reaches the renderer: Stream fits the history to
// AttachmentRules first.

var (
	imageTypes = []string{"image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"}
	audioTypes = []string{"audio/wav", "audio/mp3", "audio/mpeg", "audio/aiff", "audio/aac", "audio/ogg", "audio/flac"}
	videoTypes = []string{"video/mp4", "video/mpeg", "video/mov", "video/avi", "video/x-flv", "video/mpg", "video/webm",
		"video/wmv", "video/3gpp"}
)

// filePart renders a user's file: a text file as text under its name,
// anything else as inline data or a file URI.
func filePart(f chat.FilePart) (part, bool) {
	if text, ok := f.ModelText(); ok {
		return textPart(text), true
	}
	switch {
	case f.Data != "":
		return part{InlineData: &blob{MIMEType: chat.BaseType(f.MIMEType), Data: f.Data}}, true
	case f.URI != "":
		return part{FileData: &fileData{MIMEType: f.MIMEType, FileURI: f.URI}}, true
	}
	return part{}, false
}

// resourceParts renders a resource part: its text under a line naming it,
// then its bytes as inline data when they are media Gemini takes.
func (r *renderer) resourceParts(p chat.ResourcePart) []part {
	parts := []part{textPart(p.ModelText())}
	if _, isText := p.TextContent(); isText || p.Data == "" {
		return parts
	}
	if AttachmentRules(false).Kind(p.MIMEType) == "" {
		r.warnf("resource %s: bytes of type %s dropped", p.URI, p.MIMEType)
		return parts
	}
	return append(parts, part{InlineData: &blob{MIMEType: chat.BaseType(p.MIMEType), Data: p.Data}})
}

func isWebURL(u string) bool {
	return strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://")
}

// AttachmentRules are the Gemini API's limits on what a request carries
// (docs/providers/gemini.md §Attachments, with sources): PNG, JPEG, WebP,
// HEIC and HEIF images, PDFs, the documented audio and video types; inline
// PDFs of at most 50 MB; a request payload of at most 100 MB through the
// public API, 20 MB through Code Assist.
func AttachmentRules(codeAssist bool) chat.AttachmentRules {
	limit := int64(maxPublicPayload)
	if codeAssist {
		limit = maxCodeAssistPayload
	}
	return chat.AttachmentRules{
		Provider:         chat.ProviderGemini,
		Label:            "Gemini",
		Images:           imageTypes,
		Documents:        []string{"application/pdf"},
		Audio:            audioTypes,
		Video:            videoTypes,
		MaxDocumentBytes: 50 << 20,
		MaxInline:        limit,
		MaxRequest:       limit,
		Source:           "docs/providers/gemini.md §Attachments",
	}
}

// The request payload limits: 100 MB inline through the public API since
// January 2026; 20 MB, the public API's limit before that, through Code
// Assist, whose own limit no source states.
const (
	maxPublicPayload     = 100 << 20
	maxCodeAssistPayload = 20 << 20
)

// AttachmentRules are the rules for this Model's mode (chat.AttachmentChecker).
func (m *Model) AttachmentRules(chat.ModelInfo) chat.AttachmentRules {
	return AttachmentRules(m.apiKey == "")
}
