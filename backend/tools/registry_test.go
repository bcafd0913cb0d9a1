package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
	"maestro/backend/store"
)

func readFileTool() mcpgo.Tool {
	return mcpgo.NewTool("read_file", mcpgo.WithDescription("Read a file"),
		mcpgo.WithString("path", mcpgo.Required()), mcpgo.WithNumber("head"), mcpgo.WithReadOnlyHintAnnotation(true))
}

func writeFileTool() mcpgo.Tool {
	return mcpgo.NewTool("write_file", mcpgo.WithDescription("Write a file"),
		mcpgo.WithString("path", mcpgo.Required()), mcpgo.WithString("content", mcpgo.Required()))
}

// canonicals lists a snapshot's canonical names.
func canonicals(s Snapshot) []string {
	out := make([]string, len(s.Entries))
	for i, e := range s.Entries {
		out[i] = e.Canonical
	}
	return out
}

// checkStored asserts that the store agrees with the registry: the
// session's ToolsRevision and the stored snapshot both carry rev.
func checkStored(t *testing.T, st *store.Store, sessionID string, rev int64) {
	t.Helper()
	ctx := context.Background()
	sess, err := st.Session(ctx, sessionID)
	if err != nil {
		t.Fatalf("store session: %v", err)
	}
	if sess.ToolsRevision != rev {
		t.Errorf("stored session ToolsRevision = %d; want %d", sess.ToolsRevision, rev)
	}
	var stored storedSnapshot
	if err := st.RegistrySnapshot(ctx, sessionID, &stored); err != nil {
		t.Fatalf("stored snapshot: %v", err)
	}
	if stored.Revision != rev {
		t.Errorf("stored snapshot revision = %d; want %d", stored.Revision, rev)
	}
}

func TestRegistryRevisions(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	st := openStore(t, "")
	r := newTestRegistry(st)

	fs := newServer("fs", readFileTool(), writeFileTool())
	other := newServer("other", mcpgo.NewTool("ping", mcpgo.WithDescription("Ping")))
	if err := r.SetConnectorTools(ctx, "c-fs", "Files", listTools(t, fs)); err != nil {
		t.Fatal(err)
	}
	if err := r.SetConnectorTools(ctx, "c-other", "Other", listTools(t, other)); err != nil {
		t.Fatal(err)
	}
	sess := newSession(t, st, "c-fs")

	check := func(step string, gotRev int64, err error, wantRev int64, want ...string) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		snap, err := r.Snapshot(ctx, sess.ID)
		if err != nil {
			t.Fatalf("%s: Snapshot: %v", step, err)
		}
		if gotRev != wantRev || snap.Revision != wantRev {
			t.Errorf("%s: revision = %d (snapshot %d); want %d", step, gotRev, snap.Revision, wantRev)
		}
		if got := canonicals(snap); !slices.Equal(got, want) {
			t.Errorf("%s: tools = %q; want %q", step, got, want)
		}
		checkStored(t, st, sess.ID, wantRev)
	}
	rev := func() int64 {
		snap, err := r.Snapshot(ctx, sess.ID)
		if err != nil {
			t.Fatal(err)
		}
		return snap.Revision
	}

	check("first load", rev(), nil, 1, "files.read_file", "files.write_file")

	got, err := r.SetConnectorEnabled(ctx, sess.ID, "c-fs", true)
	check("no-op connector toggle", got, err, 1, "files.read_file", "files.write_file")

	got, err = r.SetToolEnabled(ctx, sess.ID, "files.write_file", false)
	check("tool off", got, err, 2, "files.read_file")

	got, err = r.SetToolEnabled(ctx, sess.ID, "files.write_file", false)
	check("no-op tool toggle", got, err, 2, "files.read_file")

	other.AddTool(mcpgo.NewTool("pong"), noop)
	err = r.SetConnectorTools(ctx, "c-other", "Other", listTools(t, other))
	check("unrelated connector's list changed", rev(), err, 2, "files.read_file")

	err = r.SetConnectorTools(ctx, "c-fs", "Files", listTools(t, fs))
	check("same list announced again", rev(), err, 2, "files.read_file")

	fs.AddTool(mcpgo.NewTool("delete_file", mcpgo.WithString("path", mcpgo.Required())), noop)
	err = r.SetConnectorTools(ctx, "c-fs", "Files", listTools(t, fs))
	check("list_changed adds a tool", rev(), err, 3, "files.delete_file", "files.read_file")

	fs.DeleteTools("write_file")
	err = r.SetConnectorTools(ctx, "c-fs", "Files", listTools(t, fs))
	check("a disabled tool disappears", rev(), err, 3, "files.delete_file", "files.read_file")

	fs.AddTool(writeFileTool(), noop)
	err = r.SetConnectorTools(ctx, "c-fs", "Files", listTools(t, fs))
	check("a disabled tool comes back disabled", rev(), err, 3, "files.delete_file", "files.read_file")

	got, err = r.SetToolEnabled(ctx, sess.ID, "files.write_file", true)
	check("tool on", got, err, 4, "files.delete_file", "files.read_file", "files.write_file")

	got, err = r.SetConnectorEnabled(ctx, sess.ID, "c-other", true)
	check("second connector on", got, err, 5, "files.delete_file", "files.read_file", "files.write_file", "other.ping", "other.pong")

	fs.AddTool(mcpgo.NewTool("read_file", mcpgo.WithDescription("Read a text file"), mcpgo.WithString("path", mcpgo.Required())), noop)
	err = r.SetConnectorTools(ctx, "c-fs", "Files", listTools(t, fs))
	check("a description changed", rev(), err, 6, "files.delete_file", "files.read_file", "files.write_file", "other.ping", "other.pong")

	err = r.RemoveConnector(ctx, "c-other")
	check("connector removed", rev(), err, 7, "files.delete_file", "files.read_file", "files.write_file")

	got, err = r.SetConnectorEnabled(ctx, sess.ID, "c-fs", false)
	check("connector off", got, err, 8)

	stored, err := st.Session(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"c-other"}; !slices.Equal(stored.EnabledConnectors, want) {
		t.Errorf("stored EnabledConnectors = %q; want %q", stored.EnabledConnectors, want)
	}
}

