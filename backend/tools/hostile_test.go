package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"maestro/backend/mcp/hostile"
)

// hostileSnapshot is the snapshot of a session that has the hostile
// server's tools (backend/mcp/hostile), listed in process.
func hostileSnapshot(t *testing.T, opts hostile.Options) Snapshot {
	t.Helper()
	st := openStore(t, "")
	r := newTestRegistry(st)
	if err := r.SetConnectorTools(t.Context(), "c-hostile", "Hostile", listTools(t, hostile.New(opts))); err != nil {
		t.Fatal(err)
	}
	snap, err := r.Snapshot(t.Context(), newSession(t, st, "c-hostile").ID)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// TestHostileDeepSchema: an input schema nested about 10,000 levels deep
// is normalised for every provider into valid, bounded JSON, and arguments
// are checked against it. (backend/mcp tests what its reader does with it
// over stdio.)
func TestHostileDeepSchema(t *testing.T) {
	t.Parallel()
	snap := hostileSnapshot(t, hostile.Options{DeepSchema: true})
	e, ok := snap.Lookup("hostile.deep_schema")
	if !ok {
		t.Fatal("deep_schema is not in the snapshot")
	}
	for _, p := range Providers {
		if s := e.Schema(p); !json.Valid(s) || len(s) > 1<<20 {
			t.Errorf("%s schema: %d bytes, valid %v", p, len(s), json.Valid(s))
		}
	}
	if err := ValidateArguments(e.InputSchema, json.RawMessage(`{"a":{"a":{}}}`)); err != nil {
		t.Errorf("ValidateArguments: %v", err)
	}
}

// TestHostileNames: the hostile server's tools whose names collide once
// sanitised (get_data, get-data, get.data), one that looks like another
// (Cyrillic а) and one too long: every provider gets distinct names that
// resolve back to the right tool.
func TestHostileNames(t *testing.T) {
	t.Parallel()
	snap := hostileSnapshot(t, hostile.Options{})
	tools := []string{"get_data", "get-data", "get.data", hostile.LookAlike, strings.Repeat("long_", 20)}
	for _, p := range Providers {
		seen := map[string]string{}
		for _, tool := range tools {
			e, ok := snap.Lookup("hostile." + tool)
			if !ok {
				t.Fatalf("no hostile.%s", tool)
			}
			name := e.Name(p)
			if prev, dup := seen[name]; dup {
				t.Errorf("%s: %q and %q both exposed as %q", p, prev, tool, name)
			}
			seen[name] = tool
			if !ValidName(rulesFor(p), name) {
				t.Errorf("%s: %q is not a valid name", p, name)
			}
			if back, ok := snap.Resolve(p, name); !ok || back.Tool != tool {
				t.Errorf("%s: %q resolves to %q; want %q", p, name, back.Tool, tool)
			}
		}
	}
}
