package mcp

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
// one schema is outside it. NormalizeSchema rewrites a schema into what the
// provider accepts and says what it changed. The rules and their sources:
//
// All providers
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
//     Gemini "nullable": true is added. Type names are matched
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
//   - Only known keywords are kept (see keepOpen / keepGemini); the rest are
//     dropped with a warning.
//
// OpenAI (Responses / Chat Completions function "parameters", strict:false)
//   - Every array schema needs "items": "array schema missing items" (e.g.
//     sigoden/aichat#1049, mark3labs/mcphost#35, also for type lists that
//     contain "array": tidewave-ai/tidewave_phoenix#224). A missing items
//     becomes {} (any), which OpenAI accepts (langchain4j/langchain4j#3452
//     verified it in an integration test).
//
// Anthropic (input_schema)
//   - JSON Schema 2020-12 as above; nothing beyond the common rules.
//
// Gemini (functionDeclarations[].parametersJsonSchema, as gemini-cli sends,
// docs/providers/gemini.md §Tool schemas). The backend maps the JSON Schema
// onto its OpenAPI-style Schema proto (ai.google.dev/api/caching#Schema), so
// we keep to what that proto can hold:
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

type dialect int

const (
	dialectOpenAI dialect = iota
	dialectAnthropic
	dialectGemini
)

func dialectFor(provider string) dialect {
	switch provider {
	case chat.ProviderAnthropic:
		return dialectAnthropic
	case chat.ProviderGemini:
		return dialectGemini
	default:
		return dialectOpenAI
	}
}

