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
	size := 1024 // the head and a short history
	for _, t := range body.Tools {
		size += len(t.Name) + len(t.Description) + len(t.InputSchema) + 48
	}
	w := &appendWriter{b: make([]byte, 0, size+len(cacheMember))}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(body); err != nil {
		return nil, fmt.Errorf("anthropic: encode request: %w", err)
	}
	w.b = bytes.TrimSuffix(w.b, []byte("}\n"))
	w.b = appendTools(w.b, body.Tools)
	w.b = append(w.b, `,"messages":`...)
	if err := enc.Encode(body.Messages); err != nil {
		return nil, fmt.Errorf("anthropic: encode messages: %w", err)
	}
	w.b = bytes.TrimSuffix(w.b, []byte("\n"))
	return append(w.b, '}'), nil
}

// appendWriter collects what an encoder writes into one slice, so the
// body is built in place rather than copied from buffer to buffer.
type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
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
