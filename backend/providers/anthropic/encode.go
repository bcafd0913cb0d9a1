package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"

	"maestro/backend/providers"
)

// encodeBody marshals a request body without HTML escaping, so prompts and
// tool results reach the model as written. The tools array is appended by
// hand after the other fields: with hundreds of tools, re-validating every
// schema inside encoding/json was most of the cost of a request
// (BenchmarkRender1000Tools).
func encodeBody(body *request) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(body); err != nil {
		return nil, fmt.Errorf("anthropic: encode request: %w", err)
	}
	out := bytes.TrimSuffix(buf.Bytes(), []byte("}\n"))
	if len(body.Tools) == 0 {
		return append(out, '}'), nil
	}
	size := len(out) + 16
	for _, t := range body.Tools {
		size += len(t.Name) + len(t.Description) + len(t.InputSchema) + 48
	}
	b := make([]byte, 0, size)
	b = append(b, out...)
	b = append(b, `,"tools":[`...)
	for i, t := range body.Tools {
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
		b = append(b, '}')
	}
	return append(b, "]}"...), nil
}
