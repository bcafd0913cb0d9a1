package tools

import (
	"encoding/json"
	"strings"
)

// shape is one schema being normalised: the schema as given, the output
// being built, and what the keyword rules learnt about its type.
type shape struct {
	in, out *object
	path    string
	// types are the known types given (null split out into nullable);
	// hadType says a "type" was given at all.
	types    []string
	nullable bool
	hadType  bool
	// hasProps and hasItems say the schema had properties or items, from
	// which a missing type is inferred.
	hasProps, hasItems bool
}

// keywordRules build a schema's output, one group of keywords each, in this
// order (which is also the order of their warnings). Each reads its
// keywords from in and writes to out what the dialect takes. The table is
// filled in init because the rules for subschemas recurse into
// objectSchema, which reads it.
var keywordRules []func(*normalizer, *shape)

func init() {
	keywordRules = []func(*normalizer, *shape){
		(*normalizer).unsupportedKeywords,
		(*normalizer).stringKeywords,
		(*normalizer).enum,
		(*normalizer).countKeywords,
		(*normalizer).boundKeywords,
		(*normalizer).exclusiveBounds,
		(*normalizer).multipleOf,
		(*normalizer).uniqueItems,
		(*normalizer).annotationKeywords,
		(*normalizer).properties,
		(*normalizer).additionalProperties,
		(*normalizer).items,
		(*normalizer).combinators,
	}
}

// objectSchema normalises a schema object: its $ref expanded, its keywords
// kept, converted or dropped by keywordRules, then its type settled. ok is
// false when the schema is unknown or unsupported.
func (n *normalizer) objectSchema(o *object, path string) (*object, bool) {
	if ref, ok := o.str("$ref"); ok {
		return n.refSchema(o, ref, path)
	}
	s := &shape{in: o, out: newObject(o.len() + 1), path: path}
	s.types, s.nullable, s.hadType = n.types(o, path)
	if s.hadType && len(s.types) == 0 && !s.nullable {
		return nil, false // only unknown types
	}
	if b, ok := o.get("nullable"); ok && b == true {
		s.nullable = true
	}
	for _, rule := range keywordRules {
		rule(n, s)
	}
	s.inferType()
	if n.d.openAPI && !n.openAPIType(s) {
		return nil, false
	}
	s.writeType()
	n.dialectKeywords(s)
	return reorder(s.out), true
}

// unsupportedKeywords warns about the keywords the dialect does not take.
func (n *normalizer) unsupportedKeywords(s *shape) {
	for _, k := range s.in.keys {
		if !n.d.keep[k] && !silentDrop[k] && !(n.d.openAPI && strings.HasPrefix(k, "exclusiveM")) {
			n.warn(s.path, "dropped unsupported keyword %q", k)
		}
	}
}

func (n *normalizer) stringKeywords(s *shape) {
	for _, k := range []string{"title", "description", "pattern"} {
		if v, ok := s.in.str(k); ok {
			s.out.set(k, v)
		} else if s.in.has(k) {
			n.warn(s.path, "dropped %q: not a string", k)
		}
	}
}

// countKeywords keeps the length and count bounds that are non-negative
// integers.
func (n *normalizer) countKeywords(s *shape) {
	for _, k := range []string{"minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"} {
		v, ok := s.in.get(k)
		if !ok || !n.d.keep[k] {
			continue
		}
		if num, ok := v.(json.Number); ok && isInteger(num) && !strings.HasPrefix(string(num), "-") {
			s.out.set(k, num)
		} else {
			n.warn(s.path, "dropped %q: not a non-negative integer", k)
		}
	}
}

func (n *normalizer) boundKeywords(s *shape) {
	for _, k := range []string{"minimum", "maximum"} {
		if v, ok := s.in.get(k); ok {
			if num, ok := v.(json.Number); ok {
				s.out.set(k, num)
			} else {
				n.warn(s.path, "dropped %q: not a number", k)
			}
		}
	}
}

func (n *normalizer) multipleOf(s *shape) {
	v, ok := s.in.get("multipleOf")
	if !ok || !n.d.keep["multipleOf"] {
		return
	}
	if num, ok := v.(json.Number); ok && !strings.HasPrefix(string(num), "-") && strings.Trim(string(num), "0.") != "" {
		s.out.set("multipleOf", num)
	} else {
		n.warn(s.path, "dropped \"multipleOf\": not a positive number")
	}
}

func (n *normalizer) uniqueItems(s *shape) {
	v, ok := s.in.get("uniqueItems")
	if !ok || !n.d.keep["uniqueItems"] {
		return
	}
	if b, ok := v.(bool); ok {
		s.out.set("uniqueItems", b)
	} else {
		n.warn(s.path, "dropped \"uniqueItems\": not a boolean")
	}
}

// annotationKeywords keeps default and examples where the dialect has
// them.
func (n *normalizer) annotationKeywords(s *shape) {
	if n.d.openAPI {
		return
	}
	if v, ok := s.in.get("default"); ok {
		s.out.set("default", v)
	}
	if v, ok := s.in.get("examples"); ok {
		if _, ok := v.([]any); ok {
			s.out.set("examples", v)
		} else {
			n.warn(s.path, "dropped \"examples\": not an array")
		}
	}
}

func (n *normalizer) additionalProperties(s *shape) {
	v, ok := s.in.get("additionalProperties")
	if !ok {
		return
	}
	if ap, ok := v.(bool); ok {
		s.out.set("additionalProperties", ap)
		return
	}
	if sub, ok := n.schema(v, s.path+"/additionalProperties"); ok {
		s.out.set("additionalProperties", sub)
	} else {
		n.warn(s.path, "dropped \"additionalProperties\": unsupported schema")
	}
}

// exclusiveBounds keeps 2020-12 numeric exclusive bounds and converts
// draft-04 booleans; SchemaOpenAPI has neither.
func (n *normalizer) exclusiveBounds(s *shape) {
	for _, p := range [][2]string{{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}} {
		v, ok := s.in.get(p[0])
		if !ok {
			continue
		}
		if n.d.openAPI {
			if num, ok := v.(json.Number); ok && !s.out.has(p[1]) {
				s.out.set(p[1], num) // a slightly looser bound beats none
			}
			continue
		}
		switch t := v.(type) {
		case json.Number:
			s.out.set(p[0], t)
		case bool:
			if bound, ok := s.out.get(p[1]); ok && t {
				s.out.set(p[0], bound)
				s.out.del(p[1])
			}
		default:
			n.warn(s.path, "dropped %q: not a number", p[0])
		}
	}
}
