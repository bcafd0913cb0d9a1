package tools

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"maestro/backend/chat"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

const (
	oa  = chat.ProviderOpenAI
	an  = chat.ProviderAnthropic
	gem = chat.ProviderGemini
)

func TestNormalizeSchema(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		// want maps provider → expected schema; "*" applies to providers
		// without their own entry.
		want map[string]string
		// warns maps provider ("*" for all) → substrings the warnings must
		// contain.
		warns map[string][]string
	}{
		{
			name: "drops $schema $id $comment silently",
			in:   `{"$schema":"http://json-schema.org/draft-07/schema#","$id":"x","$comment":"c","type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`,
			want: map[string]string{"*": `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`},
		},
		{
			name: "inlines $defs refs and drops $defs",
			in:   `{"type":"object","$defs":{"Mode":{"type":"string","enum":["a","b"]}},"properties":{"mode":{"$ref":"#/$defs/Mode","description":"the mode"}}}`,
			want: map[string]string{"*": `{"type":"object","properties":{"mode":{"type":"string","description":"the mode","enum":["a","b"]}}}`},
		},
		{
			name: "inlines draft-07 definitions refs and a root ref",
			in:   `{"$ref":"#/definitions/Args","definitions":{"Args":{"type":"object","properties":{"q":{"$ref":"#/definitions/Q"}},"required":["q"]},"Q":{"type":"string","minLength":1}}}`,
			want: map[string]string{"*": `{"type":"object","properties":{"q":{"type":"string","minLength":1}},"required":["q"]}`},
		},
		{
			name:  "recursive ref becomes an object",
			in:    `{"type":"object","properties":{"root":{"$ref":"#/$defs/Node"}},"$defs":{"Node":{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}}}`,
			want:  map[string]string{"*": `{"type":"object","properties":{"root":{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"type":"object"}}}}}}`},
			warns: map[string][]string{"*": {`recursive $ref "#/$defs/Node"`}},
		},
		{
			name: "required null is absent",
			in:   `{"type":"object","properties":{"a":{"type":"string"}},"required":null}`,
			want: map[string]string{"*": `{"type":"object","properties":{"a":{"type":"string"}}}`},
		},
		{
			name:  "required names that do not exist are filtered",
			in:    `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","ghost","a"]}`,
			want:  map[string]string{"*": `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`},
			warns: map[string][]string{"*": {`required property "ghost" does not exist`}},
		},
		{
			name: "root without type",
			in:   `{}`,
			want: map[string]string{"*": `{"type":"object","properties":{}}`},
		},
		{
			name: "root without type but with properties (mcp-go's empty type)",
			in:   `{"type":"","properties":{"a":{"type":"number"}},"required":[]}`,
			want: map[string]string{"*": `{"type":"object","properties":{"a":{"type":"number"}}}`},
		},
		{
			name:  "root of another type",
			in:    `{"type":"string"}`,
			want:  map[string]string{"*": `{"type":"object","properties":{}}`},
			warns: map[string][]string{"*": {`type "string", not object`}},
		},
		{
			name:  "not JSON",
			in:    `{"type":`,
			want:  map[string]string{"*": `{"type":"object","properties":{}}`},
			warns: map[string][]string{"*": {"not valid JSON"}},
		},
		{
			name:  "not an object",
			in:    `[1,2]`,
			want:  map[string]string{"*": `{"type":"object","properties":{}}`},
			warns: map[string][]string{"*": {"the schema is array"}},
		},
		{
			name: "nullable type list",
			in:   `{"type":"object","properties":{"n":{"type":["string","null"],"description":"d"}}}`,
			want: map[string]string{
				"*": `{"type":"object","properties":{"n":{"type":"string","description":"d"}}}`,
				gem: `{"type":"object","properties":{"n":{"type":"string","nullable":true,"description":"d"}}}`,
			},
		},
		{
			name: "several types",
			in:   `{"type":"object","properties":{"v":{"type":["string","number"]}}}`,
			want: map[string]string{
				"*": `{"type":"object","properties":{"v":{"type":["string","number"]}}}`,
				gem: `{"type":"object","properties":{"v":{"type":"string"}}}`,
			},
			warns: map[string][]string{gem: {"narrowed to \"string\""}},
		},
		{
			name: "uppercase types",
			in:   `{"type":"OBJECT","properties":{"s":{"type":"STRING"}}}`,
			want: map[string]string{"*": `{"type":"object","properties":{"s":{"type":"string"}}}`},
		},
		{
			name: "unknown type: optional omitted, required becomes a string",
			in:   `{"type":"object","properties":{"opt":{"type":"any"},"req":{"type":"file","description":"upload"},"ok":{"type":"integer"}},"required":["req"]}`,
			want: map[string]string{"*": `{"type":"object","properties":{"req":{"type":"string","description":"upload"},"ok":{"type":"integer"}},"required":["req"]}`},
			warns: map[string][]string{"*": {
				`#/properties/opt: optional property with an unsupported schema omitted`,
				`#/properties/req: required property with an unsupported schema declared as a string`,
			}},
		},
		{
			name:  "non-local ref is unsupported",
			in:    `{"type":"object","properties":{"x":{"$ref":"https://example.com/x.json"}}}`,
			want:  map[string]string{"*": `{"type":"object","properties":{}}`},
			warns: map[string][]string{"*": {`cannot resolve $ref "https://example.com/x.json"`}},
		},
		{
			name: "untyped property: any for OpenAI and Anthropic, omitted for Gemini",
			in:   `{"type":"object","properties":{"value":{"description":"anything"}}}`,
			want: map[string]string{
				"*": `{"type":"object","properties":{"value":{"description":"anything"}}}`,
				gem: `{"type":"object","properties":{}}`,
			},
		},
		{
			name: "const becomes enum",
			in:   `{"type":"object","properties":{"kind":{"const":"insert_text"}}}`,
			want: map[string]string{"*": `{"type":"object","properties":{"kind":{"type":"string","enum":["insert_text"]}}}`},
		},
		{
			name: "formats",
			in:   `{"type":"object","properties":{"u":{"type":"string","format":"uri"},"t":{"type":"string","format":"date-time"},"i":{"type":"integer","format":"int64"},"f":{"type":"number","format":"int32"}}}`,
			want: map[string]string{
				"*": `{"type":"object","properties":{"u":{"type":"string","format":"uri"},"t":{"type":"string","format":"date-time"},"i":{"type":"integer","format":"int64"},"f":{"type":"number","format":"int32"}}}`,
				gem: `{"type":"object","properties":{"u":{"type":"string"},"t":{"type":"string","format":"date-time"},"i":{"type":"integer","format":"int64"},"f":{"type":"number"}}}`,
			},
			warns: map[string][]string{gem: {`dropped format "uri"`, `dropped format "int32"`}},
		},
		{
			name: "array without items",
			in:   `{"type":"object","properties":{"tags":{"type":"array"}}}`,
			want: map[string]string{
				oa:  `{"type":"object","properties":{"tags":{"type":"array","items":{}}}}`,
				"*": `{"type":"object","properties":{"tags":{"type":"array"}}}`,
			},
		},
		{
			name:  "root anyOf of required constraints is folded",
			in:    `{"type":"object","properties":{"id":{"type":"string"},"title":{"type":"string"},"body":{"type":"string"}},"required":["id"],"anyOf":[{"required":["title"]},{"required":["body"]}]}`,
			want:  map[string]string{"*": `{"type":"object","properties":{"id":{"type":"string"},"title":{"type":"string"},"body":{"type":"string"}},"required":["id"]}`},
			warns: map[string][]string{"*": {"anyOf at the root"}},
		},
		{
			name: "root oneOf of object branches is merged",
			in:   `{"oneOf":[{"type":"object","properties":{"path":{"type":"string"},"mode":{"type":"string"}},"required":["path","mode"]},{"type":"object","properties":{"url":{"type":"string"},"mode":{"type":"string"}},"required":["url","mode"]}]}`,
			want: map[string]string{"*": `{"type":"object","properties":{"path":{"type":"string"},"mode":{"type":"string"},"url":{"type":"string"}},"required":["mode"]}`},
		},
		{
			name: "anyOf with a null branch",
			in:   `{"type":"object","properties":{"limit":{"anyOf":[{"type":"integer"},{"type":"null"}],"default":null,"title":"Limit"}}}`,
			want: map[string]string{
				"*": `{"type":"object","properties":{"limit":{"title":"Limit","default":null,"anyOf":[{"type":"integer"},{"type":"null"}]}}}`,
				gem: `{"type":"object","properties":{"limit":{"type":"integer","nullable":true,"title":"Limit"}}}`,
			},
		},
		{
			name: "oneOf becomes anyOf for Gemini",
			in:   `{"type":"object","properties":{"v":{"oneOf":[{"type":"string"},{"type":"number"}]}}}`,
			want: map[string]string{
				"*": `{"type":"object","properties":{"v":{"oneOf":[{"type":"string"},{"type":"number"}]}}}`,
				gem: `{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"number"}]}}}`,
			},
		},
		{
			name: "allOf is merged for Gemini",
			in:   `{"type":"object","properties":{"o":{"allOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"properties":{"b":{"type":"number"}}}]}}}`,
			want: map[string]string{
				"*": `{"type":"object","properties":{"o":{"allOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"type":"object","properties":{"b":{"type":"number"}}}]}}}`,
				gem: `{"type":"object","properties":{"o":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"number"}},"required":["a"]}}}`,
			},
		},
		{
			name: "draft-04 bounds and malformed keywords",
			in:   `{"type":"object","properties":{"n":{"type":"number","minimum":0,"exclusiveMinimum":true,"maximum":"9"},"s":{"type":"string","minLength":"3","maxLength":10}}}`,
			want: map[string]string{
				"*": `{"type":"object","properties":{"n":{"type":"number","exclusiveMinimum":0},"s":{"type":"string","maxLength":10}}}`,
				gem: `{"type":"object","properties":{"n":{"type":"number","minimum":0},"s":{"type":"string","maxLength":10}}}`,
			},
			warns: map[string][]string{"*": {`dropped "maximum": not a number`, `dropped "minLength": not a non-negative integer`}},
		},
		{
			name: "draft-03 required flag moves to the parent",
			in:   `{"type":"object","properties":{"a":{"type":"string","required":true},"b":{"type":"string","required":false}}}`,
			want: map[string]string{"*": `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a"]}`},
		},
		{
			name: "unknown keywords dropped, defaults kept except for Gemini",
			in:   `{"type":"object","properties":{"q":{"type":"string","default":"x","examples":["y"],"x-ui":"big","not":{"const":"z"}}}}`,
			want: map[string]string{
				"*": `{"type":"object","properties":{"q":{"type":"string","default":"x","examples":["y"]}}}`,
				gem: `{"type":"object","properties":{"q":{"type":"string"}}}`,
			},
			warns: map[string][]string{"*": {`dropped unsupported keyword "x-ui"`, `dropped unsupported keyword "not"`}, gem: {`dropped unsupported keyword "default"`}},
		},
		{
			name: "Gemini enums must be strings or numbers",
			in:   `{"type":"object","properties":{"b":{"type":"boolean","enum":[true]},"e":{"enum":["a",null]}}}`,
			want: map[string]string{
				"*": `{"type":"object","properties":{"b":{"type":"boolean","enum":[true]},"e":{"type":"string","enum":["a"]}}}`,
				gem: `{"type":"object","properties":{"b":{"type":"boolean"},"e":{"type":"string","nullable":true,"enum":["a"]}}}`,
			},
		},
		{
			name: "property order is kept",
			in:   `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"string"},"mid":{"type":"string"}},"required":["alpha","zeta"]}`,
			want: map[string]string{"*": `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"string"},"mid":{"type":"string"}},"required":["zeta","alpha"]}`},
		},
		{
			name: "additionalProperties schema",
			in:   `{"type":"object","properties":{"env":{"type":"object","additionalProperties":{"type":"string"}}}}`,
			want: map[string]string{"*": `{"type":"object","properties":{"env":{"type":"object","additionalProperties":{"type":"string"}}}}`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, p := range Providers {
				got, warns := NormalizeSchema(rulesFor(p).Schema, json.RawMessage(tt.in))
				want, ok := tt.want[p]
				if !ok {
					want = tt.want["*"]
				}
				if !jsonEqual(got, []byte(want)) {
					t.Errorf("%s: NormalizeSchema(%s)\n got %s\nwant %s\nwarnings: %q", p, tt.in, got, want, warns)
				}
				for _, w := range append(tt.warns["*"], tt.warns[p]...) {
					if !containsSubstring(warns, w) {
						t.Errorf("%s: warnings %q; want one containing %q", p, warns, w)
					}
				}
				assertAcceptable(t, p, got)
				again, _ := NormalizeSchema(rulesFor(p).Schema, got)
				if !jsonEqual(again, got) {
					t.Errorf("%s: normalising twice changed the schema:\n once %s\ntwice %s", p, got, again)
				}
			}
		})
	}
}

