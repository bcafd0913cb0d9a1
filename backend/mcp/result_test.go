package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
	"maestro/backend/tools"
)

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
				{Type: "resource_link", URI: "file:///a.txt", MIMEType: "text/plain", Name: "a.txt", Text: "a file"},
			}},
		},
		{
			name:      "large text truncated with a note",
			res:       &mcpgo.CallToolResult{Content: []mcpgo.Content{text(big)}},
			want:      chat.ToolResult{Successful: true, Truncated: true},
			wantNote:  "truncated: the result was 1.1 MiB; showing the first 32 KiB",
			wantLenLE: tools.DefaultResultCap,
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
			got := Normalize(tt.res, tools.ResultLimits{Model: tt.cap})
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
	got := Normalize(res, tools.ResultLimits{})
	want := `{"content":[{"type":"text","text":"hi"}],"isError":true}`
	if !jsonEqual(got.Raw, []byte(want)) {
		t.Errorf("raw = %s; want %s", got.Raw, want)
	}
}

// An embedded text resource reaches the model within the result cap, like
// the result's data: the texts of all attachments together.
func TestNormalizeCapsResourceTexts(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("r", 100<<10)
	res := &mcpgo.CallToolResult{Content: []mcpgo.Content{
		mcpgo.NewTextContent("two resources"),
		mcpgo.EmbeddedResource{Type: "resource", Resource: mcpgo.TextResourceContents{URI: "test://a", MIMEType: "text/plain", Text: huge}},
		mcpgo.EmbeddedResource{Type: "resource", Resource: mcpgo.TextResourceContents{URI: "test://b", MIMEType: "text/plain", Text: huge}},
	}}
	lim := tools.ResultLimits{Model: 8 << 10}
	got := Normalize(res, lim)
	total := 0
	for _, a := range got.Attachments {
		total += len(a.Text)
		if !strings.Contains(a.Text, "Maestro cut this resource for the model: it is 100 KiB") {
			t.Errorf("attachment %s text ends %q; want the cut note", a.URI, a.Text[max(0, len(a.Text)-120):])
		}
	}
	if max := lim.Model + 2*200; total > max {
		t.Errorf("attachment texts total %d bytes; want at most about %d", total, max)
	}
	if !got.Truncated {
		t.Error("Truncated = false; want true")
	}
}