func TestRegistryReload(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	dir := t.TempDir()
	st, err := store.Open(ctx, dir, store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	fs := newServer("fs", readFileTool(), writeFileTool(),
		mcpgo.NewToolWithRawSchema("query", "Run a <query> & return rows", json.RawMessage(
			`{"type":"object","properties":{"sql":{"type":"string","description":"a <b> & c"},"opts":{"$ref":"#/$defs/O"}},"$defs":{"O":{"type":"object","properties":{"n":{"type":["integer","null"]}}}}}`)))
	tools := listTools(t, fs)
	r := newTestRegistry(st)
	if err := r.SetConnectorTools(ctx, "c-fs", "My Files ✓", tools); err != nil {
		t.Fatal(err)
	}
	sess := newSession(t, st, "c-fs")
	if _, err := r.SetToolEnabled(ctx, sess.ID, "my_files.write_file", false); err != nil {
		t.Fatal(err)
	}
	if _, err := r.SearchTools(ctx, sess.ID, chat.ProviderOpenAI, json.RawMessage(`{"query":"rows"}`)); err != nil {
		t.Fatal(err)
	}
	before, err := r.Snapshot(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if before.Revision != 3 || len(before.Found) != 1 {
		t.Fatalf("before restart: revision %d, found %q; want 3 and one tool", before.Revision, before.Found)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	// A restart: a new Registry on the same file.
	st = openStore(t, dir)
	r = newTestRegistry(st)
	same := func(step string) {
		t.Helper()
		after, err := r.Snapshot(ctx, sess.ID)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if after.Revision != before.Revision {
			t.Errorf("%s: revision = %d; want %d", step, after.Revision, before.Revision)
		}
		if !reflect.DeepEqual(after.Entries, before.Entries) {
			t.Errorf("%s: entries differ:\n got %+v\nwant %+v", step, after.Entries, before.Entries)
		}
		if !slices.Equal(after.Found, before.Found) {
			t.Errorf("%s: found = %q; want %q", step, after.Found, before.Found)
		}
		checkStored(t, st, sess.ID, before.Revision)
	}
	same("before the connector reports")
	if err := r.SetConnectorTools(ctx, "c-fs", "My Files ✓", listTools(t, fs)); err != nil {
		t.Fatal(err)
	}
	same("after the connector reports the same tools")

	fs.DeleteTools("query")
	if err := r.SetConnectorTools(ctx, "c-fs", "My Files ✓", listTools(t, fs)); err != nil {
		t.Fatal(err)
	}
	after, err := r.Snapshot(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Revision != before.Revision+1 || len(after.Found) != 0 {
		t.Errorf("after a tool went away: revision %d, found %q; want %d and none", after.Revision, after.Found, before.Revision+1)
	}
}

// failingStore fails PutRegistrySnapshot on demand, to act out a crash
// between the session write and the snapshot write.
type failingStore struct {
	*store.Store
	mu      sync.Mutex
	failPut bool
}

func (f *failingStore) PutRegistrySnapshot(ctx context.Context, id string, v any) error {
	f.mu.Lock()
	fail := f.failPut
	f.mu.Unlock()
	if fail {
		return errors.New("disk on fire")
	}
	return f.Store.PutRegistrySnapshot(ctx, id, v)
}

func TestRegistryWriteOrderNeverLowersRevision(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	st := openStore(t, "")
	fst := &failingStore{Store: st}
	r := newTestRegistry(fst)
	tools := listTools(t, newServer("fs", readFileTool(), writeFileTool()))
	if err := r.SetConnectorTools(ctx, "c-fs", "fs", tools); err != nil {
		t.Fatal(err)
	}
	sess := newSession(t, st, "c-fs")
	if _, err := r.Snapshot(ctx, sess.ID); err != nil {
		t.Fatal(err)
	}

	fst.failPut = true
	if _, err := r.SetToolEnabled(ctx, sess.ID, "fs.write_file", false); err == nil {
		t.Fatal("SetToolEnabled with a failing snapshot write = nil error; want the error")
	}
	fst.failPut = false
	stored, err := st.Session(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if stored.ToolsRevision != 2 {
		t.Fatalf("session written first: ToolsRevision = %d; want 2", stored.ToolsRevision)
	}

	// A change that leaves the tools as they were (a connector that has not
	// reported) fails the same way: only the revisions disagree.
	if _, err := r.Snapshot(ctx, sess.ID); err != nil {
		t.Fatal(err)
	}
	fst.failPut = true
	if _, err := r.SetConnectorEnabled(ctx, sess.ID, "c-ghost", true); err == nil {
		t.Fatal("SetConnectorEnabled with a failing snapshot write = nil error; want the error")
	}
	fst.failPut = false
	if stored, _ := st.Session(ctx, sess.ID); stored.ToolsRevision != 3 {
		t.Fatalf("ToolsRevision = %d; want 3", stored.ToolsRevision)
	}

	for _, tc := range []struct {
		name string
		r    *Registry
	}{{"same registry, reloaded", r}, {"new registry (restart)", newTestRegistry(st)}} {
		if err := tc.r.SetConnectorTools(ctx, "c-fs", "fs", tools); err != nil {
			t.Fatal(err)
		}
		snap, err := tc.r.Snapshot(ctx, sess.ID)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if snap.Revision < 3 {
			t.Errorf("%s: revision = %d; want at least the session's 3", tc.name, snap.Revision)
		}
		if got, want := canonicals(snap), []string{"fs.read_file"}; !slices.Equal(got, want) {
			t.Errorf("%s: tools = %q; want %q (the toggle was written with the session)", tc.name, got, want)
		}
		checkStored(t, st, sess.ID, snap.Revision)
	}
}

func TestRegistry500Tools(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	st := openStore(t, "")
	r := newTestRegistry(st)
	var ids []string
	const special = "Reconcile the greenhouse humidity ledger against the sensor readings."
	for s := range 5 {
		tools := genTools(s, 100)
		if s == 3 {
			tools[42].Description = special
		}
		id := fmt.Sprintf("conn-%d", s)
		ids = append(ids, id)
		if err := r.SetConnectorTools(ctx, id, fmt.Sprintf("Workspace %d", s), listTools(t, newServer(id, tools...))); err != nil {
			t.Fatal(err)
		}
	}
	sess := newSession(t, st, ids...)
	snap, err := r.Snapshot(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Entries) != 500 {
		t.Fatalf("snapshot has %d tools; want 500", len(snap.Entries))
	}
	for _, p := range Providers {
		tools, names := snap.Overlay(p, nil)
		if len(tools) > snap.Budget(p) || len(tools) != 1 || tools[0].Name != SearchToolName {
			t.Errorf("%s: overlay has %d tools (first %q); want only search_tools within %d", p, len(tools), tools[0].Name, snap.Budget(p))
		}
		if len(names) != 501 {
			t.Errorf("%s: names map has %d entries; want 500 tools + search_tools", p, len(names))
		}
		var canon, exposed []string
		for c, n := range names {
			if c != SearchToolName {
				canon, exposed = append(canon, c), append(exposed, n)
			}
		}
		checkNames(t, p, canon, exposed)
	}

	res, err := r.SearchTools(ctx, sess.ID, chat.ProviderOpenAI, json.RawMessage(`{"query":"greenhouse humidity","limit":3}`))
	if err != nil {
		t.Fatal(err)
	}
	var data struct {
		Tools []Descriptor `json:"tools"`
		Note  string       `json:"note"`
	}
	if err := json.Unmarshal(res.Data, &data); err != nil || !res.Successful {
		t.Fatalf("search_tools result %+v: %v", res, err)
	}
	wantName := "workspace_3__list_event_42"
	if len(data.Tools) == 0 || data.Tools[0].Name != wantName {
		t.Fatalf("search_tools found %+v; want %s first", data.Tools, wantName)
	}
	d := data.Tools[0]
	if d.Server != "Workspace 3" || d.Description != special ||
		d.Signature != wantName+`(id: string, limit?: number, mode?: "fast" | "full")` ||
		!strings.Contains(d.Parameters, "- id (string, required): The event id") {
		t.Errorf("descriptor = %+v; want server, description, signature and parameter docs", d)
	}

	next, err := r.Snapshot(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if next.Revision != snap.Revision+1 {
		t.Errorf("revision after search_tools = %d; want %d", next.Revision, snap.Revision+1)
	}
	tools, names := next.Overlay(chat.ProviderOpenAI, nil)
	if len(tools) > rulesFor(chat.ProviderOpenAI).MaxTools || !slices.ContainsFunc(tools, func(t chat.Tool) bool { return t.Name == wantName }) {
		t.Errorf("overlay after search_tools has %d tools, without %s", len(tools), wantName)
	}
	e, ok := next.Resolve(chat.ProviderOpenAI, wantName)
	if !ok || e.ConnectorID != "conn-3" || e.Tool != "list_event_42" || names[e.Canonical] != wantName {
		t.Errorf("Resolve(%s) = %+v, %v; want conn-3's list_event_42", wantName, e, ok)
	}

	// The same search again changes nothing.
	if _, err := r.SearchTools(ctx, sess.ID, chat.ProviderOpenAI, json.RawMessage(`{"query":"greenhouse humidity","limit":3}`)); err != nil {
		t.Fatal(err)
	}
	if again, _ := r.Snapshot(ctx, sess.ID); again.Revision != next.Revision {
		t.Errorf("revision after a repeated search = %d; want %d", again.Revision, next.Revision)
	}

	// Used tools fill the overlay, but never past the budget.
	var used []string
	for _, e := range next.Entries[:300] {
		used = append(used, e.Canonical)
	}
	for _, p := range Providers {
		tools, _ := next.Overlay(p, used)
		if len(tools) != next.Budget(p) {
			t.Errorf("%s: overlay with 300 used tools has %d; want exactly the budget %d", p, len(tools), next.Budget(p))
		}
		if tools[0].Name != SearchToolName {
			t.Errorf("%s: first tool %q; want search_tools", p, tools[0].Name)
		}
		found := next.Entries[next.byCanonical["workspace_3.list_event_42"]].Name(p)
		if !slices.ContainsFunc(tools, func(t chat.Tool) bool { return t.Name == found }) {
			t.Errorf("%s: the found tool %s lost its place to used tools", p, found)
		}
		for _, tool := range tools[1:] {
			if _, ok := next.Resolve(p, tool.Name); !ok {
				t.Errorf("%s: declared %q does not resolve", p, tool.Name)
			}
		}
	}

	// A larger budget declares everything.
	big := NewRegistry(st, []chat.ToolRules{withMaxTools(rulesFor(chat.ProviderOpenAI), 1000)})
	for s, id := range ids {
		if err := big.SetConnectorTools(ctx, id, fmt.Sprintf("Workspace %d", s), listTools(t, newServer(id, genTools(s, 100)...))); err != nil {
			t.Fatal(err)
		}
	}
	all, err := big.Snapshot(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if tools, _ := all.Overlay(chat.ProviderOpenAI, nil); len(tools) != 500 || slices.ContainsFunc(tools, func(t chat.Tool) bool { return t.Name == SearchToolName }) {
		t.Errorf("overlay within budget has %d tools; want all 500 and no search_tools", len(tools))
	}
}

func TestOverlayDeclarations(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	st := openStore(t, "")
	r := newTestRegistry(st)
	fs := listTools(t, newServer("fs", readFileTool(), mcpgo.NewTool("stat")))
	if err := r.SetConnectorTools(ctx, "c1", "Files", fs); err != nil {
		t.Fatal(err)
	}
	sess := newSession(t, st, "c1")
	snap, err := r.Snapshot(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range Providers {
		tools, names := snap.Overlay(p, nil)
		if len(tools) != 2 {
			t.Fatalf("%s: %d tools; want 2", p, len(tools))
		}
		want := []chat.Tool{
			{Name: "files__read_file", Canonical: "files.read_file", Description: "Read a file (via Files)"},
			{Name: "files__stat", Canonical: "files.stat", Description: "stat (via Files)"},
		}
		for i, w := range want {
			got := tools[i]
			if got.Name != w.Name || got.Canonical != w.Canonical || got.Description != w.Description {
				t.Errorf("%s: tool %d = %s %s %q; want %s %s %q", p, i, got.Name, got.Canonical, got.Description, w.Name, w.Canonical, w.Description)
			}
			if names[w.Canonical] != w.Name {
				t.Errorf("%s: names[%s] = %q; want %q", p, w.Canonical, names[w.Canonical], w.Name)
			}
			assertAcceptable(t, p, got.InputSchema)
		}
		if !jsonEqual(tools[0].InputSchema, []byte(`{"type":"object","properties":{"path":{"type":"string"},"head":{"type":"number"}},"required":["path"]}`)) {
			t.Errorf("%s: read_file schema = %s", p, tools[0].InputSchema)
		}
	}
	e, ok := snap.Lookup("files.read_file")
	if !ok || !e.ReadOnlyHint() || e.Annotations == nil {
		t.Errorf("Lookup(files.read_file) = %+v, %v; want the read-only entry", e, ok)
	}
	if _, ok := snap.Resolve(chat.ProviderOpenAI, "files__nope"); ok {
		t.Error("Resolve of an unknown name = true; want false")
	}
	if e, ok := snap.Resolve(chat.ProviderGemini, SearchToolName); !ok || !e.Builtin {
		t.Errorf("Resolve(search_tools) = %+v, %v; want the built-in entry", e, ok)
	}
	// Unknown providers get OpenAI's names and budget.
	if tools, _ := snap.Overlay("fake", nil); len(tools) != 2 || tools[0].Name != "files__read_file" {
		t.Errorf("overlay for an unknown provider = %+v", tools)
	}
}

func TestRegistrySlugCollision(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	st := openStore(t, "")
	r := newTestRegistry(st)
	echo := mcpgo.NewTool("echo", mcpgo.WithString("message"))
	// Ids sort in creation order; the older connector keeps the bare slug.
	if err := r.SetConnectorTools(ctx, "c2-new", "my_server", listTools(t, newServer("b", echo))); err != nil {
		t.Fatal(err)
	}
	if err := r.SetConnectorTools(ctx, "c1-old", "my-server", listTools(t, newServer("a", echo))); err != nil {
		t.Fatal(err)
	}
	sess := newSession(t, st, "c1-old", "c2-new")
	snap, err := r.Snapshot(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := canonicals(snap)
	if len(got) != 2 || got[0] != "my_server.echo" || !strings.HasPrefix(got[1], "my_server_") {
		t.Fatalf("canonicals = %q; want my_server.echo and my_server_<hash>.echo", got)
	}
	if e, _ := snap.Lookup("my_server.echo"); e.ConnectorID != "c1-old" {
		t.Errorf("the bare slug went to %s; want the older c1-old", e.ConnectorID)
	}
	for _, p := range Providers {
		_, names := snap.Overlay(p, nil)
		if names[got[0]] == names[got[1]] {
			t.Errorf("%s: both servers exposed as %q", p, names[got[0]])
		}
	}
}

func TestRegistryErrors(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	st := openStore(t, "")
	r := newTestRegistry(st)
	sess := newSession(t, st)
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"unknown session", func() error { _, err := r.Snapshot(ctx, "nope"); return err }(), chat.ErrNotFound},
		{"toggle in unknown session", func() error { _, err := r.SetConnectorEnabled(ctx, "nope", "c", true); return err }(), chat.ErrNotFound},
		{"tool name without server", func() error { _, err := r.SetToolEnabled(ctx, sess.ID, "read_file", false); return err }(), chat.ErrInvalid},
		{"empty connector id", r.SetConnectorTools(ctx, "", "x", nil), chat.ErrInvalid},
		{"empty connector id toggle", func() error { _, err := r.SetConnectorEnabled(ctx, sess.ID, "", true); return err }(), chat.ErrInvalid},
	}
	for _, tt := range tests {
		if !errors.Is(tt.err, tt.want) {
			t.Errorf("%s: error %v; want %v", tt.name, tt.err, tt.want)
		}
	}
	for _, args := range []string{`{}`, `{"query":""}`, `{"query":3}`, `[1]`, `{"query":"x","limit":"many"}`} {
		res, err := r.SearchTools(ctx, sess.ID, chat.ProviderOpenAI, json.RawMessage(args))
		if err != nil || res.Successful || !strings.HasPrefix(res.Error, "invalid arguments") {
			t.Errorf("SearchTools(%s) = %+v, %v; want an unsuccessful result about the arguments", args, res, err)
		}
	}
	res, err := r.SearchTools(ctx, sess.ID, chat.ProviderOpenAI, json.RawMessage(`{"query":"anything"}`))
	if err != nil || !res.Successful || !strings.Contains(string(res.Data), "No tool matched") {
		t.Errorf("SearchTools with no tools = %+v, %v; want a successful empty answer", res, err)
	}
}

func TestSnapshotIsACopy(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	st := openStore(t, "")
	r := newTestRegistry(st)
	if err := r.SetConnectorTools(ctx, "c", "fs", listTools(t, newServer("fs", readFileTool(), writeFileTool()))); err != nil {
		t.Fatal(err)
	}
	sess := newSession(t, st, "c")
	first, err := r.Snapshot(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	first.Entries[0].Tool = "changed"
	first.Entries = first.Entries[:0]
	if _, err := r.SetToolEnabled(ctx, sess.ID, "fs.read_file", false); err != nil {
		t.Fatal(err)
	}
	again, err := r.Snapshot(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Entries) != 1 || again.Entries[0].Tool != "write_file" {
		t.Errorf("entries = %+v; want write_file alone, untouched by the caller", again.Entries)
	}
}

func TestRegistryConcurrentUse(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	st := openStore(t, "")
	r := newTestRegistry(st)
	srv := newServer("fs", genTools(0, 20)...)
	tools := listTools(t, srv)
	if err := r.SetConnectorTools(ctx, "c", "fs", tools); err != nil {
		t.Fatal(err)
	}
	var sessions []string
	for range 4 {
		sessions = append(sessions, newSession(t, st, "c").ID)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 8 {
		wg.Go(func() {
			id := sessions[g%len(sessions)]
			var last int64
			for i := range 20 {
				var err error
				switch i % 4 {
				case 0:
					_, err = r.SetToolEnabled(ctx, id, "fs."+tools[i].Name, i%8 == 0)
				case 1:
					err = r.SetConnectorTools(ctx, "c", "fs", tools[:10+g])
				case 2:
					_, err = r.SearchTools(ctx, id, chat.ProviderGemini, json.RawMessage(`{"query":"read file"}`))
				}
				if err != nil {
					errs <- err
					return
				}
				snap, err := r.Snapshot(ctx, id)
				if err != nil {
					errs <- err
					return
				}
				if snap.Revision < last {
					errs <- fmt.Errorf("session %s: revision went from %d to %d", id, last, snap.Revision)
					return
				}
				last = snap.Revision
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, id := range sessions {
		snap, err := r.Snapshot(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		checkStored(t, st, id, snap.Revision)
	}
}

// Compile-time check: the real store satisfies the registry's interface.
var _ Store = (*store.Store)(nil)

func withMaxTools(r chat.ToolRules, n int) chat.ToolRules {
	r.MaxTools = n
	return r
}

func TestRegistrySlugAndRevisionListener(t *testing.T) {
	t.Parallel()
	st := openStore(t, "")
	var mu sync.Mutex
	var heard []int64
	reg := newTestRegistry(st, WithRevisionListener(func(sessionID string, rev int64) {
		mu.Lock()
		heard = append(heard, rev)
		mu.Unlock()
	}))
	ctx := t.Context()
	if _, ok := reg.Slug("c1"); ok {
		t.Error("Slug of an unknown connector: ok")
	}
	tools := listTools(t, newServer("files", mcpgo.NewTool("read"), mcpgo.NewTool("write")))
	if err := reg.SetConnectorTools(ctx, "c1", "My Files", tools); err != nil {
		t.Fatal(err)
	}
	if err := reg.SetConnectorTools(ctx, "c2", "My Files", nil); err != nil {
		t.Fatal(err)
	}
	if s, ok := reg.Slug("c1"); !ok || s != "my_files" {
		t.Errorf("Slug(c1) = %q, %v; want my_files", s, ok)
	}
	if s, _ := reg.Slug("c2"); s == "my_files" || !strings.HasPrefix(s, "my_files_") {
		t.Errorf("Slug(c2) = %q, want a suffixed slug", s)
	}
	sess := newSession(t, st)
	if _, err := reg.SetConnectorEnabled(ctx, sess.ID, "c1", true); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.SetConnectorEnabled(ctx, sess.ID, "c1", true); err != nil { // no-op: no event
		t.Fatal(err)
	}
	if _, err := reg.SetToolEnabled(ctx, sess.ID, "my_files.write", false); err != nil {
		t.Fatal(err)
	}
	// A list change of an enabled connector bumps the revision too.
	more := listTools(t, newServer("files", mcpgo.NewTool("read"), mcpgo.NewTool("write"), mcpgo.NewTool("stat")))
	if err := reg.SetConnectorTools(ctx, "c1", "My Files", more); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(heard, []int64{1, 2, 3}) {
		t.Errorf("revisions heard = %v, want [1 2 3]", heard)
	}
}
