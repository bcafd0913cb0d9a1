package chattest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"

	"maestro/backend/chat"
)

// TinyPNG is a 1×1 PNG, base64.
const TinyPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAADklEQVR4nGJiAAQAAP//AAYAA/rQWa4AAAAASUVORK5CYII="

// AttachmentTurn is a user turn carrying every kind of attachment a user
// or a prompt brings, then a tool call whose result links and embeds
// resources: what each adapter's golden case renders. The resources are
// server-everything's (a markdown document, a text resource read through a
// template, a blob of text/plain, a reference only).
func AttachmentTurn() []chat.Message {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	return []chat.Message{
		{ID: "u1", Role: chat.RoleUser, Parts: chat.Parts{
			// A prompt's text and its embedded resource (resource-prompt).
			chat.TextPart{Text: "This prompt includes the Text resource with id: 3. Please analyze the following resource:"},
			chat.ResourcePart{URI: "demo://resource/dynamic/text/3", ConnectorID: "c1", Server: "Everything", MIMEType: "text/plain",
				Text: "Resource 3: This is a plaintext resource created at 10:00:00"},
			// Attached by the user: a document, a binary-typed text blob, an
			// image resource, a resource only named.
			chat.ResourcePart{URI: "demo://resource/static/document/features.md", ConnectorID: "c1", Server: "Everything",
				Name: "features.md", MIMEType: "text/markdown", Text: "# Features\n- prompts\n- resources"},
			chat.ResourcePart{URI: "demo://resource/dynamic/blob/4", ConnectorID: "c1", Server: "Everything", Title: "Blob 4",
				MIMEType: "text/plain", Data: b64("Resource 4: This is a base64 blob")},
			chat.ResourcePart{URI: "demo://resource/static/image/dot.png", ConnectorID: "c1", Server: "Everything", Name: "dot.png",
				MIMEType: "image/png", Data: TinyPNG},
			chat.ResourcePart{URI: "demo://resource/session/hello.gz", ConnectorID: "c1", Server: "Everything", Name: "hello.gz",
				MIMEType: "application/gzip"},
			// Files: an image, a Markdown text file.
			chat.FilePart{Name: "dot.png", MIMEType: "image/png", Data: TinyPNG},
			chat.FilePart{Name: "notes.md", MIMEType: "text/markdown", Data: b64("# Notes\nbuy milk")},
		}},
		{ID: "a1", Role: chat.RoleAssistant, Parts: chat.Parts{chat.ToolCallPart{Call: chat.ToolCall{
			ID: "c1", Name: "everything.get-resource-links", Arguments: json.RawMessage(`{"count":2}`),
		}}}},
		{ID: "t1", Role: chat.RoleTool, Parts: chat.Parts{chat.ToolResultPart{Result: chat.ToolResult{
			CallID: "c1", Name: "everything.get-resource-links", Successful: true,
			Data: json.RawMessage(`{"text":"Here are 2 resource links to resources available in this server:"}`),
			Attachments: []chat.Attachment{
				{Type: chat.AttachmentResourceLink, URI: "demo://resource/dynamic/blob/1", Name: "Blob Resource 1", MIMEType: "text/plain",
					Text: "Resource 1: binary blob resource"},
				{Type: chat.AttachmentResource, URI: "demo://resource/dynamic/text/2", MIMEType: "text/plain",
					Text: "Resource 2: This is a plaintext resource"},
			},
		}}}},
	}
}

// PNG is a blank w×h PNG, base64: small whatever its size in pixels,
// for the pixel limits.
func PNG(w, h int) string {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		panic(err) // an in-memory encode of a valid image cannot fail
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}