// Keyword sets. Keys not listed in a dialect's set are dropped with a
// warning, except the silent ones.
var (
	silentDrop = set("$schema", "$id", "$comment", "$anchor", "$defs", "definitions", "$ref", "const", "nullable")
	keepOpen   = set("type", "title", "description", "enum", "default", "examples", "format",
		"pattern", "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
		"multipleOf", "items", "minItems", "maxItems", "uniqueItems", "properties", "required",
		"additionalProperties", "minProperties", "maxProperties", "anyOf", "oneOf", "allOf")
	keepGemini = set("type", "title", "description", "enum", "format", "pattern", "minLength", "maxLength",
		"minimum", "maximum", "items", "minItems", "maxItems", "properties", "required",
		"additionalProperties", "anyOf", "oneOf", "allOf")
	knownTypes = set("string", "number", "integer", "boolean", "object", "array", "null")
	// typeAliases are type names that hand-written schemas use by mistake.
	typeAliases = map[string]string{"bool": "boolean", "int": "integer", "float": "number", "double": "number",
		"str": "string", "dict": "object", "map": "object", "list": "array"}
	geminiFormat = map[string]map[string]bool{
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

// NormalizeSchema rewrites an MCP tool's inputSchema for provider (see the
// rules above) and returns the schema with warnings for everything it
// dropped or changed. An unknown provider gets OpenAI's rules.
func NormalizeSchema(provider string, raw json.RawMessage) (json.RawMessage, []string) {
	v, err := decodeJSON(raw)
	if err != nil {
		return json.RawMessage(emptyObjectSchema), []string{fmt.Sprintf("#: the schema is not valid JSON (%v); declared without parameters", err)}
	}
	out, warns := normalizeTree(dialectFor(provider), v)
	return encodeJSON(out), warns
}

// normalizeTree is NormalizeSchema on a decoded value; the value is not
// modified, so one decode serves every provider.
func normalizeTree(d dialect, root any) (*object, []string) {
	n := &normalizer{d: d}
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
		if t && n.d != dialectGemini {
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

func (n *normalizer) objectSchema(o *object, path string) (*object, bool) {
	if ref, ok := o.str("$ref"); ok {
		return n.refSchema(o, ref, path)
	}
	out := newObject(o.len() + 1)

	// Types.
	types, nullable, hadType := n.types(o, path)
	if hadType && len(types) == 0 && !nullable {
		return nil, false // only unknown types
	}
	if b, ok := o.get("nullable"); ok && b == true {
		nullable = true
	}

	// Keywords, in the server's order; unknown ones dropped.
	keep := keepOpen
	if n.d == dialectGemini {
		keep = keepGemini
	}
	for _, k := range o.keys {
		if !keep[k] && !silentDrop[k] && !(n.d == dialectGemini && strings.HasPrefix(k, "exclusiveM")) {
			n.warn(path, "dropped unsupported keyword %q", k)
		}
	}

	for _, k := range []string{"title", "description", "pattern"} {
		if s, ok := o.str(k); ok {
			out.set(k, s)
		} else if o.has(k) {
			n.warn(path, "dropped %q: not a string", k)
		}
	}

	// enum / const.
	n.enum(o, out, path, &types, &nullable)

	// Numbers and lengths.
	for _, k := range []string{"minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"} {
		v, ok := o.get(k)
		if !ok || !keep[k] {
			continue
		}
		if num, ok := v.(json.Number); ok && isInteger(num) && !strings.HasPrefix(string(num), "-") {
			out.set(k, num)
		} else {
			n.warn(path, "dropped %q: not a non-negative integer", k)
		}
	}
	for _, k := range []string{"minimum", "maximum"} {
		if v, ok := o.get(k); ok {
			if num, ok := v.(json.Number); ok {
				out.set(k, num)
			} else {
				n.warn(path, "dropped %q: not a number", k)
			}
		}
	}
	n.exclusiveBounds(o, out, path)
	if v, ok := o.get("multipleOf"); ok && keep["multipleOf"] {
		if num, ok := v.(json.Number); ok && !strings.HasPrefix(string(num), "-") && strings.Trim(string(num), "0.") != "" {
			out.set("multipleOf", num)
		} else {
			n.warn(path, "dropped \"multipleOf\": not a positive number")
		}
	}
	if v, ok := o.get("uniqueItems"); ok && keep["uniqueItems"] {
		if b, ok := v.(bool); ok {
			out.set("uniqueItems", b)
		} else {
			n.warn(path, "dropped \"uniqueItems\": not a boolean")
		}
	}
	if n.d != dialectGemini {
		if v, ok := o.get("default"); ok {
			out.set("default", v)
		}
		if v, ok := o.get("examples"); ok {
			if _, ok := v.([]any); ok {
				out.set("examples", v)
			} else {
				n.warn(path, "dropped \"examples\": not an array")
			}
		}
	}

	// Object keywords.
	hasProps := n.properties(o, out, path)
	if v, ok := o.get("additionalProperties"); ok {
		switch ap := v.(type) {
		case bool:
			out.set("additionalProperties", ap)
		default:
			if s, ok := n.schema(ap, path+"/additionalProperties"); ok {
				out.set("additionalProperties", s)
			} else {
				n.warn(path, "dropped \"additionalProperties\": unsupported schema")
			}
		}
	}

	// Array keywords.
	hasItems := n.items(o, out, path)

	// Combinators.
	n.combinators(o, out, path, &nullable)

	// Infer a missing type.
	if len(types) == 0 && !hadType {
		switch {
		case hasProps:
			types = []string{"object"}
		case hasItems:
			types = []string{"array"}
		}
	}
	if len(types) == 0 && out.has("enum") {
		types = enumTypes(out)
	}
	if t, ok := out.str("type"); ok && len(types) == 0 { // merged in from a branch
		types = []string{t}
	}
	if n.d == dialectGemini {
		if len(types) > 1 {
			n.warn(path, "type %v narrowed to %q: Gemini takes one type per schema", types, types[0])
			types = types[:1]
		}
		if len(types) == 1 && types[0] == "null" {
			return nil, false
		}
		if len(types) == 0 && !out.has("anyOf") {
			if !hadType {
				n.warn(path, "no type given")
			}
			return nil, false
		}
	}
	switch len(types) {
	case 0:
	case 1:
		out.set("type", types[0])
	default:
		arr := make([]any, len(types))
		for i, t := range types {
			arr[i] = t
		}
		out.set("type", arr)
	}
	if nullable && n.d == dialectGemini {
		out.set("nullable", true)
	}
	if n.d == dialectGemini {
		n.geminiFormat(o, out, path, types)
		n.geminiEnum(out, path, types)
	} else if f, ok := o.str("format"); ok {
		out.set("format", f)
	}
	if n.d == dialectOpenAI && slices.Contains(types, "array") && !out.has("items") {
		out.set("items", newObject(0))
	}
	return reorder(out), true
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

// types reads "type": known types lowercased and de-duplicated, null split
// out. hadType reports that a type was given (so an empty list means every
// type was unknown).
func (n *normalizer) types(o *object, path string) (types []string, nullable, hadType bool) {
	v, ok := o.get("type")
	if !ok {
		return nil, false, false
	}
	var raw []any
	switch t := v.(type) {
	case string:
		if t == "" {
			return nil, false, false
		}
		raw = []any{t}
	case []any:
		raw = t
	default:
		n.warn(path, "dropped \"type\": not a string or a list")
		return nil, false, false
	}
	hadType = len(raw) > 0
	onlyNull := true
	for _, x := range raw {
		s, _ := x.(string)
		s = strings.ToLower(s)
		if a, ok := typeAliases[s]; ok {
			n.warn(path, "type %q read as %q", s, a)
			s = a
		}
		if !knownTypes[s] {
			n.warn(path, "unknown type %s", string(encodeJSON(x)))
			onlyNull = false
			continue
		}
		if s == "null" {
			nullable = true
			continue
		}
		onlyNull = false
		if !slices.Contains(types, s) {
			types = append(types, s)
		}
	}
	if nullable && onlyNull && len(types) == 0 && n.d != dialectGemini {
		// {"type":"null"} is legal JSON Schema for OpenAI and Anthropic.
		return []string{"null"}, false, true
	}
	return types, nullable, hadType
}

func (n *normalizer) enum(o, out *object, path string, types *[]string, nullable *bool) {
	var vals []any
	if v, ok := o.get("enum"); ok {
		arr, ok := v.([]any)
		if !ok {
			n.warn(path, "dropped \"enum\": not an array")
			return
		}
		vals = arr
	} else if v, ok := o.get("const"); ok {
		vals = []any{v}
	} else {
		return
	}
	var kept []any
	for _, x := range vals {
		if x == nil && !slices.Contains(*types, "null") {
			*nullable = true
			continue
		}
		kept = append(kept, x)
	}
	if len(kept) == 0 {
		n.warn(path, "dropped an empty \"enum\"")
		return
	}
	out.set("enum", kept)
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

// geminiEnum keeps enums of all-string or all-number values only.
func (n *normalizer) geminiEnum(out *object, path string, types []string) {
	v, ok := out.get("enum")
	if !ok {
		return
	}
	arr := v.([]any)
	allStr, allNum := true, true
	for _, x := range arr {
		switch x.(type) {
		case string:
			allNum = false
		case json.Number:
			allStr = false
		default:
			allStr, allNum = false, false
		}
	}
	switch {
	case allStr && (len(types) == 0 || types[0] == "string"):
	case allNum && len(types) == 1 && (types[0] == "number" || types[0] == "integer"):
	default:
		n.warn(path, "dropped \"enum\": Gemini takes enums of strings or numbers matching the type")
		out.del("enum")
	}
}

func (n *normalizer) geminiFormat(o, out *object, path string, types []string) {
	f, ok := o.str("format")
	if !ok {
		return
	}
	if len(types) == 1 && geminiFormat[types[0]][f] {
		out.set("format", f)
		return
	}
	n.warn(path, "dropped format %q: Gemini does not support it here", f)
}

// exclusiveBounds keeps 2020-12 numeric exclusive bounds and converts
// draft-04 booleans; Gemini has neither.
func (n *normalizer) exclusiveBounds(o, out *object, path string) {
	for _, p := range [][2]string{{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}} {
		v, ok := o.get(p[0])
		if !ok {
			continue
		}
		if n.d == dialectGemini {
			if num, ok := v.(json.Number); ok && !out.has(p[1]) {
				out.set(p[1], num) // a slightly looser bound beats none
			}
			continue
		}
		switch t := v.(type) {
		case json.Number:
			out.set(p[0], t)
		case bool:
			if bound, ok := out.get(p[1]); ok && t {
				out.set(p[0], bound)
				out.del(p[1])
			}
		default:
			n.warn(path, "dropped %q: not a number", p[0])
		}
	}
}

// properties normalises "properties" and "required" into out and reports
// whether the schema had properties.
func (n *normalizer) properties(o, out *object, path string) bool {
	pv, hasProps := o.get("properties")
	required := map[string]bool{}
	if rv, ok := o.get("required"); ok {
		if arr, ok := rv.([]any); ok {
			for _, x := range arr {
				if s, ok := x.(string); ok {
					required[s] = true
				}
			}
		} else if rv != nil && rv != true && rv != false {
			n.warn(path, "dropped \"required\": not a list of names")
		}
	}
	if !hasProps {
		if len(required) > 0 {
			n.warn(path, "dropped \"required\": there are no properties")
		}
		return false
	}
	props, ok := pv.(*object)
	if !ok {
		n.warn(path, "dropped \"properties\": not an object")
		return false
	}
	outProps := newObject(props.len())
	for _, name := range props.keys {
		child := props.vals[name]
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
		s, ok := n.schema(child, cpath)
		if !ok {
			if !required[name] {
				n.warn(cpath, "optional property with an unsupported schema omitted")
				continue
			}
			n.warn(cpath, "required property with an unsupported schema declared as a string")
			s = newObject(2)
			s.set("type", "string")
			if co, ok := child.(*object); ok {
				if d, ok := co.str("description"); ok {
					s.set("description", d)
				}
			}
		}
		outProps.set(name, s)
	}
	for r := range required {
		if !outProps.has(r) {
			n.warn(path, "required property %q does not exist; dropped from \"required\"", r)
		}
	}
	out.set("properties", outProps)
	if req := orderedRequired(outProps, required); len(req) > 0 {
		out.set("required", req)
	}
	return true
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func (n *normalizer) items(o, out *object, path string) bool {
	v, ok := o.get("items")
	if !ok {
		return false
	}
	if arr, ok := v.([]any); ok { // draft-04 tuple form
		n.warn(path, "tuple \"items\" reduced to its first schema")
		if len(arr) == 0 {
			return false
		}
		v = arr[0]
	}
	s, ok := n.schema(v, path+"/items")
	if !ok {
		n.warn(path, "\"items\" with an unsupported schema declared as strings")
		s = newObject(1)
		s.set("type", "string")
	}
	out.set("items", s)
	return true
}

// combinators normalises anyOf / oneOf / allOf.
func (n *normalizer) combinators(o, out *object, path string, nullable *bool) {
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		v, ok := o.get(k)
		if !ok {
			continue
		}
		arr, ok := v.([]any)
		if !ok {
			n.warn(path, "dropped %q: not a list", k)
			continue
		}
		var branches []any
		for i, b := range arr {
			bpath := fmt.Sprintf("%s/%s/%d", path, k, i)
			if n.d == dialectGemini && k != "allOf" && isNullSchema(b) {
				*nullable = true
				continue
			}
			s, ok := n.schema(b, bpath)
			if !ok {
				n.warn(bpath, "branch with an unsupported schema dropped")
				continue
			}
			branches = append(branches, s)
		}
		if len(branches) == 0 {
			continue
		}
		if n.d != dialectGemini {
			out.set(k, branches)
			continue
		}
		// Gemini: allOf and single branches are merged in; oneOf is anyOf.
		if k == "allOf" || len(branches) == 1 {
			for _, b := range branches {
				mergeInto(out, b.(*object))
			}
			continue
		}
		if prev, ok := out.get("anyOf"); ok {
			branches = append(prev.([]any), branches...)
		}
		out.set("anyOf", branches)
	}
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
		v := b.vals[k]
		switch k {
		case "properties":
			bp := v.(*object)
			op, ok := out.get("properties")
			if !ok {
				out.set("properties", bp.clone())
				continue
			}
			opo := op.(*object)
			for _, name := range bp.keys {
				if !opo.has(name) {
					opo.set(name, bp.vals[name])
				}
			}
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
