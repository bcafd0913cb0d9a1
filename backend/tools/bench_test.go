package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"maestro/backend/chat"
)

// benchRegistry has 10 connectors × 100 generated tools, reported straight
// from their definitions (the in-process round trip is not what is
// measured), and a session that enables all of them.
func benchRegistry(b *testing.B) (*Registry, *session) {
	b.Helper()
	r := newTestRegistry(nil)
	s := &session{disabled: map[string]bool{}}
	for c := range 10 {
		id := fmt.Sprintf("conn-%02d", c)
		if err := r.SetConnectorTools(context.Background(), id, fmt.Sprintf("Server %d", c), fromMCP(b, genTools(c, 100)...)); err != nil {
			b.Fatal(err)
		}
		s.enabled = append(s.enabled, id)
	}
	s.snap = r.build("bench", 1, r.effective(s, nil), nil)
	if len(s.snap.Entries) != 1000 {
		b.Fatalf("%d entries; want 1000", len(s.snap.Entries))
	}
	return r, s
}

// BenchmarkRegistryRebuild1000 is the work done for one session when a
// connector's list changes: gather its 1,000 tools, name them for every
// provider, index them and compare with the previous snapshot.
func BenchmarkRegistryRebuild1000(b *testing.B) {
	r, s := benchRegistry(b)
	b.ReportAllocs()
	for b.Loop() {
		next := r.build("bench", 2, r.effective(s, s.snap.Entries), s.snap.Found)
		if !sameContent(next, s.snap) {
			b.Fatal("rebuild changed the snapshot")
		}
	}
}

func BenchmarkOverlay1000(b *testing.B) {
	_, s := benchRegistry(b)
	snap := s.snap
	for i := range 10 {
		snap.Found = append(snap.Found, snap.Entries[i*97].Canonical)
	}
	var used []string
	for i := range 20 {
		used = append(used, snap.Entries[i*41+1].Canonical)
	}
	for _, p := range Providers {
		b.Run(p, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				tools, names := snap.Overlay(p, used)
				if len(tools) != 31 || len(names) != 1001 {
					b.Fatalf("overlay: %d tools, %d names", len(tools), len(names))
				}
			}
		})
	}
}

func BenchmarkSearch1000(b *testing.B) {
	_, s := benchRegistry(b)
	s.snap.Search(chat.ProviderOpenAI, "warm up the index", 1)
	b.ReportAllocs()
	for b.Loop() {
		if got := s.snap.Search(chat.ProviderOpenAI, "list invoices in the billing ledger", 8); len(got) == 0 {
			b.Fatal("no results")
		}
	}
}

// BenchmarkSetConnectorTools1000 is a whole list_changed for a connector
// with 1,000 tools and one cached session using it: schemas normalised for
// three providers, the session rebuilt and both records written to a real
// bbolt file (NoSync).
func BenchmarkSetConnectorTools1000(b *testing.B) {
	ctx := context.Background()
	st := openStore(b, "")
	r := newTestRegistry(st)
	lists := [2][]Tool{fromMCP(b, genTools(0, 1000)...), fromMCP(b, genTools(0, 1000)...)}
	lists[1][500].Description = "changed"
	if err := r.SetConnectorTools(ctx, "c", "Big", lists[0]); err != nil {
		b.Fatal(err)
	}
	sess := newSession(b, st, "c")
	if _, err := r.Snapshot(ctx, sess.ID); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if err := r.SetConnectorTools(ctx, "c", "Big", lists[i%2]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNormalizeSchema(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("testdata", "schemas", "pydantic_refs_nullable.input.json"))
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range Providers {
		b.Run(p, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				NormalizeSchema(rulesFor(p).Schema, json.RawMessage(raw))
			}
		})
	}
}
