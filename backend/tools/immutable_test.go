package tools

import (
	"encoding/json"
	"slices"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// TestSnapshotIsSharedAndImmutable: Snapshot hands out the registry's own
// snapshot without copying it, and a snapshot a caller holds never changes,
// whatever happens to the session afterwards (a tool toggled, a search's
// finds recorded, a connector's list changed).
func TestSnapshotIsSharedAndImmutable(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	st := openStore(t, "")
	r := newTestRegistry(st)
	fs := newServer("fs", readFileTool(), writeFileTool())
	if err := r.SetConnectorTools(ctx, "c-fs", "Files", listTools(t, fs)); err != nil {
		t.Fatal(err)
	}
	sess := newSession(t, st, "c-fs")
	held, err := r.Snapshot(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := r.Snapshot(ctx, sess.ID)
	if &held.Entries[0] != &again.Entries[0] {
		t.Error("two Snapshot calls returned copies; want the registry's snapshot shared")
	}
	before := slices.Clone(held.Entries)
	beforeFound := slices.Clone(held.Found)

	if _, err := r.SetToolEnabled(ctx, sess.ID, "files.write_file", false); err != nil {
		t.Fatal(err)
	}
	if _, err := r.SearchTools(ctx, sess.ID, "anthropic", json.RawMessage(`{"query":"read"}`)); err != nil {
		t.Fatal(err)
	}
	fs.AddTool(mcpgo.NewTool("delete_file"), noop)
	if err := r.SetConnectorTools(ctx, "c-fs", "Files", listTools(t, fs)); err != nil {
		t.Fatal(err)
	}
	now, _ := r.Snapshot(ctx, sess.ID)
	if now.Revision == held.Revision {
		t.Fatalf("revision stayed %d; the changes did not apply", now.Revision)
	}
	if !slices.EqualFunc(held.Entries, before, sameEntry) || !slices.Equal(held.Found, beforeFound) {
		t.Errorf("the held snapshot changed: %v → %v", canonicals(Snapshot{Entries: before}), canonicals(held))
	}
}
