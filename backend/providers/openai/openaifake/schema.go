package openaifake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// checkParameters enforces the function-parameter rules both services
// apply to strict:false tools (docs/providers/openai.md §Request rules),
// with their real messages: the root is an object schema with
// "properties" (langchain-ai/langchain-mcp-adapters#137), "required" is a
// list (yomorun/yomo#860), and every array schema has "items"
// (sigoden/aichat#1049; the ChatGPT backend too, tetsuo-ai/agenc-core#538).
func checkParameters(raw json.RawMessage, name, param string) *rejection {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	fail := func(msg string) *rejection {
		return apiError(http.StatusBadRequest, "function parameters must be a valid schema",
			fmt.Sprintf("Invalid schema for function '%s': %s", name, msg), param, "invalid_function_parameters")
	}
	var root map[string]json.RawMessage
	if err := json.Unmarshal(raw, &root); err != nil {
		return fail(fmt.Sprintf("%s is not of type 'object', 'boolean'.", pyRepr(raw)))
	}
	if t := typeName(root["type"]); t != "object" {
		return fail(fmt.Sprintf(`schema must be a JSON Schema of 'type: "object"', got 'type: "%s"'.`, t))
	}
	if _, ok := root["properties"]; !ok {
		return fail("In context=(), object schema missing properties.")
	}
	if msg := walkSchema(root, nil); msg != "" {
		return fail(msg)
	}
	return nil
}

// walkSchema checks one schema and those under it; context is the path in
// the service's tuple notation.
func walkSchema(s map[string]json.RawMessage, context []string) string {
	if req, ok := s["required"]; ok && (len(req) == 0 || req[0] != '[') {
		return fmt.Sprintf("%s is not of type 'array'.", pyRepr(req))
	}
	if hasType(s["type"], "array") && s["items"] == nil {
		return fmt.Sprintf("In context=%s, array schema missing items.", tuple(context))
	}
	var props map[string]json.RawMessage
	_ = json.Unmarshal(s["properties"], &props)
	for name, sub := range props {
		if msg := walkRaw(sub, append(context, "properties", name)); msg != "" {
			return msg
		}
	}
	for _, k := range []string{"items", "additionalProperties"} {
		if msg := walkRaw(s[k], append(context, k)); msg != "" {
			return msg
		}
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		var branches []json.RawMessage
		_ = json.Unmarshal(s[k], &branches)
		for i, b := range branches {
			if msg := walkRaw(b, append(context, k, fmt.Sprint(i))); msg != "" {
				return msg
			}
		}
	}
	return ""
}

func walkRaw(raw json.RawMessage, context []string) string {
	var s map[string]json.RawMessage
	if json.Unmarshal(raw, &s) != nil || s == nil {
		return "" // true, false or absent
	}
	return walkSchema(s, slicesClip(context))
}

// slicesClip copies context so appends in a sibling do not overwrite it.
func slicesClip(c []string) []string { return append([]string(nil), c...) }

func typeName(raw json.RawMessage) string {
	var t string
	if json.Unmarshal(raw, &t) == nil && t != "" {
		return t
	}
	return "None"
}

func hasType(raw json.RawMessage, want string) bool {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return one == want
	}
	var many []string
	_ = json.Unmarshal(raw, &many)
	for _, t := range many {
		if t == want {
			return true
		}
	}
	return false
}

// tuple writes a path as Python prints a tuple: (), ('a',), ('a', 'b').
func tuple(parts []string) string {
	if len(parts) == 0 {
		return "()"
	}
	q := make([]string, len(parts))
	for i, p := range parts {
		q[i] = "'" + p + "'"
	}
	if len(q) == 1 {
		return "(" + q[0] + ",)"
	}
	return "(" + strings.Join(q, ", ") + ")"
}

// pyRepr is a JSON value as the service's Python validator names it.
func pyRepr(raw json.RawMessage) string {
	switch s := strings.TrimSpace(string(raw)); s {
	case "null", "":
		return "None"
	case "true":
		return "True"
	case "false":
		return "False"
	default:
		return s
	}
}
