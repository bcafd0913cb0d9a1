package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Part is one ordered piece of a message. The set is sealed: TextPart,
// ReasoningPart, ToolCallPart, ToolResultPart and FilePart.
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

// FilePart is a file the user attached.
type FilePart struct {
	Name     string `json:"name,omitempty"`
	MIMEType string `json:"mimeType"`
	// Data is base64-encoded content.
	Data string `json:"data,omitempty"`
	URI  string `json:"uri,omitempty"`
}

func (TextPart) PartType() string       { return "text" }
func (ReasoningPart) PartType() string  { return "reasoning" }
func (ToolCallPart) PartType() string   { return "tool_call" }
func (ToolResultPart) PartType() string { return "tool_result" }
func (FilePart) PartType() string       { return "file" }

func (TextPart) isPart()       {}
func (ReasoningPart) isPart()  {}
func (ToolCallPart) isPart()   {}
func (ToolResultPart) isPart() {}
func (FilePart) isPart()       {}

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
// (text parts and reasoning parts share text and providerData, with the same
// types). Its field set must follow the part types above.
type partWire struct {
	Type         string       `json:"type"`
	Text         string       `json:"text"`
	ProviderData ProviderData `json:"providerData"`
	Call         *ToolCall    `json:"call"`
	Result       *ToolResult  `json:"result"`
	Name         string       `json:"name"`
	MIMEType     string       `json:"mimeType"`
	Data         string       `json:"data"`
	URI          string       `json:"uri"`
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
		return FilePart{Name: w.Name, MIMEType: w.MIMEType, Data: w.Data, URI: w.URI}, nil
	default:
		return nil, fmt.Errorf("unknown part type %q: %w", w.Type, ErrInvalid)
	}
}
