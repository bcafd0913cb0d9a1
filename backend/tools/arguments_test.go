package tools

import (
	"encoding/json"
	"errors"
	"maestro/backend/chat"
	"strings"
	"testing"
)

func TestValidateArguments(t *testing.T) {
	t.Parallel()
	const schema = `{"type":"object","properties":{
		"path":{"type":"string"},
		"head":{"type":"number"},
		"count":{"type":"integer"},
		"mode":{"type":"string","enum":["fast","slow"]},
		"tags":{"type":"array","items":{"type":"string"}},
		"opts":{"type":"object"},
		"note":{"type":["string","null"]},
		"kind":{"$ref":"#/$defs/Kind"},
		"either":{"anyOf":[{"type":"string"},{"type":"integer"}]},
		"loose":{"description":"anything"},
		"flag":{"type":"bool"}
	},"required":["path"],"$defs":{"Kind":{"type":"string","enum":["a","b"]}}}`
	const closed = `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`
	tests := []struct {
		name   string
		schema string
		args   string
		want   []string // problem substrings; nil = valid
	}{
		{"valid", schema, `{"path":"/tmp/x","head":3,"count":2,"mode":"fast","tags":["a"],"opts":{},"note":null,"kind":"a","either":7,"loose":[1],"flag":true}`, nil},
		{"integer written with a fraction of zero", schema, `{"path":"p","count":2.0}`, nil},
		{"empty arguments count as {}", `{"type":"object","properties":{}}`, ``, nil},
		{"whitespace arguments count as {}", `{"type":"object","properties":{}}`, "  \n", nil},
		{"not JSON", schema, `{"path":`, []string{"not valid JSON", "send one JSON object"}},
		{"an array", schema, `["path"]`, []string{"must be a JSON object, got an array"}},
		{"null", schema, `null`, []string{"must be a JSON object, got null"}},
		{"a string", schema, `"path"`, []string{"must be a JSON object, got a string"}},
		{"missing required", schema, `{"head":1}`, []string{`missing required property "path" (string)`}},
		{"wrong type", schema, `{"path":1}`, []string{`property "path" must be a string, got an integer`}},
		{"number for integer", schema, `{"path":"p","count":1.5}`, []string{`property "count" must be an integer, got a number`}},
		{"null for an optional property", schema, `{"path":"p","head":null}`, []string{`property "head" must be a number, got null (leave it out instead)`}},
		{"enum", schema, `{"path":"p","mode":"medium"}`, []string{`property "mode" must be one of "fast", "slow", got "medium"`}},
		{"enum behind $ref", schema, `{"path":"p","kind":"c"}`, []string{`property "kind" must be one of "a", "b"`}},
		{"anyOf types", schema, `{"path":"p","either":true}`, []string{`property "either" must be a string or an integer, got a boolean`}},
		{"alias type", schema, `{"path":"p","flag":"yes"}`, []string{`property "flag" must be a boolean`}},
		{"several problems", schema, `{"count":"x","tags":"a"}`, []string{`missing required property "path"`, `property "count"`, `property "tags" must be an array`}},
		{"unknown property of a closed object", closed, `{"a":"x","b":1}`, []string{`unknown property "b" (allowed: a)`}},
		{"unknown property of an open object", schema, `{"path":"p","extra":1}`, nil},
		{"unreadable schema is not enforced", `{"type":`, `{"anything":1}`, nil},
		{"no schema is not enforced", ``, `{"anything":1}`, nil},
		{"root $ref", `{"$ref":"#/definitions/A","definitions":{"A":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}}}`, `{}`, []string{`missing required property "q"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := ValidateArguments(json.RawMessage(tt.schema), json.RawMessage(tt.args))
			if tt.want == nil {
				if err != nil {
					t.Errorf("ValidateArguments(%s) = %v; want nil", tt.args, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("ValidateArguments(%s) = nil; want an error containing %q", tt.args, tt.want)
			}
			if !errors.Is(err, chat.ErrInvalid) {
				t.Errorf("error %v is not chat.ErrInvalid", err)
			}
			if !strings.HasPrefix(err.Error(), "invalid arguments: ") {
				t.Errorf("error %q; want it to start with %q", err, "invalid arguments: ")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q; want it to contain %q", err, w)
				}
			}
		})
	}
}
