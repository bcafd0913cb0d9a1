package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"

	"maestro/backend/providers"
)

// cacheMember is a breakpoint as encodeBody writes it on the last tool.
const cacheMember = `,"cache_control":{"type":"ephemeral"}`

// encodeBody marshals a request body without HTML escaping, so prompts and
// tool results reach the model as written. The tools and messages arrays
// are appended by hand after the other fields, in that order, so the body
// ends with the part that grows from one request to the next
// (docs/providers/anthropic.md, "Caching"). Tools are written from their
// already compacted schemas: with hundreds of tools, re-validating every
// schema inside encoding/json was most of the cost of a request
// (BenchmarkRender1000Tools).
func encodeBody(body *request) ([]byte, error) {
	head, err := encodeJSON(body)
	if err != nil {
		return nil, err
	}
	head = bytes.TrimSuffix(head, []byte("}"))
	msgs, err := encodeJSON(body.Messages)
	if err != nil {
		return nil, err
	}
	size := len(head) + len(msgs) + 32
	for _, t := range body.Tools {
		size += len(t.Name) + len(t.Description) + len(t.InputSchema) + 48
	}
	b := make([]byte, 0, size+len(cacheMember))
	b = append(b, head...)
	b = appendTools(b, body.Tools)
	b = append(b, `,"messages":`...)
	b = append(b, msgs...)
	return append(b, '}'), nil
}

// encodeJSON marshals v without HTML escaping or a trailing newline.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("anthropic: encode request: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// appendTools appends `,"tools":[…]`, or nothing for no tools.
func appendTools(b []byte, tools []tool) []byte {
	if len(tools) == 0 {
		return b
	}
	b = append(b, `,"tools":[`...)
	for i, t := range tools {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = providers.AppendJSONString(b, t.Name, false)
		if t.Description != "" {
			b = append(b, `,"description":`...)
			b = providers.AppendJSONString(b, t.Description, false)
		}
		b = append(b, `,"input_schema":`...)
		b = append(b, t.InputSchema...) // compacted and validated by toRequest
		if t.cache {
			b = append(b, cacheMember...)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}
