package agent

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"maestro/backend/chat"
)

func TestSchemaProblems(t *testing.T) {
	t.Parallel()
	const nested = `{"type":"object","properties":{` +
		`"q":{"type":"string"},` +
		`"n":{"type":"integer"},` +
		`"x":{"type":["number","string"]},` +
		`"u":{"anyOf":[{"type":"string"},{"type":"boolean"}]},` +
		`"free":{},` +
		`"any":true,` +
		`"mode":{"type":"string","enum":["a","b"]},` +
		`"level":{"enum":[1,2]},` +
		`"filter":{"type":"object","properties":{"limit":{"type":"integer"},"deep":{"type":"object","properties":{"k":{"type":"string"}}}},"required":["limit"],"additionalProperties":false},` +
		`"tags":{"type":"array","items":{"type":"string"}},` +
		`"tuple":{"type":"array","items":[{"type":"string"}]}},` +
		`"required":["q"]}`
	tests := []struct {
		name   string
		schema string
		args   string
		want   []string // nil: no problem
	}{
		{"valid", nested, `{"q":"hi","n":3,"x":"s","u":true,"mode":"a","level":2,"filter":{"limit":1},"tags":["a"]}`, nil},
		{"1.0 is an integer, 2.0 is in [1,2]", nested, `{"q":"hi","n":1.0,"level":2.0,"filter":{"limit":1e2}}`, nil},
		{"null is never reported", nested, `{"q":null,"n":null,"filter":{"limit":null},"tags":[null]}`, nil},
		{"no type says nothing", nested, `{"q":"","free":[1],"any":{"a":1}}`, nil},
		{"missing required, with its type", nested, `{}`, []string{`missing required property "q" (string)`}},
		{"wrong types", nested, `{"q":1,"n":1.5,"x":true,"u":3}`, []string{
			`property "n" must be integer, got a number`, `property "q" must be string, got an integer`,
			`property "u" must be string or boolean, got an integer`, `property "x" must be number or string, got a boolean`}},
		{"enum", nested, `{"q":"","mode":"c","level":3}`, []string{
			`property "level" must be one of 1, 2, got 3`, `property "mode" must be one of "a", "b", got "c"`}},
		{"one level down", nested, `{"q":"","filter":{"limit":"5","extra":1},"tags":["a",2]}`, []string{
			`unknown property "filter.extra" (allowed: deep, limit)`, `property "filter.limit" must be integer, got a string`,
			`property "tags[1]" must be string, got an integer`}},
		{"missing nested required", nested, `{"q":"","filter":{}}`, []string{`missing required property "filter.limit" (integer)`}},
		{"two levels down is left to the server", nested, `{"q":"","filter":{"limit":1,"deep":{"k":5}}}`, nil},
		{"a type, not an object", nested, `{"q":"","filter":"all"}`, []string{`property "filter" must be object, got a string`}},
		{"tuple items are not read", nested, `{"q":"","tuple":[1]}`, nil},
		{"closed root", `{"type":"object","properties":{},"additionalProperties":false}`, `{"z":1}`,
			[]string{`unknown property "z" (allowed: none)`}},
		{"unknown type name", `{"type":"object","properties":{"a":{"type":"file"}}}`, `{"a":1}`, nil},
		{"unreadable schema", `{"type":"object","properties":[]}`, `{"a":1}`, nil},
		{"no schema", ``, `{"a":1}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := schemaProblems(json.RawMessage(tt.schema), json.RawMessage(tt.args))
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("problems:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestSchemaProblemsCapped(t *testing.T) {
	t.Parallel()
	var props, req []string
	for i := range 15 {
		props = append(props, fmt.Sprintf(`"p%02d":{"type":"string"}`, i))
		req = append(req, fmt.Sprintf(`"p%02d"`, i))
	}
	schema := `{"type":"object","properties":{` + strings.Join(props, ",") + `},"required":[` + strings.Join(req, ",") + `]}`
	got := schemaProblems(json.RawMessage(schema), json.RawMessage(`{}`))
	if len(got) != maxProblems+1 || got[maxProblems] != "and 5 more" {
		t.Errorf("got %d problems ending %q; want %d and \"and 5 more\"", len(got), got[len(got)-1], maxProblems+1)
	}
}

func TestCheckArguments(t *testing.T) {
	t.Parallel()
	schema := json.RawMessage(`{"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}`)
	compact := `{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}`
	long := `{"a": "` + strings.Repeat("é", maxQuoted) + `"`
	tests := []struct {
		name   string
		call   chat.ToolCall
		schema json.RawMessage
		want   []string // substrings; nil: the call may run
	}{
		{"valid", chat.ToolCall{Arguments: json.RawMessage(`{"a":1}`)}, schema, nil},
		{"cut off", chat.ToolCall{Arguments: json.RawMessage(`{}`), InvalidArguments: `{"a":`}, schema, []string{
			"the tool was not run: they are not valid JSON (unexpected end of JSON input at byte 5)",
			"matches its input schema: " + compact + ".", `The arguments sent were: {"a":`}},
		{"bad character", chat.ToolCall{Arguments: json.RawMessage(`{}`), InvalidArguments: `{a: 1}`}, schema, []string{
			"not valid JSON (invalid character 'a' looking for beginning of object key string at byte 2)"}},
		{"a string", chat.ToolCall{Arguments: json.RawMessage(`{}`), InvalidArguments: `"a=1"`}, schema, []string{
			"they must be one JSON object, not a string"}},
		{"mismatch", chat.ToolCall{Arguments: json.RawMessage(`{}`)}, schema, []string{
			`they do not match the tool's input schema: missing required property "a" (integer). Call the tool again`}},
		{"no schema known", chat.ToolCall{Arguments: json.RawMessage(`{}`), InvalidArguments: `[]`}, nil, []string{
			"not an array. Call the tool again with one JSON object as its arguments. The arguments sent were: []"}},
		// Cut on a rune boundary: one byte short of maxQuoted here.
		{"long text clipped", chat.ToolCall{Arguments: json.RawMessage(`{}`), InvalidArguments: long}, schema, []string{
			fmt.Sprintf("é… (%d more bytes)", len(long)-maxQuoted+1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := checkArguments(tt.call, tt.schema)
			if tt.want == nil && got != "" {
				t.Errorf("got %q; want the call to run", got)
			}
			if tt.want != nil && got == "" {
				t.Fatalf("got no error; want %q", tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("got %q\nlacks %q", got, w)
				}
			}
		})
	}
}
