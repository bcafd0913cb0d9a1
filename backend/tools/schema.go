package tools

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"maestro/backend/chat"
)

// Schema normalisation: MCP servers describe their inputs with any JSON
// Schema their SDK emits (draft-07 from zod-to-json-schema, 2020-12 from
// pydantic, hand-written ones with mistakes). Each provider accepts a
// different subset and rejects the whole request (not only the tool) when
// one schema is outside it. Each adapter names its subset, a
// chat.SchemaDialect, in its ToolRules; NormalizeSchema rewrites a schema
// into that dialect and says what it changed. The rules and their sources:
//
// Every dialect
//   - The root must be {"type":"object", "properties": {…}}: OpenAI answers
//     "schema must be a JSON Schema of 'type: \"object\"'"; Anthropic
//     requires input_schema to be an object schema. A root without "type"
//     becomes an object; a root of another type is replaced by an empty
//     object schema.
//   - No anyOf / oneOf / allOf at the root. Anthropic: "input_schema does not
//     support oneOf, allOf, or anyOf at the top level" (anthropics/claude-code
//     #5973, #27337); OpenAI has the same restriction (anomalyco/opencode
//     #35516). Root branches are folded into the root: their properties are
//     added, and a property is required if every anyOf/oneOf branch requires
//     it (allOf: if any branch does).
//   - Local $refs (#/$defs/…, #/definitions/…, any #/json/pointer) are
//     inlined and $defs/definitions dropped; Gemini rejects them ("reference
//     to undefined schema", google-gemini/gemini-cli#13326; "$ref … was set
//     alongside unsupported fields", anomalyco/opencode#12295) and inlining
//     costs the others nothing. A recursive $ref is replaced by
//     {"type":"object"} (with a warning); so is expansion past maxRefDepth
//     nested refs or maxExpansions refs in one schema (exponential blow-up).
//   - $schema, $id, $comment, $anchor are dropped silently.
//   - "required": null or not an array → absent; names of properties that do
//     not exist are filtered out; duplicates removed; empty → absent. A
//     draft-03 "required": true inside a property moves to the parent.
//   - "type" arrays: "null" is removed (["string","null"] → "string"); for
//     SchemaOpenAPI "nullable": true is added. Type names are matched
//     case-insensitively ("STRING" → "string"), and the usual mistakes are
//     read as meant ("bool" → "boolean", "int" → "integer", "dict" → "object").
//   - Unknown or unsupported types (e.g. "any", "file", a non-local $ref, a
//     false schema): an optional property is omitted, a required one becomes
//     {"type":"string"}; a warning says which.
//   - Keyword values of the wrong JSON type (minLength: "3",
//     exclusiveMinimum: true) are dropped or converted: Anthropic checks
//     input_schema against the draft 2020-12 meta-schema ("JSON schema is
//     invalid. It must match JSON Schema draft 2020-12",
//     acomagu/vscode-as-mcp-server#6). Draft-04 boolean exclusiveMinimum /
//     exclusiveMaximum become the 2020-12 numeric form.
//   - "const" becomes "enum": [value] (Gemini's Schema has no const:
//     taylorwilsdon/google_workspace_mcp#1099; enum is accepted everywhere).
//   - Only known keywords are kept (see keepJSON / keepOpenAPI); the rest are
//     dropped with a warning.
//
// chat.SchemaJSON (Anthropic's input_schema)
//   - JSON Schema 2020-12 as above; nothing beyond the common rules.
//
// chat.SchemaJSONArrayItems (OpenAI's function "parameters", strict:false)
//   - Every array schema needs "items"; a missing items becomes {} (any).
//     The sources are in backend/providers/openai/dialect.go.
//
// chat.SchemaOpenAPI (Gemini's functionDeclarations[].parametersJsonSchema,
// as gemini-cli sends, docs/providers/gemini.md §Tool schemas). The backend
// maps the JSON Schema onto its OpenAPI-style Schema proto
// (ai.google.dev/api/caching#Schema), so we keep to what that proto can
// hold:
//   - one "type" per schema ("Proto field is not repeating",
//     google_workspace_mcp#1099): type lists with several non-null types are
//     narrowed to the first, with a warning; null becomes "nullable": true;
//   - every schema has a type, or is an anyOf of typed branches (`Invalid
//     value at '…any_of[0].type' … ""`, zereight/gitlab-mcp#166): schemas
//     with no type that none can be inferred for are treated as unsupported
//     (omitted / string, as above);
//   - "format" only where the proto documents it: string: enum, date-time;
//     number: float, double; integer: int32, int64 (CherryHQ/cherry-studio
//     #4153 quoting the Schema docs);
//   - "enum" only with all-string or all-number values;
//   - oneOf becomes anyOf; allOf is merged into the schema; null branches of
//     anyOf become nullable; a single remaining branch is merged in;
//   - kept: type, format, title, description, nullable, enum, properties,
//     required, additionalProperties, items, minItems, maxItems, minimum,
//     maximum, minLength, maxLength, pattern, anyOf. Dropped: default,
//     examples, multipleOf, uniqueItems, min/maxProperties; numeric
//     exclusive bounds become the (slightly looser) inclusive ones.
//
// The normaliser never fails: input that is not JSON, or not an object,
// yields the empty object schema and a warning.

