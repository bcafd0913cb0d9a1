package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// This file holds a tiny JSON value model that keeps object key order.
// encoding/json decodes objects into Go maps and loses the order a server
// wrote its properties in; that order is what a model reads as "the natural
// order of the parameters" (and what call signatures show), so schemas are
// decoded into *object instead.
//
// Values are: nil, bool, string, json.Number, []any and *object.

// object is a JSON object that remembers key order.
type object struct {
	keys []string
	vals map[string]any
}

func newObject(capacity int) *object {
	return &object{keys: make([]string, 0, capacity), vals: make(map[string]any, capacity)}
}

func (o *object) len() int { return len(o.keys) }

func (o *object) get(k string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[k]
	return v, ok
}

func (o *object) has(k string) bool {
	_, ok := o.get(k)
	return ok
}

// set stores v at k, appending k if it is new.
func (o *object) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *object) del(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, key := range o.keys {
		if key == k {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			break
		}
	}
}

// clone copies the key list and the map; values are shared.
func (o *object) clone() *object {
	c := newObject(o.len())
	for _, k := range o.keys {
		c.set(k, o.vals[k])
	}
	return c
}

func (o *object) str(k string) (string, bool) {
	v, ok := o.get(k)
	if !ok {
		return "", false
	}
	s, ok := v.(string)
	return s, ok
}

// decodeJSON parses one JSON value. Numbers stay json.Number so they are
// written back exactly as the server sent them.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil // string, json.Number, bool or nil
	}
	switch d {
	case '{':
		o := newObject(4)
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, ok := kt.(string)
			if !ok {
				return nil, fmt.Errorf("object key is %T, not a string", kt)
			}
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			o.set(k, v)
		}
		if _, err := dec.Token(); err != nil { // '}'
			return nil, err
		}
		return o, nil
	case '[':
		arr := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		if _, err := dec.Token(); err != nil { // ']'
			return nil, err
		}
		return arr, nil
	default:
		return nil, fmt.Errorf("unexpected delimiter %q", d)
	}
}

// encodeJSON writes v compactly, keeping object key order.
func encodeJSON(v any) []byte {
	return appendJSON(make([]byte, 0, 256), v)
}

func appendJSON(b []byte, v any) []byte {
	switch t := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, t)
	case string:
		return appendString(b, t)
	case json.Number:
		if t == "" {
			return append(b, '0')
		}
		return append(b, t...)
	case int:
		return strconv.AppendInt(b, int64(t), 10)
	case []any:
		b = append(b, '[')
		for i, e := range t {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(b, e)
		}
		return append(b, ']')
	case []string:
		b = append(b, '[')
		for i, e := range t {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, e)
		}
		return append(b, ']')
	case *object:
		b = append(b, '{')
		for i, k := range t.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			b = appendJSON(b, t.vals[k])
		}
		return append(b, '}')
	case json.RawMessage:
		if len(t) == 0 {
			return append(b, "null"...)
		}
		return append(b, t...)
	default:
		// Not produced by this package; fall back to encoding/json.
		raw, err := json.Marshal(t)
		if err != nil {
			return append(b, "null"...)
		}
		return append(b, raw...)
	}
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string. Unlike encoding/json it leaves
// <, > and & alone (these schemas are never embedded in HTML); invalid UTF-8
// becomes U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// jsonKind names the JSON type of a decoded value, for messages.
func jsonKind(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if isInteger(t) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case *object:
		return "object"
	default:
		return fmt.Sprintf("%T", v)
	}
}

// isInteger reports whether n has no fractional part (1.0 counts, as in
// JSON Schema).
func isInteger(n json.Number) bool {
	if _, err := n.Int64(); err == nil {
		return true
	}
	f, err := n.Float64()
	if err != nil {
		return false
	}
	return f == float64(int64(f))
}
