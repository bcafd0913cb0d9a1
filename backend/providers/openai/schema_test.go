package openai

import (
	"encoding/json"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/tools"
)

// MCP tool schemas reach the request as backend/tools normalises them into
// the dialect ToolRules declares, and in a shape both services accept: the fake refuses
// what they refuse (an array without items, an object root without
// properties, "required" that is not a list, a root without type). Each
// raw schema but the $ref one is refused by the fake as it stands (the fake
// does not follow $refs).
func TestToolSchemasNormalisedForOpenAI(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw, want string
		rawRefused      bool
	}{
		{"array without items",
			`{"type":"object","properties":{"paths":{"type":"array"}}}`,
			`{"type":"object","properties":{"paths":{"type":"array","items":{}}}}`, true},
		{"type list with array, no items",
			`{"type":"object","properties":{"ids":{"type":["array","null"]}}}`,
			`{"type":"object","properties":{"ids":{"type":"array","items":{}}}}`, true},
		{"required null",
			`{"type":"object","properties":{"q":{"type":"string"}},"required":null}`,
			`{"type":"object","properties":{"q":{"type":"string"}}}`, true},
		{"root without properties",
			`{"type":"object"}`,
			`{"type":"object","properties":{}}`, true},
		{"root without type",
			`{"properties":{"q":{"type":"string"}}}`,
			`{"type":"object","properties":{"q":{"type":"string"}}}`, true},
		{"local $ref to an array without items",
			`{"type":"object","properties":{"tags":{"$ref":"#/$defs/tags"}},"$defs":{"tags":{"type":"array"}}}`,
			`{"type":"object","properties":{"tags":{"type":"array","items":{}}}}`, false},
		{"unknown type on an optional property, array under anyOf",
			`{"type":"object","properties":{"blob":{"type":"file"},"v":{"anyOf":[{"type":"array"},{"type":"string"}]}}}`,
			`{"type":"object","properties":{"v":{"anyOf":[{"type":"array","items":{}},{"type":"string"}]}}}`, true},
	}
	f, m, _ := newFake(t)
	for _, tt := range tests {
		schema, _ := tools.NormalizeSchema(ToolRules().Schema, json.RawMessage(tt.raw))
		req := baseRequest(user("hi"))
		req.Tools = []chat.Tool{{Name: "srv__tool", Canonical: "srv.tool", Description: "A tool.", InputSchema: schema}}
		body, _ := toRequest(req)
		if got := string(body.Tools[0].Parameters); got != tt.want {
			t.Errorf("%s: rendered parameters %s; want %s", tt.name, got, tt.want)
		}
		if _, err := run(t.Context(), m, req); err != nil {
			reqs := f.Script.Requests()
			t.Errorf("%s: the fake refused the normalised schema: %v (%s)", tt.name, err, reqs[len(reqs)-1].Rejection)
		}

		raw := req
		raw.Tools = []chat.Tool{{Name: "srv__tool", Canonical: "srv.tool", Description: "A tool.", InputSchema: json.RawMessage(tt.raw)}}
		if _, err := run(t.Context(), m, raw); (err != nil) != tt.rawRefused {
			t.Errorf("%s: raw schema refused = %v; want %v", tt.name, err != nil, tt.rawRefused)
		}
	}
}