const (
	maxRefDepth   = 12
	maxExpansions = 500
)

// dialect is what a chat.SchemaDialect changes in the normaliser.
type dialect struct {
	// keep lists the keywords the dialect takes; the others are dropped
	// with a warning (silentDrop without one).
	keep map[string]bool
	// openAPI: one type per schema, nullable for null, anyOf only (oneOf
	// becomes anyOf, allOf is merged in), formats and enums only where the
	// Schema proto takes them, no true schema, inclusive bounds only.
	openAPI bool
	// arrayItems: every array schema has "items".
	arrayItems bool
}

// dialectOf returns d's rules; an unknown dialect gets
// SchemaJSONArrayItems, the strictest of the JSON Schema ones.
func dialectOf(d chat.SchemaDialect) dialect {
	switch d {
	case chat.SchemaJSON:
		return dialect{keep: keepJSON}
	case chat.SchemaOpenAPI:
		return dialect{keep: keepOpenAPI, openAPI: true}
	}
	return dialect{keep: keepJSON, arrayItems: true}
}

// Keyword sets. Keys not listed in a dialect's set are dropped with a
// warning, except the silent ones.
var (
	silentDrop = set("$schema", "$id", "$comment", "$anchor", "$defs", "definitions", "$ref", "const", "nullable")
	keepJSON   = set("type", "title", "description", "enum", "default", "examples", "format",
		"pattern", "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
		"multipleOf", "items", "minItems", "maxItems", "uniqueItems", "properties", "required",
		"additionalProperties", "minProperties", "maxProperties", "anyOf", "oneOf", "allOf")
	keepOpenAPI = set("type", "title", "description", "enum", "format", "pattern", "minLength", "maxLength",
		"minimum", "maximum", "items", "minItems", "maxItems", "properties", "required",
		"additionalProperties", "anyOf", "oneOf", "allOf")
	knownTypes = set("string", "number", "integer", "boolean", "object", "array", "null")
	// typeAliases are type names that hand-written schemas use by mistake.
	typeAliases = map[string]string{"bool": "boolean", "int": "integer", "float": "number", "double": "number",
		"str": "string", "dict": "object", "map": "object", "list": "array"}
	// openAPIFormats are the formats the Schema proto documents, by type.
	openAPIFormats = map[string]map[string]bool{
		"string":  set("enum", "date-time"),
		"number":  set("float", "double"),
		"integer": set("int32", "int64"),
	}
	// keyOrder is the order keywords are written in; properties keep the
	// server's order.
	keyOrder = []string{"type", "nullable", "title", "description", "enum", "format", "default", "examples",
		"pattern", "minLength", "maxLength", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum",
		"multipleOf", "items", "minItems", "maxItems", "uniqueItems", "properties", "required",
		"additionalProperties", "minProperties", "maxProperties", "anyOf", "oneOf", "allOf"}
)

