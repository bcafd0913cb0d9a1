package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"maestro/backend/chat"
)

// Arguments the model got wrong are answered, not run. A call whose
// arguments were not a JSON object (chat.ToolCall.InvalidArguments), or
// do not match the input schema declared to the model, gets an error
// result saying what was wrong, with the text it sent and the schema, so
// the model can repair the call in its next step. The tool is not called
// and the user is not asked to approve a call that cannot run.
//
// The schema check is deliberately small: the top level and one level
// below it, for the keywords a model gets wrong — type, required, enum,
// properties and additionalProperties: false. The schema is the one
// declared to this provider, after normalisation (backend/tools schema.go),
// which removes "null" from type lists: so a null value is never reported,
// since the check cannot tell whether the server allows it. For Gemini it
// also narrows a list of types to the first; a value of another listed
// type is then reported, which the model, shown the narrowed schema, can
// follow. Deeper values,
// formats and patterns are left to the server, which validates its own
// input. A schema that cannot be read is not enforced.

const (
	// maxQuoted bounds the invalid text quoted back to the model.
	maxQuoted = 2 << 10
	// maxSchemaQuoted bounds the schema quoted back; the model also has it
	// in the request's tool list.
	maxSchemaQuoted = 16 << 10
	// maxProblems bounds the problems listed in one result.
	maxProblems = 10
)

// checkArguments returns the error text for a call that must not run
// because of its arguments, or "". The text the model sent, when it was
// not an object, comes last, so nothing is mistaken for part of it.
func checkArguments(call chat.ToolCall, schema json.RawMessage) string {
	var what, sent string
	if call.InvalidArguments != "" {
		what, sent = invalidText(call.InvalidArguments), clip(call.InvalidArguments, maxQuoted)
	} else {
		problems := schemaProblems(schema, call.Arguments)
		if len(problems) == 0 {
			return ""
		}
		what = "they do not match the tool's input schema: " + strings.Join(problems, "; ")
	}
	msg := "invalid arguments, so the tool was not run: " + what + "."
	if s := compactSchema(schema); s != "" {
		msg += " Call the tool again with one JSON object that matches its input schema: " + s + "."
	} else {
		msg += " Call the tool again with one JSON object as its arguments."
	}
	if sent != "" {
		msg += " The arguments sent were: " + sent
	}
	return msg
}

// invalidText says what is wrong with arguments that are not a JSON
// object.
func invalidText(raw string) string {
	var v any
	err := json.Unmarshal([]byte(raw), &v)
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("they are not valid JSON (%s at byte %d)", se.Error(), se.Offset)
	case err != nil:
		return fmt.Sprintf("they are not valid JSON (%v)", err)
	}
	return "they must be one JSON object, not " + kindOf(v)
}

// compactSchema is the schema as one line, clipped; "" when there is none.
func compactSchema(schema json.RawMessage) string {
	var buf bytes.Buffer
	if len(bytes.TrimSpace(schema)) == 0 || json.Compact(&buf, schema) != nil {
		return ""
	}
	return clip(buf.String(), maxSchemaQuoted)
}

// clip cuts s to at most n bytes on a rune boundary, saying how much was
// left out.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:cut], len(s)-cut)
}

// schemaNode is the part of a JSON Schema the check reads. A boolean
// schema (true, or false) reads as an empty node, which accepts anything.
type schemaNode struct {
	Type                 json.RawMessage        `json:"type"`
	Properties           map[string]*schemaNode `json:"properties"`
	Required             []string               `json:"required"`
	Enum                 []json.RawMessage      `json:"enum"`
	Items                json.RawMessage        `json:"items"`
	AnyOf                []*schemaNode          `json:"anyOf"`
	OneOf                []*schemaNode          `json:"oneOf"`
	AdditionalProperties json.RawMessage        `json:"additionalProperties"`
}

func (n *schemaNode) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimSpace(b); bytes.Equal(t, []byte("true")) || bytes.Equal(t, []byte("false")) {
		*n = schemaNode{}
		return nil
	}
	type plain schemaNode
	return json.Unmarshal(b, (*plain)(n))
}

// schemaProblems lists how args (a JSON object) break schema, at most
// maxProblems of them.
func schemaProblems(schema, args json.RawMessage) []string {
	var root schemaNode
	if len(bytes.TrimSpace(schema)) == 0 || json.Unmarshal(schema, &root) != nil {
		return nil
	}
	obj, ok := decode(args).(map[string]any)
	if !ok {
		return nil // the assembler stores only objects
	}
	c := &checker{}
	c.object("", &root, obj, 1)
	if extra := c.n - len(c.problems); extra > 0 {
		c.problems = append(c.problems, fmt.Sprintf("and %d more", extra))
	}
	return c.problems
}

func decode(b []byte) any {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	return v
}

// checker collects problems; n counts them all, problems keeps the first
// maxProblems.
type checker struct {
	problems []string
	n        int
}

func (c *checker) add(format string, args ...any) {
	c.n++
	if len(c.problems) < maxProblems {
		c.problems = append(c.problems, fmt.Sprintf(format, args...))
	}
}

