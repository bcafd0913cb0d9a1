package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"unicode/utf8"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
	"maestro/backend/tools"
)

// Every copy of a tool result is bounded (docs/SECURITY.md): what is read
// from the server (ReadLimits), the data sent to the model
// (tools.ResultLimits.Model, by tools.Envelope), the payload stored with
// the message for the UI (ResultLimits.Stored, chat.ToolResult.Raw), the
// attachments (ResultLimits.Attachments, and each image fitted to what
// every provider takes, images.go), and the copy in a UI event (app's cap
// on Raw, with CapJSON). Exports use the model's copy. A cut copy says so:
// Truncated, Size, and a note with the sizes.

// maxRawItems bounds the content items kept in Raw.
const maxRawItems = 1000

// Normalize turns an MCP tools/call result into Maestro's envelope: its
// content decoded into texts (with the size the bounded reader reported for
// a text it cut), structuredContent and attachments (images, audio and
// resources, never base64 text in data, within lim.Attachments, each image
// fitted to the providers' limits by fitImage), shaped by tools.Envelope
// within lim.Model. Raw is the result as JSON for the UI, at most
// lim.Stored bytes, with base64 data left out (it is in the attachments).
//
// It never copies a text whole: the model's data is built from a prefix of
// the texts, and Raw from texts cut to lim.Stored. (structuredContent given
// as a Go value by an in-process server is marshalled once.) CallID, Name
// and DurationMS are left for the caller.
func Normalize(res *mcpgo.CallToolResult, lim tools.ResultLimits) chat.ToolResult {
	lim = lim.WithDefaults()
	if res == nil {
		return chat.ToolResult{Error: "the tool returned no result"}
	}
	out := outputOf(res, lim.Attachments)
	textCut := capAttachmentTexts(out.Attachments, lim.Model)
	env := tools.Envelope(out, lim)
	raw, cut := rawCopy(res, lim.Stored)
	env.Raw = raw
	if (cut || textCut) && !env.Truncated {
		env.Truncated, env.Size = true, int64(out.Size())
	}
	return env
}

// capAttachmentTexts keeps the texts of a result's attachments (embedded
// text resources, link descriptions) within budget bytes together, the
// model's cap: what goes back to the model as attachments is bounded like
// its data. A cut text ends with a note; the UI can read the whole
// resource again by its URI. It reports whether it cut anything.
func capAttachmentTexts(atts []chat.Attachment, budget int) bool {
	used, cut := 0, false
	for i, a := range atts {
		if a.Text == "" {
			continue
		}
		room := max(0, budget-used)
		if len(a.Text) > room {
			size, _ := cutSize(a.Text)
			size = max(size, len(a.Text))
			atts[i].Text = cutUTF8(a.Text, room) + fmt.Sprintf("\n[Maestro cut this resource for the model: it is %s, a result carries %s]",
				tools.HumanSize(size), tools.HumanSize(budget))
			cut = true
		}
		used += min(len(a.Text), room)
	}
	return cut
}

// outputOf decodes a result's content for tools.Envelope, its attachments
// fitted within budget.
func outputOf(res *mcpgo.CallToolResult, budget int) tools.Output {
	out := tools.Output{IsError: res.IsError, Structured: structured(res)}
	var atts []chat.Attachment
	for _, c := range res.Content {
		if t, ok := textOf(c); ok {
			size, _ := cutSize(t)
			out.Texts = append(out.Texts, tools.Text{Text: t, Size: size})
		} else if a, ok := attachmentOf(c); ok {
			atts = append(atts, a)
		}
	}
	out.Attachments = fitAttachments(atts, budget)
	return out
}

// structured returns the result's structuredContent as compact JSON, or
// nil. Bytes from the wire are used as they are; a Go value (in-process
// servers) is marshalled.
func structured(res *mcpgo.CallToolResult) []byte {
	switch {
	case len(res.RawStructuredContent) > 0:
		return compactJSON(res.RawStructuredContent)
	case res.StructuredContent != nil:
		b, _ := json.Marshal(res.StructuredContent)
		return b
	}
	return nil
}

func compactJSON(b []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		s, _ := json.Marshal(map[string]string{"text": string(b)})
		return s
	}
	return buf.Bytes()
}

// rawCopy renders the result for the UI within limit bytes: texts cut,
// base64 data replaced by a note (it is in the attachments), at most
// maxRawItems content items, and the whole shrunk with CapJSON. cut says
// whether anything was left out.
func rawCopy(res *mcpgo.CallToolResult, limit int) (json.RawMessage, bool) {
	view := *res
	view.Content = make([]mcpgo.Content, 0, min(len(res.Content), maxRawItems+1))
	cut, used := false, 0
	for i, c := range res.Content {
		if i >= maxRawItems || used > 2*limit {
			view.Content = append(view.Content, mcpgo.NewTextContent(fmt.Sprintf("[Maestro left out %d more content items]", len(res.Content)-i)))
			cut = true
			break
		}
		c, n, elided := elide(c, limit)
		view.Content = append(view.Content, c)
		used += n
		cut = cut || elided
	}
	if s := structured(res); len(s) > 0 {
		view.RawStructuredContent, view.StructuredContent = s, nil
	}
	view.Meta = withoutServerInfo(res.Meta)
	b, err := json.Marshal(view)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": "the result cannot be shown: " + err.Error()})
	}
	capped, shrunk := CapJSON(b, limit)
	return capped, cut || shrunk
}

