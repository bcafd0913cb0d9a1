package mcp

import (
	"encoding/json"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// TestToolsOf: a tools/list entry reaches the registry with its schemas as
// the server wrote them (raw bytes as they are, typed schemas marshalled),
// and its title and annotations.
func TestToolsOf(t *testing.T) {
	t.Parallel()
	typed := mcpgo.NewTool("read", mcpgo.WithDescription("Read"), mcpgo.WithString("path", mcpgo.Required()),
		mcpgo.WithTitleAnnotation("Read a file"), mcpgo.WithReadOnlyHintAnnotation(true))
	raw := mcpgo.NewToolWithRawSchema("query", "Run a query", json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`))
	raw.RawOutputSchema = json.RawMessage(`{"type":"object"}`)
	got := toolsOf([]mcpgo.Tool{typed, raw})
	if len(got) != 2 {
		t.Fatalf("got %d tools", len(got))
	}
	r := got[0]
	if r.Name != "read" || r.Description != "Read" || r.Annotations == nil || r.Annotations.Title != "Read a file" ||
		r.Annotations.ReadOnlyHint == nil || !*r.Annotations.ReadOnlyHint || r.OutputSchema != nil {
		t.Errorf("typed tool = %+v", r)
	}
	if !jsonEqual(r.InputSchema, []byte(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)) {
		t.Errorf("typed input schema = %s", r.InputSchema)
	}
	q := got[1]
	if string(q.InputSchema) != `{"type":"object","properties":{"q":{"type":"string"}}}` || string(q.OutputSchema) != `{"type":"object"}` {
		t.Errorf("raw tool schemas = %s, %s; want the bytes as given", q.InputSchema, q.OutputSchema)
	}
	if toolsOf(nil) != nil {
		t.Error("no list should stay nil (a connector with no tools)")
	}
}