func set(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// emptyObjectSchema is the schema of a tool without parameters.
const emptyObjectSchema = `{"type":"object","properties":{}}`

// NormalizeSchema rewrites a tool's input schema into dialect d (see the
// rules above) and returns the schema with warnings for everything it
// dropped or changed. An unknown dialect gets SchemaJSONArrayItems.
func NormalizeSchema(d chat.SchemaDialect, raw json.RawMessage) (json.RawMessage, []string) {
	v, err := decodeJSON(raw)
	if err != nil {
		return json.RawMessage(emptyObjectSchema), []string{fmt.Sprintf("#: the schema is not valid JSON (%v); declared without parameters", err)}
	}
	out, warns := normalizeTree(d, v)
	return encodeJSON(out), warns
}

// normalizeTree is NormalizeSchema on a decoded value; the value is not
// modified, so one decode serves every provider.
func normalizeTree(d chat.SchemaDialect, root any) (*object, []string) {
	n := &normalizer{d: dialectOf(d)}
	ro, ok := root.(*object)
	if !ok {
		n.warn("#", "the schema is %s, not an object; declared without parameters", jsonKind(root))
		return emptyRoot(), n.warns
	}
	n.root = ro
	return n.rootSchema(ro), n.warns
}

func emptyRoot() *object {
	o := newObject(2)
	o.set("type", "object")
	o.set("properties", newObject(0))
	return o
}

type normalizer struct {
	d          dialect
	root       *object
	refs       []string // the $refs being expanded, innermost last
	expansions int
	warns      []string
}

func (n *normalizer) warn(path, format string, args ...any) {
	w := path + ": " + fmt.Sprintf(format, args...)
	if !slices.Contains(n.warns, w) {
		n.warns = append(n.warns, w)
	}
}

// rootSchema normalises the root: $ref resolved, combinators folded in,
// type forced to object, properties present.
func (n *normalizer) rootSchema(o *object) *object {
	const path = "#"
	o = n.derefShallow(o)
	combos := map[string][]any{}
	if hasAny(o, "anyOf", "oneOf", "allOf") {
		o = o.clone()
		for _, k := range []string{"allOf", "anyOf", "oneOf"} {
			if v, ok := o.get(k); ok {
				if arr, ok := v.([]any); ok {
					combos[k] = arr
				}
				o.del(k)
				n.warn(path, "%s at the root is not accepted by the providers; folded into the root object", k)
			}
		}
	}
	if t, ok := o.get("type"); !ok || t == "" {
		// MCP servers often omit the root type; it can only be object.
		o = o.clone()
		o.set("type", "object")
	}
	out, ok := n.schema(o, path)
	if !ok {
		out = emptyRoot()
	}
	if len(combos) > 0 {
		n.foldRootCombos(out, combos)
	}
	switch typ, _ := out.get("type"); t := typ.(type) {
	case string:
		if t != "object" {
			n.warn(path, "the root schema has type %q, not object; declared without parameters", t)
			return emptyRoot()
		}
	case []any:
		if !slices.Contains(t, any("object")) {
			n.warn(path, "the root schema has type %s, not object; declared without parameters", encodeJSON(t))
			return emptyRoot()
		}
	}
	out.set("type", "object")
	out.del("nullable")
	if !out.has("properties") {
		out.set("properties", newObject(0))
	}
	return reorder(out)
}

// derefShallow follows $refs at the top of o (not below it).
func (n *normalizer) derefShallow(o *object) *object {
	for range maxRefDepth {
		ref, ok := o.str("$ref")
		if !ok {
			return o
		}
		target, ok := n.resolve(ref)
		tobj, isObj := target.(*object)
		if !ok || !isObj || tobj == o {
			return o // schema() reports it
		}
		o = mergeRef(tobj, o)
	}
	return o
}

func hasAny(o *object, keys ...string) bool {
	for _, k := range keys {
		if o.has(k) {
			return true
		}
	}
	return false
}

// foldRootCombos merges root-level combinator branches into the root:
// their properties are added (the root's own win), and a property becomes
// required if an allOf branch or every anyOf/oneOf branch requires it.
// Branches are often bare {"required": [...]} constraints, so "required" is
// read from the branch as written.
func (n *normalizer) foldRootCombos(out *object, combos map[string][]any) {
	props, _ := out.get("properties")
	po, ok := props.(*object)
	if !ok {
		po = newObject(4)
	}
	required := stringSet(out, "required")
	var anyReq map[string]bool // required by every anyOf/oneOf branch so far
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		for i, b := range combos[k] {
			bo, ok := b.(*object)
			if !ok {
				continue
			}
			bo = n.derefShallow(bo)
			if bo.has("properties") {
				if norm, ok := n.schema(bo, fmt.Sprintf("#/%s/%d", k, i)); ok {
					if bp, ok := norm.get("properties"); ok {
						bpo := bp.(*object)
						for _, name := range bpo.keys {
							if !po.has(name) {
								po.set(name, bpo.vals[name])
							}
						}
					}
				}
			}
			breq := stringSet(bo, "required")
			if k == "allOf" {
				for r := range breq {
					required[r] = true
				}
				continue
			}
			if anyReq == nil {
				anyReq = breq
				continue
			}
			for r := range anyReq {
				if !breq[r] {
					delete(anyReq, r)
				}
			}
		}
	}
	for r := range anyReq {
		required[r] = true
	}
	out.set("properties", po)
	out.del("required")
	if req := orderedRequired(po, required); len(req) > 0 {
		out.set("required", req)
	}
}

