package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"maestro/backend/chat"
)

// ArgumentsError lists what is wrong with a tool call's arguments, worded
// for the model to fix its next call. It is chat.ErrInvalid.
type ArgumentsError struct {
	Problems []string
}

func (e *ArgumentsError) Error() string {
	return "invalid arguments: " + strings.Join(e.Problems, "; ")
}

// Unwrap classifies the error as chat.ErrInvalid.
func (e *ArgumentsError) Unwrap() error { return chat.ErrInvalid }

// ValidateArguments checks a tool call's arguments against the tool's input
// schema before anything is sent to the server: the arguments must be a
// JSON object (empty input counts as {}), every required property must be
// there, top-level properties must have their declared type (and enum
// value), and when the schema closes the object (additionalProperties:
// false) no other property may appear. Nested values are left to the
// server. A schema that cannot be read is not enforced.
func ValidateArguments(schema json.RawMessage, args json.RawMessage) error {
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	av, err := decodeJSON(args)
	if err != nil {
		return &ArgumentsError{Problems: []string{fmt.Sprintf("the arguments are not valid JSON (%v); send one JSON object", err)}}
	}
	ao, ok := av.(*object)
	if !ok {
		return &ArgumentsError{Problems: []string{fmt.Sprintf("the arguments must be a JSON object, got %s", article(jsonKind(av)))}}
	}
	so := decodedSchema(schema)
	if so == nil {
		return nil
	}
	n := &normalizer{root: so}
	so = n.derefShallow(so)
	var props *object
	if pv, ok := so.get("properties"); ok {
		props, _ = pv.(*object)
	}

	var problems []string
	if rv, ok := so.get("required"); ok {
		arr, _ := rv.([]any)
		for _, x := range arr {
			name, ok := x.(string)
			if !ok || ao.has(name) {
				continue
			}
			msg := fmt.Sprintf("missing required property %q", name)
			if ps, ok := props.get(name); ok {
				if t := typeList(n, ps); len(t) > 0 {
					msg += " (" + strings.Join(t, " or ") + ")"
				}
			}
			problems = append(problems, msg)
		}
	}
	closed := false
	if ap, ok := so.get("additionalProperties"); ok && ap == false {
		closed = true
	}
	for _, name := range ao.keys {
		val := ao.vals[name]
		ps, ok := props.get(name)
		if !ok {
			if closed {
				problems = append(problems, fmt.Sprintf("unknown property %q (allowed: %s)", name, strings.Join(props.keysOrNone(), ", ")))
			}
			continue
		}
		if p := checkValue(n, name, ps, val); p != "" {
			problems = append(problems, p)
		}
	}
	if len(problems) > 0 {
		return &ArgumentsError{Problems: problems}
	}
	return nil
}

// schemaCache keeps decoded input schemas, by their bytes: every call of
// a tool validates against the same schema, and decoding it is most of the
// cost. Decoded schemas are never modified. The cache is dropped whole
// when it grows past maxCachedSchemas.
var schemaCache struct {
	sync.Mutex
	m map[string]*object
}

const maxCachedSchemas = 4096

// decodedSchema returns schema as an object, or nil when it is not one.
func decodedSchema(schema json.RawMessage) *object {
	schemaCache.Lock()
	so, ok := schemaCache.m[string(schema)]
	schemaCache.Unlock()
	if ok {
		return so
	}
	if sv, err := decodeJSON(schema); err == nil {
		so, _ = sv.(*object)
	}
	schemaCache.Lock()
	if schemaCache.m == nil || len(schemaCache.m) >= maxCachedSchemas {
		schemaCache.m = map[string]*object{}
	}
	schemaCache.m[string(schema)] = so
	schemaCache.Unlock()
	return so
}

func (o *object) keysOrNone() []string {
	if o == nil || o.len() == 0 {
		return []string{"none"}
	}
	return o.keys
}

// typeList returns the known JSON types a property schema allows, or nil
// when it cannot tell (no type, unknown types, unresolvable $ref).
func typeList(n *normalizer, ps any) []string {
	po, ok := ps.(*object)
	if !ok {
		return nil
	}
	po = n.derefShallow(po)
	var raw []any
	switch t := po.vals["type"].(type) {
	case string:
		raw = []any{t}
	case []any:
		raw = t
	}
	if raw == nil {
		// anyOf/oneOf of typed branches.
		for _, k := range []string{"anyOf", "oneOf"} {
			arr, ok := po.vals[k].([]any)
			if !ok {
				continue
			}
			var out []string
			for _, b := range arr {
				bt := typeList(n, b)
				if bt == nil {
					return nil
				}
				for _, t := range bt {
					if !slices.Contains(out, t) {
						out = append(out, t)
					}
				}
			}
			return out
		}
		return nil
	}
	var out []string
	for _, x := range raw {
		s, _ := x.(string)
		s = strings.ToLower(s)
		if a, ok := typeAliases[s]; ok {
			s = a
		}
		if !knownTypes[s] {
			return nil
		}
		out = append(out, s)
	}
	return out
}

// checkValue checks one top-level argument and returns a problem or "".
func checkValue(n *normalizer, name string, ps, val any) string {
	types := typeList(n, ps)
	if len(types) > 0 && !slices.ContainsFunc(types, func(t string) bool { return hasType(val, t) }) {
		msg := fmt.Sprintf("property %q must be %s, got %s", name, alternatives(types), article(jsonKind(val)))
		if val == nil {
			msg += " (leave it out instead)"
		}
		return msg
	}
	po, ok := ps.(*object)
	if !ok {
		return ""
	}
	po = n.derefShallow(po)
	enum, ok := po.vals["enum"].([]any)
	if !ok || len(enum) == 0 {
		return ""
	}
	got := plain(val)
	for _, e := range enum {
		if reflect.DeepEqual(plain(e), got) {
			return ""
		}
	}
	opts := make([]string, len(enum))
	for i, e := range enum {
		opts[i] = string(encodeJSON(e))
	}
	return fmt.Sprintf("property %q must be one of %s, got %s", name, strings.Join(opts, ", "), encodeJSON(val))
}

// plain converts a decoded value to encoding/json's generic form, so equal
// numbers written differently (1 and 1.0) compare equal.
func plain(v any) any {
	var out any
	_ = json.Unmarshal(encodeJSON(v), &out)
	return out
}

func hasType(v any, t string) bool {
	switch t {
	case "null":
		return v == nil
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "number":
		_, ok := v.(json.Number)
		return ok
	case "integer":
		n, ok := v.(json.Number)
		return ok && isInteger(n)
	case "array":
		_, ok := v.([]any)
		return ok
	case "object":
		_, ok := v.(*object)
		return ok
	}
	return true
}

func article(kind string) string {
	switch kind {
	case "null":
		return "null"
	case "array", "integer", "object":
		return "an " + kind
	default:
		return "a " + kind
	}
}

func alternatives(types []string) string {
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = article(t)
	}
	return strings.Join(parts, " or ")
}
