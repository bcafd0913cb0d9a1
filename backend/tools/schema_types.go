package tools

import (
	"encoding/json"
	"slices"
	"strings"
)

// Settling a schema's type: "type" read and checked, a missing type
// inferred, and what the dialect asks of the type (one type, a format and
// an enum that fit it).

// inferType fills in a missing type: object for properties, array for
// items, the enum values' type, or a type merged in from a branch.
func (s *shape) inferType() {
	if len(s.types) == 0 && !s.hadType {
		switch {
		case s.hasProps:
			s.types = []string{"object"}
		case s.hasItems:
			s.types = []string{"array"}
		}
	}
	if len(s.types) == 0 && s.out.has("enum") {
		s.types = enumTypes(s.out)
	}
	if t, ok := s.out.str("type"); ok && len(s.types) == 0 { // merged in from a branch
		s.types = []string{t}
	}
}

// openAPIType narrows the type to one, as the Schema proto holds it, and
// reports false for a schema it cannot type: only null, or no type and no
// anyOf.
func (n *normalizer) openAPIType(s *shape) bool {
	if len(s.types) > 1 {
		n.warn(s.path, "type %v narrowed to %q: Gemini takes one type per schema", s.types, s.types[0])
		s.types = s.types[:1]
	}
	if len(s.types) == 1 && s.types[0] == "null" {
		return false
	}
	if len(s.types) == 0 && !s.out.has("anyOf") {
		if !s.hadType {
			n.warn(s.path, "no type given")
		}
		return false
	}
	return true
}

func (s *shape) writeType() {
	switch len(s.types) {
	case 0:
	case 1:
		s.out.set("type", s.types[0])
	default:
		arr := make([]any, len(s.types))
		for i, t := range s.types {
			arr[i] = t
		}
		s.out.set("type", arr)
	}
}

// dialectKeywords writes what depends on the settled type: nullable,
// format and enum for SchemaOpenAPI, format as given otherwise, and the
// items every array needs in SchemaJSONArrayItems.
func (n *normalizer) dialectKeywords(s *shape) {
	if n.d.openAPI {
		if s.nullable {
			s.out.set("nullable", true)
		}
		n.openAPIFormat(s)
		n.openAPIEnum(s)
	} else if f, ok := s.in.str("format"); ok {
		s.out.set("format", f)
	}
	if n.d.arrayItems && slices.Contains(s.types, "array") && !s.out.has("items") {
		s.out.set("items", newObject(0))
	}
}

// types reads "type": known types lowercased and de-duplicated, null split
// out. hadType reports that a type was given (so an empty list means every
// type was unknown).
func (n *normalizer) types(o *object, path string) (types []string, nullable, hadType bool) {
	raw, ok := n.typeValues(o, path)
	if !ok {
		return nil, false, false
	}
	hadType = len(raw) > 0
	onlyNull := true
	for _, x := range raw {
		s, known := n.typeName(x, path)
		switch {
		case !known:
			onlyNull = false
		case s == "null":
			nullable = true
		default:
			onlyNull = false
			if !slices.Contains(types, s) {
				types = append(types, s)
			}
		}
	}
	if nullable && onlyNull && len(types) == 0 && !n.d.openAPI {
		// {"type":"null"} is legal JSON Schema for OpenAI and Anthropic.
		return []string{"null"}, false, true
	}
	return types, nullable, hadType
}

// typeValues returns "type" as a list; ok is false when there is none to
// read.
func (n *normalizer) typeValues(o *object, path string) ([]any, bool) {
	v, ok := o.get("type")
	if !ok {
		return nil, false
	}
	switch t := v.(type) {
	case string:
		if t == "" {
			return nil, false
		}
		return []any{t}, true
	case []any:
		return t, true
	}
	n.warn(path, "dropped \"type\": not a string or a list")
	return nil, false
}

// typeName reads one type name, lowercased and with aliases resolved, and
// whether it is a known type.
func (n *normalizer) typeName(x any, path string) (string, bool) {
	s, _ := x.(string)
	s = strings.ToLower(s)
	if a, ok := typeAliases[s]; ok {
		n.warn(path, "type %q read as %q", s, a)
		s = a
	}
	if !knownTypes[s] {
		n.warn(path, "unknown type %s", string(encodeJSON(x)))
		return "", false
	}
	return s, true
}

// enum keeps "enum" (or "const" as a one-value enum); a null value makes
// the schema nullable instead, unless null is one of its types.
func (n *normalizer) enum(s *shape) {
	var vals []any
	if v, ok := s.in.get("enum"); ok {
		arr, ok := v.([]any)
		if !ok {
			n.warn(s.path, "dropped \"enum\": not an array")
			return
		}
		vals = arr
	} else if v, ok := s.in.get("const"); ok {
		vals = []any{v}
	} else {
		return
	}
	var kept []any
	for _, x := range vals {
		if x == nil && !slices.Contains(s.types, "null") {
			s.nullable = true
			continue
		}
		kept = append(kept, x)
	}
	if len(kept) == 0 {
		n.warn(s.path, "dropped an empty \"enum\"")
		return
	}
	s.out.set("enum", kept)
}

// enumTypes infers a type from enum values: all strings → string, all
// numbers → number (integer when all are integers).
func enumTypes(out *object) []string {
	v, _ := out.get("enum")
	arr, _ := v.([]any)
	kind := ""
	for _, x := range arr {
		k := jsonKind(x)
		if k == "integer" && kind == "number" || k == "number" && kind == "integer" {
			k = "number"
		}
		if kind != "" && k != kind {
			return nil
		}
		kind = k
	}
	switch kind {
	case "string", "number", "integer", "boolean":
		return []string{kind}
	}
	return nil
}

// openAPIEnum keeps enums of all-string or all-number values only.
func (n *normalizer) openAPIEnum(s *shape) {
	v, ok := s.out.get("enum")
	if !ok {
		return
	}
	allStr, allNum := true, true
	for _, x := range v.([]any) {
		switch x.(type) {
		case string:
			allNum = false
		case json.Number:
			allStr = false
		default:
			allStr, allNum = false, false
		}
	}
	types := s.types
	switch {
	case allStr && (len(types) == 0 || types[0] == "string"):
	case allNum && len(types) == 1 && (types[0] == "number" || types[0] == "integer"):
	default:
		n.warn(s.path, "dropped \"enum\": Gemini takes enums of strings or numbers matching the type")
		s.out.del("enum")
	}
}

func (n *normalizer) openAPIFormat(s *shape) {
	f, ok := s.in.str("format")
	if !ok {
		return
	}
	if len(s.types) == 1 && openAPIFormats[s.types[0]][f] {
		s.out.set("format", f)
		return
	}
	n.warn(s.path, "dropped format %q: Gemini does not support it here", f)
}