// withoutServerInfo is a result's _meta without the serverInfo a
// 2026-07-28 server repeats in every result: the connector card shows the
// server (its safe icons only), and a hostile one could fill Raw with it.
func withoutServerInfo(m *mcpgo.Meta) *mcpgo.Meta {
	if m == nil || m.AdditionalFields[mcpgo.MetaKeyServerInfo] == nil {
		return m
	}
	out := *m
	out.AdditionalFields = maps.Clone(m.AdditionalFields)
	delete(out.AdditionalFields, mcpgo.MetaKeyServerInfo)
	if out.ProgressToken == nil && len(out.AdditionalFields) == 0 {
		return nil
	}
	return &out
}

// elide returns c for Raw: a text cut to limit bytes, base64 data replaced
// by a note. n is about how many bytes it takes.
func elide(c mcpgo.Content, limit int) (mcpgo.Content, int, bool) {
	note := func(kind, mime, data string) string {
		return fmt.Sprintf("[%s %s, %s of base64: shown as an attachment, not repeated here]", mime, kind, tools.HumanSize(len(data)))
	}
	switch t := c.(type) {
	case mcpgo.TextContent:
		if room := limit - 256; len(t.Text) > room { // room for the envelope
			size, ok := cutSize(t.Text)
			if !ok {
				size = len(t.Text)
			}
			t.Text = cutUTF8(t.Text, room) + cutMarkerPrefix + fmt.Sprint(size) + " bytes]"
			return t, limit, true
		}
		return t, len(t.Text), false
	case *mcpgo.TextContent:
		return elide(*t, limit)
	case mcpgo.ImageContent:
		t.Data = note("image", t.MIMEType, t.Data)
		return t, len(t.Data), false
	case *mcpgo.ImageContent:
		return elide(*t, limit)
	case mcpgo.AudioContent:
		t.Data = note("audio", t.MIMEType, t.Data)
		return t, len(t.Data), false
	case *mcpgo.AudioContent:
		return elide(*t, limit)
	case mcpgo.EmbeddedResource:
		switch r := t.Resource.(type) {
		case mcpgo.BlobResourceContents:
			r.Blob = note("resource", r.MIMEType, r.Blob)
			t.Resource = r
		case *mcpgo.BlobResourceContents:
			b := *r
			b.Blob = note("resource", b.MIMEType, b.Blob)
			t.Resource = b
		case mcpgo.TextResourceContents:
			if len(r.Text) > limit {
				r.Text = cutUTF8(r.Text, limit)
				t.Resource = r
				return t, limit, true
			}
		}
		return t, 0, false
	case *mcpgo.EmbeddedResource:
		return elide(*t, limit)
	}
	return c, 0, false
}

// CapJSON returns doc, or when doc is longer than limit a version of it
// that fits: its longest strings cut (each ending with a note of its size)
// until it does, or, when its structure alone is too large, a JSON string
// saying so. The result is valid JSON when doc is; cut reports a change.
func CapJSON(doc []byte, limit int) (out json.RawMessage, cut bool) {
	if len(doc) <= limit {
		return doc, false
	}
	var m msgScanner
	for s := limit / 2; s >= 64; s /= 2 {
		m.reset(ReadLimits{String: s, Binary: s, Message: limit, Depth: 1 << 16})
		m.feed(doc)
		if !m.tooBig && !m.tooDeep && !m.garbage {
			return bytes.Clone(m.out), true
		}
	}
	b, _ := json.Marshal(fmt.Sprintf("[Maestro: the result (%s) is too large to show here]", tools.HumanSize(len(doc))))
	return b, true
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

func textOf(c mcpgo.Content) (string, bool) {
	switch t := c.(type) {
	case mcpgo.TextContent:
		return t.Text, true
	case *mcpgo.TextContent:
		return t.Text, t != nil
	}
	return "", false
}

func attachmentOf(c mcpgo.Content) (chat.Attachment, bool) {
	switch t := c.(type) {
	case mcpgo.ImageContent:
		return chat.Attachment{Type: chat.AttachmentImage, MIMEType: t.MIMEType, Data: t.Data}, true
	case *mcpgo.ImageContent:
		return attachmentOf(*t)
	case mcpgo.AudioContent:
		return chat.Attachment{Type: chat.AttachmentAudio, MIMEType: t.MIMEType, Data: t.Data}, true
	case *mcpgo.AudioContent:
		return attachmentOf(*t)
	case mcpgo.ResourceLink:
		return chat.Attachment{Type: chat.AttachmentResourceLink, URI: t.URI, MIMEType: t.MIMEType, Name: cmpOr(t.Title, t.Name),
			Text: short(t.Description, maxDescription)}, true
	case *mcpgo.ResourceLink:
		return attachmentOf(*t)
	case mcpgo.EmbeddedResource:
		switch r := t.Resource.(type) {
		case mcpgo.TextResourceContents:
			return chat.Attachment{Type: chat.AttachmentResource, URI: r.URI, MIMEType: r.MIMEType, Text: r.Text}, true
		case *mcpgo.TextResourceContents:
			return chat.Attachment{Type: chat.AttachmentResource, URI: r.URI, MIMEType: r.MIMEType, Text: r.Text}, true
		case mcpgo.BlobResourceContents:
			return chat.Attachment{Type: chat.AttachmentResource, URI: r.URI, MIMEType: r.MIMEType, Data: r.Blob}, true
		case *mcpgo.BlobResourceContents:
			return chat.Attachment{Type: chat.AttachmentResource, URI: r.URI, MIMEType: r.MIMEType, Data: r.Blob}, true
		}
	case *mcpgo.EmbeddedResource:
		return attachmentOf(*t)
	}
	return chat.Attachment{}, false
}
