package tools

import (
	"fmt"
	"strings"
)

// The keywords that hold subschemas: properties (with required), items and
// the combinators, each normalised by the normaliser in turn.

// properties normalises "properties" and "required" into out and records
// whether the schema had properties.
func (n *normalizer) properties(s *shape) {
	required := n.requiredNames(s)
	pv, hasProps := s.in.get("properties")
	if !hasProps {
		if len(required) > 0 {
			n.warn(s.path, "dropped \"required\": there are no properties")
		}
		return
	}
	props, ok := pv.(*object)
	if !ok {
		n.warn(s.path, "dropped \"properties\": not an object")
		return
	}
	s.hasProps = true
	outProps := newObject(props.len())
	for _, name := range props.keys {
		if ps, ok := n.property(name, props.vals[name], s.path, required); ok {
			outProps.set(name, ps)
		}
	}
	for r := range required {
		if !outProps.has(r) {
			n.warn(s.path, "required property %q does not exist; dropped from \"required\"", r)
		}
	}
	s.out.set("properties", outProps)
	if req := orderedRequired(outProps, required); len(req) > 0 {
		s.out.set("required", req)
	}
}

// requiredNames reads "required" as a set of names.
func (n *normalizer) requiredNames(s *shape) map[string]bool {
	required := map[string]bool{}
	rv, ok := s.in.get("required")
	if !ok {
		return required
	}
	if arr, ok := rv.([]any); ok {
		for _, x := range arr {
			if name, ok := x.(string); ok {
				required[name] = true
			}
		}
	} else if rv != nil && rv != true && rv != false {
		n.warn(s.path, "dropped \"required\": not a list of names")
	}
	return required
}

// property normalises one property. A draft-03 "required": true inside it
// moves into required. An unsupported schema omits an optional property
// and declares a required one as a string.
func (n *normalizer) property(name string, child any, path string, required map[string]bool) (*object, bool) {
	cpath := path + "/properties/" + escapePointer(name)
	if co, ok := child.(*object); ok {
		if r, ok := co.get("required"); ok {
			if b, ok := r.(bool); ok { // draft-03
				if b {
					required[name] = true
				}
				co = co.clone()
				co.del("required")
				child = co
			}
		}
	}
	ps, ok := n.schema(child, cpath)
	if ok {
		return ps, true
	}
	if !required[name] {
		n.warn(cpath, "optional property with an unsupported schema omitted")
		return nil, false
	}
	n.warn(cpath, "required property with an unsupported schema declared as a string")
	ps = newObject(2)
	ps.set("type", "string")
	if co, ok := child.(*object); ok {
		if d, ok := co.str("description"); ok {
			ps.set("description", d)
		}
	}
	return ps, true
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// items normalises "items" (a draft-04 tuple reduced to its first schema)
// and records whether the schema had items.
func (n *normalizer) items(s *shape) {
	v, ok := s.in.get("items")
	if !ok {
		return
	}
	if arr, ok := v.([]any); ok { // draft-04 tuple form
		n.warn(s.path, "tuple \"items\" reduced to its first schema")
		if len(arr) == 0 {
			return
		}
		v = arr[0]
	}
	sub, ok := n.schema(v, s.path+"/items")
	if !ok {
		n.warn(s.path, "\"items\" with an unsupported schema declared as strings")
		sub = newObject(1)
		sub.set("type", "string")
	}
	s.out.set("items", sub)
	s.hasItems = true
}

// combinators normalises anyOf / oneOf / allOf.
func (n *normalizer) combinators(s *shape) {
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		v, ok := s.in.get(k)
		if !ok {
			continue
		}
		arr, ok := v.([]any)
		if !ok {
			n.warn(s.path, "dropped %q: not a list", k)
			continue
		}
		branches := n.branches(s, k, arr)
		switch {
		case len(branches) == 0:
		case !n.d.openAPI:
			s.out.set(k, branches)
		case k == "allOf" || len(branches) == 1:
			// SchemaOpenAPI: allOf and single branches are merged in.
			for _, b := range branches {
				mergeInto(s.out, b.(*object))
			}
		default: // SchemaOpenAPI: oneOf is anyOf.
			if prev, ok := s.out.get("anyOf"); ok {
				branches = append(prev.([]any), branches...)
			}
			s.out.set("anyOf", branches)
		}
	}
}

// branches normalises the branches of combinator k. For SchemaOpenAPI a
// null branch of anyOf or oneOf makes the schema nullable instead.
func (n *normalizer) branches(s *shape, k string, arr []any) []any {
	var out []any
	for i, b := range arr {
		bpath := fmt.Sprintf("%s/%s/%d", s.path, k, i)
		if n.d.openAPI && k != "allOf" && isNullSchema(b) {
			s.nullable = true
			continue
		}
		sub, ok := n.schema(b, bpath)
		if !ok {
			n.warn(bpath, "branch with an unsupported schema dropped")
			continue
		}
		out = append(out, sub)
	}
	return out
}

func isNullSchema(v any) bool {
	o, ok := v.(*object)
	if !ok || o.len() > 2 {
		return false
	}
	t, _ := o.str("type")
	return strings.EqualFold(t, "null") && (o.len() == 1 || o.has("description") || o.has("title"))
}

// mergeInto lays a normalised schema b into out: properties and required
// are unioned, other keywords fill only what out lacks.
func mergeInto(out, b *object) {
	for _, k := range b.keys {
		switch v := b.vals[k]; k {
		case "properties":
			mergeProperties(out, v.(*object))
		case "required":
			req := stringSet(out, "required")
			for r := range stringSet(b, "required") {
				req[r] = true
			}
			props, _ := out.get("properties")
			if po, ok := props.(*object); ok {
				if r := orderedRequired(po, req); len(r) > 0 {
					out.set("required", r)
				}
			}
		default:
			if !out.has(k) {
				out.set(k, v)
			}
		}
	}
}

// mergeProperties adds bp's properties that out lacks.
func mergeProperties(out, bp *object) {
	op, ok := out.get("properties")
	if !ok {
		out.set("properties", bp.clone())
		return
	}
	opo := op.(*object)
	for _, name := range bp.keys {
		if !opo.has(name) {
			opo.set(name, bp.vals[name])
		}
	}
}

// reorder writes keywords in keyOrder.
func reorder(o *object) *object {
	out := newObject(o.len())
	for _, k := range keyOrder {
		if v, ok := o.get(k); ok {
			out.set(k, v)
		}
	}
	for _, k := range o.keys { // anything keyOrder missed
		if !out.has(k) {
			out.set(k, o.vals[k])
		}
	}
	return out
}