func stringSet(o *object, key string) map[string]bool {
	m := map[string]bool{}
	v, _ := o.get(key)
	arr, _ := v.([]any)
	for _, x := range arr {
		if s, ok := x.(string); ok {
			m[s] = true
		}
	}
	return m
}

// orderedRequired lists the required names in property order.
func orderedRequired(props *object, required map[string]bool) []any {
	var out []any
	for _, k := range props.keys {
		if required[k] {
			out = append(out, k)
		}
	}
	return out
}

// resolve follows a local JSON pointer ("#", "#/$defs/X", "#/a/b~1c").
func (n *normalizer) resolve(ref string) (any, bool) {
	if ref == "#" {
		return n.root, true
	}
	if !strings.HasPrefix(ref, "#/") {
		return nil, false
	}
	var cur any = n.root
	for _, tok := range strings.Split(ref[2:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case *object:
			v, ok := c.get(tok)
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// mergeRef is the target of a $ref with the referring schema's other
// keywords laid over it (2019-09+ semantics, and what "description next to
// $ref" means in practice).
func mergeRef(target, sib *object) *object {
	m := target.clone()
	for _, k := range sib.keys {
		if k == "$ref" {
			continue
		}
		m.set(k, sib.vals[k])
	}
	m.del("$ref")
	return m
}

// schema normalises one schema. ok is false when the schema is unknown or
// unsupported; the caller then omits it or substitutes a string.
func (n *normalizer) schema(v any, path string) (*object, bool) {
	switch t := v.(type) {
	case bool:
		if t && !n.d.openAPI {
			return newObject(0), true // true: anything
		}
		n.warn(path, "the schema %v is not supported", t)
		return nil, false
	case *object:
		return n.objectSchema(t, path)
	default:
		n.warn(path, "the schema is %s, not an object", jsonKind(v))
		return nil, false
	}
}

// refSchema expands a $ref.
func (n *normalizer) refSchema(o *object, ref, path string) (*object, bool) {
	sib := o.clone()
	sib.del("$ref")
	if slices.Contains(n.refs, ref) || len(n.refs) >= maxRefDepth || n.expansions >= maxExpansions {
		if slices.Contains(n.refs, ref) {
			n.warn(path, "recursive $ref %q replaced by {\"type\":\"object\"}", ref)
		} else {
			n.warn(path, "$ref %q nested too deeply; replaced by {\"type\":\"object\"}", ref)
		}
		out := newObject(2)
		out.set("type", "object")
		if d, ok := sib.str("description"); ok {
			out.set("description", d)
		}
		return out, true
	}
	target, ok := n.resolve(ref)
	if !ok {
		n.warn(path, "cannot resolve $ref %q", ref)
		if sib.len() == 0 || !hasAny(sib, "type", "properties", "items", "enum", "const", "anyOf", "oneOf", "allOf") {
			return nil, false
		}
		return n.objectSchema(sib, path)
	}
	var merged *object
	switch t := target.(type) {
	case *object:
		merged = mergeRef(t, sib)
	case bool:
		if !t {
			n.warn(path, "$ref %q points at the false schema", ref)
			return nil, false
		}
		merged = sib
	default:
		n.warn(path, "$ref %q does not point at a schema", ref)
		return nil, false
	}
	n.refs = append(n.refs, ref)
	n.expansions++
	out, ok := n.objectSchema(merged, path)
	n.refs = n.refs[:len(n.refs)-1]
	return out, ok
}
