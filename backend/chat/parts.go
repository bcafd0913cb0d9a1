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
func (ps *Parts) UnmarshalJSON(b []byte) error {
	var raws []json.RawMessage
	if err := json.Unmarshal(b, &raws); err != nil {
		return err
	}
	if raws == nil {
		*ps = nil
		return nil
	}
	out := make(Parts, 0, len(raws))
	for i, raw := range raws {
		var tag struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(raw, &tag); err != nil {
			return fmt.Errorf("part %d: %w", i, err)
		}
		p, err := decodePart(tag.Type, raw)
		if err != nil {
			return fmt.Errorf("part %d: %w", i, err)
		}
		out = append(out, p)
	}
	*ps = out
	return nil
}

func decodePart(typ string, raw json.RawMessage) (Part, error) {
	switch typ {
	case "text":
		return decodeAs[TextPart](raw)
	case "reasoning":
		return decodeAs[ReasoningPart](raw)
	case "tool_call":
		return decodeAs[ToolCallPart](raw)
	case "tool_result":
		return decodeAs[ToolResultPart](raw)
	case "file":
		return decodeAs[FilePart](raw)
	default:
		return nil, fmt.Errorf("unknown part type %q: %w", typ, ErrInvalid)
	}
}

func decodeAs[T Part](raw json.RawMessage) (Part, error) {
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return v, nil
}