// object checks an object's members against n; depth is how many levels
// below the members are still looked into.
func (c *checker) object(path string, n *schemaNode, obj map[string]any, depth int) {
	for _, name := range n.Required {
		if _, ok := obj[name]; !ok {
			msg := fmt.Sprintf("missing required property %q", join(path, name))
			if t := n.Properties[name].types(); len(t) > 0 {
				msg += " (" + strings.Join(t, " or ") + ")"
			}
			c.add("%s", msg)
		}
	}
	closed := bytes.Equal(bytes.TrimSpace(n.AdditionalProperties), []byte("false"))
	for _, name := range sortedKeys(obj) {
		ps, ok := n.Properties[name]
		switch {
		case ok && ps != nil:
			c.value(join(path, name), ps, obj[name], depth)
		case !ok && closed:
			allowed := strings.Join(sortedKeys(n.Properties), ", ")
			if allowed == "" {
				allowed = "none"
			}
			c.add("unknown property %q (allowed: %s)", join(path, name), allowed)
		}
	}
}

// value checks one value against n: its type, its enum and, while depth
// allows, what is inside it.
func (c *checker) value(path string, n *schemaNode, v any, depth int) {
	if v == nil {
		return // nullability was normalised away (see the file comment)
	}
	if t := n.types(); len(t) > 0 && !hasAnyType(v, t) {
		c.add("property %q must be %s, got %s", path, strings.Join(t, " or "), kindOf(v))
		return
	}
	if len(n.Enum) > 0 && !inEnum(v, n.Enum) {
		c.add("property %q must be one of %s, got %s", path, enumList(n.Enum), clip(compact(v), 200))
		return
	}
	if depth == 0 {
		return
	}
	switch v := v.(type) {
	case map[string]any:
		c.object(path, n, v, depth-1)
	case []any:
		var items schemaNode
		if len(n.Items) == 0 || json.Unmarshal(n.Items, &items) != nil {
			return // absent, or a tuple (an array of schemas)
		}
		for i, x := range v {
			c.value(fmt.Sprintf("%s[%d]", path, i), &items, x, depth-1)
		}
	}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// types lists the JSON types n allows; nil when it cannot tell (no type,
// a type it does not know, a branch without one).
func (n *schemaNode) types() []string {
	if n == nil {
		return nil
	}
	if len(n.Type) == 0 {
		var out []string
		for _, b := range slices.Concat(n.AnyOf, n.OneOf) {
			bt := b.types()
			if bt == nil {
				return nil
			}
			out = append(out, bt...)
		}
		return out
	}
	var one string
	var list []string
	switch {
	case json.Unmarshal(n.Type, &one) == nil:
		list = []string{one}
	case json.Unmarshal(n.Type, &list) == nil:
	default:
		return nil
	}
	for _, t := range list {
		if _, ok := typeChecks[t]; !ok {
			return nil
		}
	}
	return list
}

// typeChecks tells, per JSON Schema type, whether a decoded value has it.
var typeChecks = map[string]func(any) bool{
	"string":  func(v any) bool { _, ok := v.(string); return ok },
	"number":  func(v any) bool { _, ok := v.(json.Number); return ok },
	"integer": isInteger,
	"boolean": func(v any) bool { _, ok := v.(bool); return ok },
	"object":  func(v any) bool { _, ok := v.(map[string]any); return ok },
	"array":   func(v any) bool { _, ok := v.([]any); return ok },
	"null":    func(v any) bool { return v == nil },
}

func hasAnyType(v any, types []string) bool {
	for _, t := range types {
		if typeChecks[t](v) {
			return true
		}
	}
	return false
}

// isInteger: a number with no fractional part (1.0 is an integer in JSON
// Schema).
func isInteger(v any) bool {
	n, ok := v.(json.Number)
	if !ok {
		return false
	}
	if _, err := n.Int64(); err == nil {
		return true
	}
	f, err := n.Float64()
	return err == nil && !math.IsInf(f, 0) && f == math.Trunc(f)
}

func kindOf(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case json.Number:
		if isInteger(v) {
			return "an integer"
		}
		return "a number"
	case bool:
		return "a boolean"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return fmt.Sprintf("%T", v)
}

func inEnum(v any, enum []json.RawMessage) bool {
	want := compact(v)
	for _, e := range enum {
		if compact(decode(e)) == want {
			return true
		}
		if a, ok := v.(json.Number); ok {
			if b, ok := decode(e).(json.Number); ok && sameNumber(a, b) {
				return true
			}
		}
	}
	return false
}

func sameNumber(a, b json.Number) bool {
	x, err1 := a.Float64()
	y, err2 := b.Float64()
	return err1 == nil && err2 == nil && x == y
}

func enumList(enum []json.RawMessage) string {
	vals := make([]string, len(enum))
	for i, e := range enum {
		vals[i] = compact(decode(e))
	}
	return clip(strings.Join(vals, ", "), 500)
}

// compact encodes a decoded value (map keys sorted, so equal values encode
// the same).
func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
