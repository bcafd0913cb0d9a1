package mcp

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
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

func TestNormalize(t *testing.T) {
	t.Parallel()
	text := func(s string) mcpgo.Content { return mcpgo.TextContent{Type: "text", Text: s} }
	big := strings.Repeat("ünïcödé line\n", 70_000) // about 1 MB
	tests := []struct {
		name      string
		res       *mcpgo.CallToolResult
		cap       int
		want      chat.ToolResult // Raw not compared
		wantNote  string          // for truncated data: the note
		wantLenLE int
		wantText  string // for truncated data: what the text starts with
	}{
		{
			name: "structured content wins",
			res: &mcpgo.CallToolResult{Content: []mcpgo.Content{text(`{"temperature": 22}`)},
				StructuredContent: map[string]any{"temperature": 22.5, "unit": "C"}},
			want: chat.ToolResult{Successful: true, Data: json.RawMessage(`{"temperature":22.5,"unit":"C"}`)},
		},
		{
			name: "raw structured content from the wire",
			res: &mcpgo.CallToolResult{Content: []mcpgo.Content{text("x")},
				RawStructuredContent: json.RawMessage(`{ "b": 1, "a": [1, 2] }`)},
			want: chat.ToolResult{Successful: true, Data: json.RawMessage(`{"b":1,"a":[1,2]}`)},
		},
		{
			name: "text that is a JSON object",
			res:  &mcpgo.CallToolResult{Content: []mcpgo.Content{text("  {\"files\": [\"a\", \"b\"]}\n")}},
			want: chat.ToolResult{Successful: true, Data: json.RawMessage(`{"files":["a","b"]}`)},
		},
		{
			name: "text that is a JSON array stays text",
			res:  &mcpgo.CallToolResult{Content: []mcpgo.Content{text(`["a","b"]`)}},
			want: chat.ToolResult{Successful: true, Data: json.RawMessage(`{"text":"[\"a\",\"b\"]"}`)},
		},
		{
			name: "plain text parts joined",
			res:  &mcpgo.CallToolResult{Content: []mcpgo.Content{text("Echo: hi"), &mcpgo.TextContent{Type: "text", Text: "second"}}},
			want: chat.ToolResult{Successful: true, Data: json.RawMessage(`{"text":"Echo: hi\nsecond"}`)},
		},
		{
			name: "no content",
			res:  &mcpgo.CallToolResult{},
			want: chat.ToolResult{Successful: true, Data: json.RawMessage(`{}`)},
		},
		{
			name: "error text",
			res:  &mcpgo.CallToolResult{IsError: true, Content: []mcpgo.Content{text("ENOENT: no such file"), text("/tmp/x")}},
			want: chat.ToolResult{Successful: false, Error: "ENOENT: no such file\n/tmp/x"},
		},
		{
			name: "error without text",
			res:  &mcpgo.CallToolResult{IsError: true},
			want: chat.ToolResult{Successful: false, Error: "the tool reported an error without a message"},
		},
		{
			name: "error with structured content keeps the data",
			res:  &mcpgo.CallToolResult{IsError: true, Content: []mcpgo.Content{text("quota")}, StructuredContent: map[string]any{"retryAfter": 30}},
			want: chat.ToolResult{Successful: false, Error: "quota", Data: json.RawMessage(`{"retryAfter":30}`)},
		},
		{
			name: "images, audio and resources become attachments",
			res: &mcpgo.CallToolResult{Content: []mcpgo.Content{
				text("here"),
				mcpgo.ImageContent{Type: "image", Data: "iVBORw0KGgo=", MIMEType: "image/png"},
				mcpgo.AudioContent{Type: "audio", Data: "UklGR", MIMEType: "audio/wav"},
				mcpgo.EmbeddedResource{Type: "resource", Resource: mcpgo.TextResourceContents{URI: "test://static/resource/1", MIMEType: "text/plain", Text: "Resource 1"}},
				mcpgo.EmbeddedResource{Type: "resource", Resource: mcpgo.BlobResourceContents{URI: "test://b", MIMEType: "application/octet-stream", Blob: "AAEC"}},
				mcpgo.ResourceLink{Type: "resource_link", URI: "file:///a.txt", Name: "a.txt", MIMEType: "text/plain", Description: "a file"},
			}},
			want: chat.ToolResult{Successful: true, Data: json.RawMessage(`{"text":"here"}`), Attachments: []chat.Attachment{
				{Type: "image", MIMEType: "image/png", Data: "iVBORw0KGgo="},
				{Type: "audio", MIMEType: "audio/wav", Data: "UklGR"},
				{Type: "resource", URI: "test://static/resource/1", MIMEType: "text/plain", Text: "Resource 1"},
				{Type: "resource", URI: "test://b", MIMEType: "application/octet-stream", Data: "AAEC"},
				{Type: "resource", URI: "file:///a.txt", MIMEType: "text/plain", Name: "a.txt", Text: "a file"},
			}},
		},
		{
			name:      "large text truncated with a note",
			res:       &mcpgo.CallToolResult{Content: []mcpgo.Content{text(big)}},
			want:      chat.ToolResult{Successful: true, Truncated: true},
			wantNote:  "truncated: the result was 1.1 MiB; showing the first 32 KiB",
			wantLenLE: DefaultResultCap,
			wantText:  "ünïcödé line\nünïcödé line\n",
		},
		{
			name:      "large structured content truncated",
			res:       &mcpgo.CallToolResult{StructuredContent: map[string]any{"rows": strings.Split(strings.Repeat("row,", 5000), ",")}},
			cap:       4096,
			want:      chat.ToolResult{Successful: true, Truncated: true},
			wantNote:  "truncated: the result was 29 KiB; showing the first 4.0 KiB",
			wantLenLE: 4096,
			wantText:  `{"rows":["row","row",`,
		},
		{
			name: "large error truncated",
			res:  &mcpgo.CallToolResult{IsError: true, Content: []mcpgo.Content{text(strings.Repeat("e", 5000))}},
			cap:  1000,
			want: chat.ToolResult{Successful: false, Truncated: true,
				Error: strings.Repeat("e", 1000) + "\n[truncated: the result was 4.9 KiB; showing the first 1000 bytes]"},
		},
		{
			name: "nil result",
			res:  nil,
			want: chat.ToolResult{Successful: false, Error: "the tool returned no result"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Normalize(tt.res, ResultLimits{Model: tt.cap})
			if got.Successful != tt.want.Successful || got.Error != tt.want.Error || got.Truncated != tt.want.Truncated {
				t.Errorf("Normalize: successful=%v error=%q truncated=%v; want %v %q %v",
					got.Successful, clip(got.Error, 200), got.Truncated, tt.want.Successful, clip(tt.want.Error, 200), tt.want.Truncated)
			}
			if tt.wantNote != "" {
				var d struct{ Text, Note string }
				if err := json.Unmarshal(got.Data, &d); err != nil {
					t.Fatalf("truncated data is not {text, note}: %v: %s", err, clip(string(got.Data), 200))
				}
				if d.Note != tt.wantNote {
					t.Errorf("note = %q; want %q", d.Note, tt.wantNote)
				}
				if len(got.Data) > tt.wantLenLE {
					t.Errorf("truncated data is %d bytes; want at most %d", len(got.Data), tt.wantLenLE)
				}
				if len(got.Data) < tt.wantLenLE*9/10 {
					t.Errorf("truncated data is %d bytes; want close to %d", len(got.Data), tt.wantLenLE)
				}
				if !strings.HasPrefix(d.Text, tt.wantText) {
					t.Errorf("truncated text starts %q; want %q", clip(d.Text, 40), tt.wantText)
				}
			} else if !jsonEqual(got.Data, tt.want.Data) && !(got.Data == nil && tt.want.Data == nil) {
				t.Errorf("data = %s; want %s", got.Data, tt.want.Data)
			}
			if len(got.Attachments) != len(tt.want.Attachments) {
				t.Fatalf("attachments = %+v; want %+v", got.Attachments, tt.want.Attachments)
			}
			for i := range got.Attachments {
				if got.Attachments[i] != tt.want.Attachments[i] {
					t.Errorf("attachment %d = %+v; want %+v", i, got.Attachments[i], tt.want.Attachments[i])
				}
			}
			if tt.res != nil && !json.Valid(got.Raw) {
				t.Errorf("raw = %s; want the result as JSON", clip(string(got.Raw), 200))
			}
			if strings.Contains(string(got.Data), "iVBORw0KGgo") {
				t.Errorf("image base64 leaked into data: %s", got.Data)
			}
		})
	}
}

