package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Part is one ordered piece of a message. The set is sealed: TextPart,
// ReasoningPart, ToolCallPart, ToolResultPart, FilePart and ResourcePart.
type Part interface {
	// PartType is the discriminator written as "type" in JSON.
	PartType() string
	isPart()
}

// TextPart is visible text.
type TextPart struct {
	Text         string       `json:"text"`
	ProviderData ProviderData `json:"providerData,omitempty"`
}

// ReasoningPart is the model's thinking. Its ProviderData carries the
// signatures and encrypted items the producing provider needs replayed.
type ReasoningPart struct {
	Text         string       `json:"text,omitempty"`
	ProviderData ProviderData `json:"providerData,omitempty"`
}

// ToolCallPart is a tool call inside an assistant message.
type ToolCallPart struct {
	Call ToolCall `json:"call"`
}

// ToolResultPart is a tool result inside a tool message.
type ToolResultPart struct {
	Result ToolResult `json:"result"`
}

// FilePart is a file the user attached: an image, a PDF, a text file, or
// an image or clip a prompt brought.
//
// Its bytes are Data (base64) in memory. A stored message keeps Ref
// instead: backend/store moves the bytes into its blob bucket once (the
// same bytes attached twice are stored once) and puts Data back when it
// reads a history to send (Store.Messages); pages read for the UI keep
// only Ref and Size.
type FilePart struct {
	Name     string `json:"name,omitempty"`
	MIMEType string `json:"mimeType"`
	// Size is the length of the content in bytes (decoded), 0 if unknown.
	Size int64 `json:"size,omitempty"`
	// Data is base64-encoded content.
	Data string `json:"data,omitempty"`
	// Ref names the stored bytes (BlobRef) of a stored message.
	Ref string `json:"ref,omitempty"`
	// URI is where a file that is not inline lives (a URL the provider
	// fetches itself).
	URI string `json:"uri,omitempty"`
}

// ResourcePart is an MCP resource in a user message: one the user
// attached, or one a prompt embedded. It names the resource (URI, the
// connector that serves it) and carries what was read of it: Text for a
// text resource, or bytes of MIMEType (Data in memory, Ref once stored, as
// for FilePart). A part with neither is a reference only (a resource
// link): the model is told the resource exists. Search and export show a
// resource by name and URI, never its content.
type ResourcePart struct {
	URI string `json:"uri"`
	// ConnectorID is the connector the resource was read from (to read it
	// again); Server is that connector's name, as the UI shows it.
	ConnectorID string `json:"connectorId,omitempty"`
	Server      string `json:"server,omitempty"`
	Name        string `json:"name,omitempty"`
	Title       string `json:"title,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	// Text is a text resource's content.
	Text string `json:"text,omitempty"`
	// Data (base64) and Ref are a binary resource's content.
	Data string `json:"data,omitempty"`
	Ref  string `json:"ref,omitempty"`
	// Size is the content's length in bytes as the server sent it (before
	// any cut), 0 if unknown.
	Size int64 `json:"size,omitempty"`
	// Truncated is set when Text was cut to the attachment cap; Size is
	// then the full length.
	Truncated bool `json:"truncated,omitempty"`
}

// Label is how the resource is named to a reader: its title, name or URI.
func (r ResourcePart) Label() string {
	switch {
	case r.Title != "":
		return r.Title
	case r.Name != "":
		return r.Name
	}
	return r.URI
}

func (TextPart) PartType() string       { return "text" }
func (ReasoningPart) PartType() string  { return "reasoning" }
func (ToolCallPart) PartType() string   { return "tool_call" }
func (ToolResultPart) PartType() string { return "tool_result" }
func (FilePart) PartType() string       { return "file" }
func (ResourcePart) PartType() string   { return "resource" }

func (TextPart) isPart()       {}
func (ReasoningPart) isPart()  {}
func (ToolCallPart) isPart()   {}
func (ToolResultPart) isPart() {}
func (FilePart) isPart()       {}
func (ResourcePart) isPart()   {}

// Parts is an ordered list of parts with a tagged JSON form:
// each element is the part's own object with a "type" member added.
type Parts []Part

// MarshalJSON writes each part as {"type": …, <fields>}.
func (ps Parts) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('[')
	for i, p := range ps {
		if p == nil {
			return nil, fmt.Errorf("part %d is nil: %w", i, ErrInvalid)
		}
		if i > 0 {
			buf.WriteByte(',')
		}
		body, err := json.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("marshal %s part %d: %w", p.PartType(), i, err)
		}
		fmt.Fprintf(&buf, `{"type":%q`, p.PartType())
		if len(body) > 2 { // not "{}"
			buf.WriteByte(',')
			buf.Write(body[1 : len(body)-1])
		}
		buf.WriteByte('}')
	}
	buf.WriteByte(']')
	return buf.Bytes(), nil
}

// UnmarshalJSON reads the tagged form written by MarshalJSON. An unknown
// type is an error rather than a silently dropped part.
//
// It decodes the array once into partWire, the union of every part's fields,
// and then picks the fields the type names. Decoding each element first as
// raw JSON, then its tag, then the part (the obvious way) re-validated every
// byte three more times and made reading a long history four times slower.
func (ps *Parts) UnmarshalJSON(b []byte) error {
	var wire []partWire
	if err := json.Unmarshal(b, &wire); err != nil {
		return err
	}
	if wire == nil {
		*ps = nil
		return nil
	}
	out := make(Parts, 0, len(wire))
	for i, w := range wire {
		p, err := w.part()
		if err != nil {
			return fmt.Errorf("part %d: %w", i, err)
		}
		out = append(out, p)
	}
	*ps = out
	return nil
}

// partWire holds the fields of every part type; the names do not clash
// (parts that share a name, such as text or uri, give it the same type).
// Its field set must follow the part types above.
type partWire struct {
	Type         string       `json:"type"`
	Text         string       `json:"text"`
	ProviderData ProviderData `json:"providerData"`
	Call         *ToolCall    `json:"call"`
	Result       *ToolResult  `json:"result"`
	Name         string       `json:"name"`
	MIMEType     string       `json:"mimeType"`
	Size         int64        `json:"size"`
	Data         string       `json:"data"`
	Ref          string       `json:"ref"`
	URI          string       `json:"uri"`
	ConnectorID  string       `json:"connectorId"`
	Server       string       `json:"server"`
	Title        string       `json:"title"`
	Truncated    bool         `json:"truncated"`
}

func (w *partWire) part() (Part, error) {
	switch w.Type {
	case "text":
		return TextPart{Text: w.Text, ProviderData: w.ProviderData}, nil
	case "reasoning":
		return ReasoningPart{Text: w.Text, ProviderData: w.ProviderData}, nil
	case "tool_call":
		var c ToolCall
		if w.Call != nil {
			c = *w.Call
		}
		return ToolCallPart{Call: c}, nil
	case "tool_result":
		var r ToolResult
		if w.Result != nil {
			r = *w.Result
		}
		return ToolResultPart{Result: r}, nil
	case "file":
		return FilePart{Name: w.Name, MIMEType: w.MIMEType, Size: w.Size, Data: w.Data, Ref: w.Ref, URI: w.URI}, nil
	case "resource":
		return ResourcePart{URI: w.URI, ConnectorID: w.ConnectorID, Server: w.Server, Name: w.Name, Title: w.Title,
			MIMEType: w.MIMEType, Text: w.Text, Data: w.Data, Ref: w.Ref, Size: w.Size, Truncated: w.Truncated}, nil
	default:
		return nil, fmt.Errorf("unknown part type %q: %w", w.Type, ErrInvalid)
	}
}