func TestNormalizeSchemaKeepsOrder(t *testing.T) {
	t.Parallel()
	in := `{"properties":{"zeta":{"type":"string"},"alpha":{"type":"number"}},"type":"object"}`
	for _, p := range Providers {
		got, _ := NormalizeSchema(rulesFor(p).Schema, json.RawMessage(in))
		want := `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"number"}}}`
		if string(got) != want {
			t.Errorf("%s: got %s; want exactly %s", p, got, want)
		}
	}
}

func TestNormalizeSchemaExpansionLimit(t *testing.T) {
	t.Parallel()
	// Each level refers to the next twice: 2^20 nodes if fully inlined.
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{"x":{"$ref":"#/$defs/L0"}},"$defs":{`)
	for i := range 20 {
		if i > 0 {
			b.WriteByte(',')
		}
		next := `{"type":"string"}`
		if i < 19 {
			next = `{"$ref":"#/$defs/L` + strconv.Itoa(i+1) + `"}`
		}
		b.WriteString(`"L` + strconv.Itoa(i) + `":{"type":"object","properties":{"a":` + next + `,"b":` + next + `}}`)
	}
	b.WriteString(`}}`)
	for _, p := range Providers {
		got, warns := NormalizeSchema(rulesFor(p).Schema, json.RawMessage(b.String()))
		if len(got) > 1<<20 {
			t.Errorf("%s: normalised schema is %d bytes; want the expansion bounded", p, len(got))
		}
		if !containsSubstring(warns, "nested too deeply") {
			t.Errorf("%s: warnings %q; want one about the expansion limit", p, warns)
		}
		assertAcceptable(t, p, got)
	}
}

// TestNormalizeSchemaGolden runs realistic server schemas (shaped like
// @modelcontextprotocol/server-filesystem, server-everything and pydantic /
// zod servers) through every provider; go test -update rewrites the goldens.
func TestNormalizeSchemaGolden(t *testing.T) {
	t.Parallel()
	inputs, err := filepath.Glob(filepath.Join("testdata", "schemas", "*.input.json"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".input.json")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range Providers {
				schema, warns := NormalizeSchema(rulesFor(p).Schema, raw)
				assertAcceptable(t, p, schema)
				var pretty bytes.Buffer
				if err := json.Indent(&pretty, schema, "", "  "); err != nil {
					t.Fatalf("%s: output is not JSON: %v", p, err)
				}
				got := "// warnings:\n"
				for _, w := range warns {
					got += "//   " + w + "\n"
				}
				got += pretty.String() + "\n"
				golden := filepath.Join("testdata", "schemas", name+"."+p+".golden")
				if *update {
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test -update to create it)", err)
				}
				if got != string(want) {
					t.Errorf("%s: %s differs from the golden file (go test -update rewrites it)\n got:\n%s\nwant:\n%s", p, golden, got, want)
				}
			}
		})
	}
}

// assertAcceptable checks the rules each provider enforces (see schema.go),
// so a schema that would be rejected fails here.
func assertAcceptable(t *testing.T, provider string, schema []byte) {
	t.Helper()
	var root map[string]any
	if err := json.Unmarshal(schema, &root); err != nil {
		t.Errorf("%s: schema is not a JSON object: %v: %s", provider, err, schema)
		return
	}
	if root["type"] != "object" {
		t.Errorf("%s: root type = %v; want object: %s", provider, root["type"], schema)
	}
	if _, ok := root["properties"].(map[string]any); !ok {
		t.Errorf("%s: root has no properties object: %s", provider, schema)
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if _, ok := root[k]; ok {
			t.Errorf("%s: root has %s: %s", provider, k, schema)
		}
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		node, ok := v.(map[string]any)
		if !ok {
			if _, isBool := v.(bool); isBool && provider != gem && strings.HasSuffix(path, "additionalProperties") {
				return
			}
			t.Errorf("%s: %s: schema is %T, not an object", provider, path, v)
			return
		}
		for _, k := range []string{"$ref", "$defs", "definitions", "$schema", "const"} {
			if _, ok := node[k]; ok {
				t.Errorf("%s: %s: has %q", provider, path, k)
			}
		}
		typ := node["type"]
		if provider == gem {
			if _, ok := typ.(string); !ok {
				if _, hasAnyOf := node["anyOf"]; !hasAnyOf {
					t.Errorf("%s: %s: type = %v; Gemini needs one type (or anyOf)", provider, path, typ)
				}
			}
			for k := range node {
				if !keepOpenAPI[k] && k != "nullable" {
					t.Errorf("%s: %s: keyword %q outside Gemini's subset", provider, path, k)
				}
			}
			if _, ok := node["oneOf"]; ok {
				t.Errorf("%s: %s: has oneOf", provider, path)
			}
		} else {
			for k := range node {
				if !keepJSON[k] {
					t.Errorf("%s: %s: keyword %q outside the kept set", provider, path, k)
				}
			}
		}
		isArray := typ == "array"
		if list, ok := typ.([]any); ok {
			for _, x := range list {
				isArray = isArray || x == "array"
			}
		}
		if provider == oa && isArray {
			if _, ok := node["items"]; !ok {
				t.Errorf("%s: %s: array schema missing items", provider, path)
			}
		}
		if props, ok := node["properties"].(map[string]any); ok {
			for name, p := range props {
				walk(path+"/properties/"+name, p)
			}
			if req, ok := node["required"].([]any); ok {
				for _, r := range req {
					if _, ok := props[r.(string)]; !ok {
						t.Errorf("%s: %s: required %q is not a property", provider, path, r)
					}
				}
			}
		} else if _, ok := node["required"]; ok {
			t.Errorf("%s: %s: required without properties", provider, path)
		}
		if items, ok := node["items"]; ok {
			walk(path+"/items", items)
		}
		if ap, ok := node["additionalProperties"]; ok {
			if _, isBool := ap.(bool); !isBool {
				walk(path+"/additionalProperties", ap)
			}
		}
		for _, k := range []string{"anyOf", "oneOf", "allOf"} {
			if arr, ok := node[k].([]any); ok {
				for i, b := range arr {
					walk(path+"/"+k+"/"+strconv.Itoa(i), b)
				}
			}
		}
	}
	walk("#", root)
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func containsSubstring(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