func TestNormalizeRawIsTheResult(t *testing.T) {
	t.Parallel()
	res := &mcpgo.CallToolResult{Content: []mcpgo.Content{mcpgo.TextContent{Type: "text", Text: "hi"}}, IsError: true}
	got := Normalize(res, ResultLimits{})
	want := `{"content":[{"type":"text","text":"hi"}],"isError":true}`
	if !jsonEqual(got.Raw, []byte(want)) {
		t.Errorf("raw = %s; want %s", got.Raw, want)
	}
}

func TestErrorResult(t *testing.T) {
	t.Parallel()
	got := ErrorResult("c1", "github.create_issue", UnauthorizedMessage("GitHub"))
	want := chat.ToolResult{CallID: "c1", Name: "github.create_issue", Successful: false, Error: "unauthorized: sign in to GitHub"}
	if got.CallID != want.CallID || got.Name != want.Name || got.Successful || got.Error != want.Error || got.Data != nil {
		t.Errorf("ErrorResult = %+v; want %+v", got, want)
	}
}

func TestHumanSize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n    int
		want string
	}{
		{0, "0 bytes"}, {1023, "1023 bytes"}, {1024, "1.0 KiB"}, {32 << 10, "32 KiB"},
		{812 << 10, "812 KiB"}, {1 << 20, "1.0 MiB"}, {15 << 20, "15 MiB"},
	}
	for _, tt := range tests {
		if got := humanSize(tt.n); got != tt.want {
			t.Errorf("humanSize(%d) = %q; want %q", tt.n, got, tt.want)
		}
	}
}
