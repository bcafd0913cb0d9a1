package geminifake

import (
	"encoding/base64"
	"encoding/json"
	"strings"

	"maestro/backend/chat"
)

// The limits the Gemini API puts on inline data (docs/providers/gemini.md
// §Attachments). "Unsupported MIME type: X" and "Request payload size
// exceeds the limit: N bytes." are the service's own messages (quoted in
// issue threads); the wording for a PDF over 50 MB is not published
// anywhere found and is the fake's.
const (
	maxCodeAssistBody = 20 << 20
	maxPublicBody     = 100 << 20
	maxInlinePDF      = 50 << 20
)

// inlineTypes are the MIME types inline data may have besides text.
var inlineTypes = map[string]bool{
	"image/png": true, "image/jpeg": true, "image/webp": true, "image/heic": true, "image/heif": true,
	"application/pdf": true,
	"audio/wav":       true, "audio/mp3": true, "audio/mpeg": true, "audio/aiff": true, "audio/aac": true, "audio/ogg": true, "audio/flac": true,
	"video/mp4": true, "video/mpeg": true, "video/mov": true, "video/avi": true, "video/x-flv": true, "video/mpg": true,
	"video/webm": true, "video/wmv": true, "video/3gpp": true,
}

// payloadTooLarge is the front end's answer to a body over the limit.
func payloadTooLarge(limit int) *rejection {
	return invalid("payload size", "Request payload size exceeds the limit: %d bytes.", limit)
}

// validateInline checks a part's inline data: a MIME type the service
// takes, and a PDF within its size.
func validateInline(raw json.RawMessage) *rejection {
	var b struct {
		MIMEType string `json:"mimeType"`
		Data     string `json:"data"`
	}
	if json.Unmarshal(raw, &b) != nil {
		return nil
	}
	mime := strings.ToLower(b.MIMEType)
	if !inlineTypes[mime] && !chat.IsTextType(mime) {
		return invalid("inline data type", "Unsupported MIME type: %s", b.MIMEType)
	}
	if mime == "application/pdf" && base64.StdEncoding.DecodedLen(len(b.Data)) > maxInlinePDF+2 {
		// wording not confirmed
		return invalid("inline pdf size", "The document is larger than the %d bytes an inline PDF may have.", maxInlinePDF)
	}
	return nil
}
