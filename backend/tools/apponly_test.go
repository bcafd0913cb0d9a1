package tools

import (
	"fmt"
	"testing"

	"maestro/backend/chat"
)

// TestAppOnlyTools: a tool only its MCP App may call (docs/APPS.md) stays
// in the snapshot (the Tools panel, the app's calls resolve it) but is
// never declared to a model, under the budget or over it, and search_tools
// never returns it. Flipping its visibility is a new revision.
func TestAppOnlyTools(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	st := openStore(t, "")
	r := newTestRegistry(st)
	list := func(n int, appOnly bool) []Tool {
		out := []Tool{
			{Name: "refresh", Description: "Refresh the dashboard data", AppOnly: appOnly},
			{Name: "show", Description: "Show the dashboard"},
		}
		for i := range n {
			out = append(out, Tool{Name: fmt.Sprintf("extra%03d", i), Description: "Another tool"})
		}
		return out
	}
	if err := r.SetConnectorTools(ctx, "c1", "Dash", list(0, true)); err != nil {
		t.Fatal(err)
	}
	sess := newSession(t, st, "c1")
	snap, err := r.Snapshot(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range Providers {
		if tools, _ := snap.Overlay(p, nil); len(tools) != 1 || tools[0].Canonical != "dash.show" {
			t.Errorf("%s: declared %+v; want only dash.show", p, tools)
		}
		if e, ok := snap.Resolve(p, "dash__refresh"); !ok || !e.AppOnly {
			t.Errorf("%s: Resolve(dash__refresh) = %+v, %v; want the app-only entry", p, e, ok)
		}
		if hits := snap.Search(p, "refresh", 5); len(hits) != 0 {
			t.Errorf("%s: Search(refresh) = %+v; want nothing", p, hits)
		}
	}
	rev := snap.Revision

	// Over the budget: search_tools plus what history used, never the
	// app-only tool even when history names it.
	if err := r.SetConnectorTools(ctx, "c1", "Dash", list(200, true)); err != nil {
		t.Fatal(err)
	}
	if snap, err = r.Snapshot(ctx, sess.ID); err != nil {
		t.Fatal(err)
	}
	for _, p := range Providers {
		tools, _ := snap.Overlay(p, []string{"dash.refresh", "dash.show"})
		if len(tools) != 2 || tools[0].Canonical != SearchToolName || tools[1].Canonical != "dash.show" {
			t.Errorf("%s: over budget declared %+v; want search_tools and dash.show", p, tools)
		}
	}

	if err := r.SetConnectorTools(ctx, "c1", "Dash", list(200, false)); err != nil {
		t.Fatal(err)
	}
	next, err := r.Snapshot(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if next.Revision <= snap.Revision || snap.Revision <= rev {
		t.Errorf("revisions %d → %d → %d; want each change to raise it", rev, snap.Revision, next.Revision)
	}
	if hits := next.Search(chat.ProviderOpenAI, "refresh", 5); len(hits) == 0 || hits[0].canonical != "dash.refresh" {
		t.Errorf("once the model may see it, Search(refresh) = %+v; want dash.refresh first", hits)
	}
}
