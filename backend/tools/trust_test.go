package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"maestro/backend/chat"
)

func boolp(b bool) *bool { return &b }

func TestDefinitionHash(t *testing.T) {
	t.Parallel()
	base := chat.ToolDefinition{ConnectorID: "c1", Name: "rename_me", Description: "Rename a file.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"from":{"type":"string"},"to":{"type":"string"}}}`),
		Hints:       chat.ToolHints{ReadOnly: boolp(false)}}
	same := base
	same.InputSchema = json.RawMessage(`{"properties":{"to":{"type":"string"},"from":{"type":"string"}},  "type":"object"}`)
	if base.Hash() != same.Hash() {
		t.Error("the hash depends on the schema's key order or spacing")
	}
	for name, change := range map[string]func(*chat.ToolDefinition){
		"description": func(d *chat.ToolDefinition) { d.Description = "Delete every file." },
		"schema":      func(d *chat.ToolDefinition) { d.InputSchema = json.RawMessage(`{"type":"object"}`) },
		"annotations": func(d *chat.ToolDefinition) { d.Hints.Destructive = boolp(true) },
		"name":        func(d *chat.ToolDefinition) { d.Name = "rename_me_2" },
	} {
		d := base
		change(&d)
		if d.Hash() == base.Hash() {
			t.Errorf("a changed %s keeps the hash", name)
		}
	}
}

// TestTrustPinsAndGrants: a tool is pinned when first allowed; a changed
// definition is reported with a readable diff until it is allowed again; a
// grant for every chat is kept and can be revoked; Forget removes a
// connector's records.
func TestTrustPinsAndGrants(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	tr := NewTrust(openStore(t, ""))
	tr.now = func() time.Time { return time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC) }
	def := chat.ToolDefinition{ConnectorID: "c1", Name: "rename_me", Description: "Rename a file.\nKeeps its contents.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"from":{"type":"string"},"to":{"type":"string"}}}`),
		Hints:       chat.ToolHints{ReadOnly: boolp(false), Destructive: boolp(false)}}

	st, err := tr.Standing(ctx, def)
	if err != nil || st.AllChats || st.Changed != nil {
		t.Fatalf("before anything: %+v, %v", st, err)
	}
	if err := tr.Allowed(ctx, def, false); err != nil {
		t.Fatal(err)
	}
	if st, _ := tr.Standing(ctx, def); st.Changed != nil || st.AllChats {
		t.Fatalf("after allowing once: %+v", st)
	}

	evil := def
	evil.Description = "Delete every file.\nKeeps its contents."
	evil.InputSchema = json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)
	evil.Hints.Destructive = boolp(true)
	st, err = tr.Standing(ctx, evil)
	if err != nil || st.Changed == nil {
		t.Fatalf("changed definition: %+v, %v", st, err)
	}
	got, _ := json.MarshalIndent(st.Changed, "", "  ")
	golden := filepath.Join("testdata", "definition_change.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("change = %s\nwant %s", got, want)
	}

	if err := tr.Allowed(ctx, evil, true); err != nil {
		t.Fatal(err)
	}
	if st, _ := tr.Standing(ctx, evil); st.Changed != nil || !st.AllChats {
		t.Fatalf("after allowing the new definition in every chat: %+v", st)
	}
	if gs, err := tr.Grants(ctx, "c1"); err != nil || len(gs) != 1 || gs[0].Tool != "rename_me" {
		t.Errorf("grants = %+v, %v", gs, err)
	}
	if err := tr.Revoke(ctx, "c1", "rename_me"); err != nil {
		t.Fatal(err)
	}
	if st, _ := tr.Standing(ctx, evil); st.AllChats {
		t.Error("the grant survived Revoke")
	}
	if err := tr.Allowed(ctx, chat.ToolDefinition{ConnectorID: "c2", Name: "x"}, true); err != nil {
		t.Fatal(err)
	}
	if err := tr.Forget(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	if ps, _ := tr.Pins(ctx, "c1"); len(ps) != 0 {
		t.Errorf("pins after Forget = %+v", ps)
	}
	if ps, _ := tr.Pins(ctx, "c2"); len(ps) != 1 {
		t.Errorf("another connector's pins went too: %+v", ps)
	}
}

// A hostile definition of thousands of lines is diffed within bounds.
func TestLineDiffIsBounded(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("line\n", 5000)
	d := DiffDefinitions(chat.ToolDefinition{Description: long}, chat.ToolDefinition{Description: "x\n" + long})
	if len(d.Description) == 0 || len(d.Description) > 2*5002 {
		t.Fatalf("%d diff lines", len(d.Description))
	}
	added := 0
	for _, l := range d.Description {
		if l.Op == "+" && l.Text == "x" {
			added++
		}
	}
	if added != 1 {
		t.Errorf("the added line appears %d times", added)
	}
}
