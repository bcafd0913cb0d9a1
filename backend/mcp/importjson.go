package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// The importer reads files written by hand and by other apps, so it reads
// JSON value by value: an object keeps its keys in file order (the report
// lists entries, ignored keys and notes in that order), and a value of the
// wrong kind is named in the reason an entry is skipped.

// jsonObject is one object of an imported file, its keys in file order. A
// repeated key keeps its first place and its last value.
type jsonObject struct {
	keys []string
	vals map[string]json.RawMessage
}

// decodeFile reads data as one JSON value.
func decodeFile(data []byte) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

// objectOf reads raw, a valid JSON value, as an object; ok is false for
// any other value.
func objectOf(raw json.RawMessage) (jsonObject, bool) {
	if jsonKindOf(raw) != "object" {
		return jsonObject{}, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	o := jsonObject{vals: map[string]json.RawMessage{}}
	if _, err := dec.Token(); err != nil { // '{'
		return jsonObject{}, false
	}
	for dec.More() {
		kt, err := dec.Token()
		k, isKey := kt.(string)
		var v json.RawMessage
		if err != nil || !isKey || dec.Decode(&v) != nil {
			return jsonObject{}, false
		}
		if _, seen := o.vals[k]; !seen {
			o.keys = append(o.keys, k)
		}
		o.vals[k] = v
	}
	return o, true
}

func (o jsonObject) has(k string) bool {
	_, ok := o.vals[k]
	return ok
}

// str returns the string at k; ok is false when there is none or the value
// is not a string.
func (o jsonObject) str(k string) (string, bool) {
	v, ok := o.vals[k]
	if !ok || jsonKindOf(v) != "string" {
		return "", false
	}
	var s string
	return s, json.Unmarshal(v, &s) == nil
}

// present reports whether k holds a value other than null.
func (o jsonObject) present(k string) bool {
	v, ok := o.vals[k]
	return ok && jsonKindOf(v) != "null"
}

// jsonKindOf names the JSON type of a valid value, for messages: object,
// array, string, boolean, null, integer or number.
func jsonKindOf(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "null"
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	n := json.Number(raw)
	if _, err := n.Int64(); err == nil {
		return "integer"
	}
	if f, err := n.Float64(); err == nil && f == float64(int64(f)) {
		return "integer" // 1.0 counts, as in JSON Schema
	}
	return "number"
}

// aKind names the JSON type of a valid value with its article, for
// messages: "an object", "a string", "null".
func aKind(raw json.RawMessage) string {
	return withArticle[jsonKindOf(raw)]
}

var withArticle = map[string]string{"object": "an object", "array": "an array", "string": "a string",
	"boolean": "a boolean", "null": "null", "integer": "an integer", "number": "a number"}

// scalarString is a string, number or boolean as text: numbers as written,
// booleans as true or false.
func scalarString(raw json.RawMessage) (string, bool) {
	switch jsonKindOf(raw) {
	case "string":
		var s string
		return s, json.Unmarshal(raw, &s) == nil
	case "integer", "number", "boolean":
		return string(bytes.TrimSpace(raw)), true
	}
	return "", false
}
