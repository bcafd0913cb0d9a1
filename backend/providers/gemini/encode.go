package gemini

import (
	"bytes"
	"encoding/json"

	"maestro/backend/providers"
)

// encodeBody returns the request body Stream sends for body, as rendered by
// Model.body: byte for byte what json.Marshal(body) returns, error included.
//
// json.Marshal re-validates and compacts every json.RawMessage, so with
// many tools it spent most of a request scanning schemas the registry had
// already compacted (BenchmarkRender1000Tools). Here the envelope and the
// tools are written by hand: a schema that providers.IsCompactJSON finds
// already in its encoded form is copied as it is. Everything else
// (contents, system instruction, generation config) still goes through
// encoding/json.
func encodeBody(body any) ([]byte, error) {
	e := newEncoder()
	var err error
	switch v := body.(type) {
	case *envelope:
		if v == nil {
			return json.Marshal(body)
		}
		e.grow(v.Request)
		err = e.envelope(v)
	case *generateRequest:
		e.grow(v)
		err = e.request(v)
	default:
		return json.Marshal(body)
	}
	if err != nil {
		return nil, err
	}
	return e.buf.Bytes(), nil
}

// encoder writes one request body into buf. Its methods mirror
// encoding/json's output for the wire types: fields in struct order,
// omitempty fields left out when empty, strings HTML-escaped.
type encoder struct {
	buf bytes.Buffer
	enc *json.Encoder // into buf, escaping HTML as json.Marshal does
}

func newEncoder() *encoder {
	e := &encoder{}
	e.enc = json.NewEncoder(&e.buf)
	return e
}

// grow reserves room for the declarations, most of a body with many
// tools, and a little for the rest, so that the buffer is seldom regrown.
func (e *encoder) grow(gr *generateRequest) {
	if gr == nil {
		return
	}
	n := 4096
	for _, t := range gr.Tools {
		for _, d := range t.FunctionDeclarations {
			n += len(d.Name) + len(d.Description) + len(d.ParametersJSONSchema) + 64
		}
	}
	e.buf.Grow(n)
}

// value writes v as json.Marshal would.
func (e *encoder) value(v any) error {
	if err := e.enc.Encode(v); err != nil {
		return err
	}
	e.buf.Truncate(e.buf.Len() - 1) // Encode ends every value with a newline
	return nil
}

func (e *encoder) string(s string) {
	e.buf.Write(providers.AppendJSONString(e.buf.AvailableBuffer(), s, true))
}

func (e *encoder) envelope(env *envelope) error {
	e.buf.WriteString(`{"model":`)
	e.string(env.Model)
	if env.Project != "" {
		e.buf.WriteString(`,"project":`)
		e.string(env.Project)
	}
	if env.UserPromptID != "" {
		e.buf.WriteString(`,"user_prompt_id":`)
		e.string(env.UserPromptID)
	}
	e.buf.WriteString(`,"request":`)
	if err := e.request(env.Request); err != nil {
		return err
	}
	e.buf.WriteByte('}')
	return nil
}

// request writes gr with its fields in struct order: the stable ones
// first, the contents last (see wire.go).
func (e *encoder) request(gr *generateRequest) error {
	if gr == nil {
		e.buf.WriteString("null")
		return nil
	}
	e.buf.WriteByte('{')
	if gr.SystemInstruction != nil {
		e.buf.WriteString(`"systemInstruction":`)
		if err := e.value(gr.SystemInstruction); err != nil {
			return err
		}
		e.buf.WriteByte(',')
	}
	if len(gr.Tools) > 0 {
		e.buf.WriteString(`"tools":`)
		if err := e.tools(gr.Tools); err != nil {
			return err
		}
		e.buf.WriteByte(',')
	}
	if gr.GenerationConfig != nil {
		e.buf.WriteString(`"generationConfig":`)
		if err := e.value(gr.GenerationConfig); err != nil {
			return err
		}
		e.buf.WriteByte(',')
	}
	if gr.SessionID != "" {
		e.buf.WriteString(`"session_id":`)
		e.string(gr.SessionID)
		e.buf.WriteByte(',')
	}
	e.buf.WriteString(`"contents":`)
	if err := e.value(gr.Contents); err != nil {
		return err
	}
	e.buf.WriteByte('}')
	return nil
}

func (e *encoder) tools(tools []tool) error {
	e.buf.WriteByte('[')
	for i, t := range tools {
		if i > 0 {
			e.buf.WriteByte(',')
		}
		e.buf.WriteByte('{')
		if len(t.FunctionDeclarations) > 0 {
			e.buf.WriteString(`"functionDeclarations":`)
			if err := e.declarations(t.FunctionDeclarations); err != nil {
				return err
			}
		}
		e.buf.WriteByte('}')
	}
	e.buf.WriteByte(']')
	return nil
}

func (e *encoder) declarations(decls []functionDeclaration) error {
	e.buf.WriteByte('[')
	for i, d := range decls {
		if i > 0 {
			e.buf.WriteByte(',')
		}
		e.buf.WriteString(`{"name":`)
		e.string(d.Name)
		if d.Description != "" {
			e.buf.WriteString(`,"description":`)
			e.string(d.Description)
		}
		if schema := d.ParametersJSONSchema; len(schema) > 0 {
			e.buf.WriteString(`,"parametersJsonSchema":`)
			if providers.IsCompactJSON(schema, true) {
				e.buf.Write(schema)
			} else {
				// Not compact, to be escaped, or invalid: encoding/json
				// rewrites it, or fails as json.Marshal(body) would.
				if err := e.value(schema); err != nil {
					return err
				}
			}
		}
		e.buf.WriteByte('}')
	}
	e.buf.WriteByte(']')
	return nil
}
