package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"maestro/backend/chat"
)

func TestTasksAndTrustRecords(t *testing.T) {
	t.Parallel()
	s := testStore(t)
	ctx := t.Context()
	for _, k := range [][2]string{{"c2", "a"}, {"c1", "b"}, {"c1", "a"}} {
		if err := s.PutTask(ctx, k[0], k[1], map[string]string{"id": k[1], "connector": k[0]}); err != nil {
			t.Fatal(err)
		}
	}
	tasks, err := s.Tasks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%d %s", len(tasks), tasks[0]); got != `3 {"connector":"c1","id":"a"}` {
		t.Errorf("Tasks = %s; want 3, c1/a first", got)
	}
	if err := s.DeleteTask(ctx, "c1", "a"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteTask(ctx, "c1", "a"); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("second delete = %v, want not found", err)
	}

	for _, k := range []string{"c1/x", "c1/y", "c2/x"} {
		if err := s.PutTrustRecord(ctx, "pin", k, k); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutTrustRecord(ctx, "grant", "c1/x", "grant"); err != nil {
		t.Fatal(err)
	}
	pins, err := s.TrustRecords(ctx, "pin", "c1/")
	if err != nil || len(pins) != 2 {
		t.Errorf("pins of c1 = %s, %v; want 2", pins, err)
	}
	var v string
	if err := s.TrustRecord(ctx, "grant", "c1/x", &v); err != nil || v != "grant" {
		t.Errorf("grant = %q, %v", v, err)
	}
	if err := s.TrustRecord(ctx, "grant", "c1/y", &v); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("missing grant = %v, want not found", err)
	}
}

// The audit log keeps the newest AuditKeep records per connector, oldest
// first.
func TestAuditKeepsTheNewest(t *testing.T) {
	t.Parallel()
	s, err := Open(t.Context(), t.TempDir(), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	ctx := t.Context()
	for i := 1; i <= AuditKeep+3; i++ {
		if err := s.AppendAudit(ctx, "c1", map[string]int{"n": i}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AppendAudit(ctx, "c2", map[string]int{"n": 1}); err != nil {
		t.Fatal(err)
	}
	var got []int
	if err := s.Audit(ctx, "c1", func(raw json.RawMessage) error {
		var r struct{ N int }
		if err := json.Unmarshal(raw, &r); err != nil {
			return err
		}
		got = append(got, r.N)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != AuditKeep || got[0] != 4 || got[len(got)-1] != AuditKeep+3 {
		t.Errorf("kept %d records, %d…%d; want %d, 4…%d", len(got), got[0], got[len(got)-1], AuditKeep, AuditKeep+3)
	}
	if err := s.DeleteAudit(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	n := 0
	_ = s.Audit(ctx, "c1", func(json.RawMessage) error { n++; return nil })
	if n != 0 {
		t.Errorf("%d records left after DeleteAudit", n)
	}
}
