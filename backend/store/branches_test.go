package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	bolt "go.etcd.io/bbolt"

	"maestro/backend/chat"
)

func text(s string) chat.Parts { return chat.Parts{chat.TextPart{Text: s}} }

// seqs lists the Seq of each message.
func seqs(ms []chat.Message) []uint64 {
	out := []uint64{}
	for _, m := range ms {
		out = append(out, m.Seq)
	}
	return out
}

// treeStore builds this tree (seq: role, parent), with the head at 7:
//
//	1 u ─ 2 a ┬ 3 u ─ 4 a          the first answer
//	          ├ 5 u ─ 6 a          3 edited
//	          └ 7 u                3 edited again, not answered yet
func treeStore(t *testing.T) (*Store, string) {
	t.Helper()
	ctx := t.Context()
	s := testStore(t)
	sess, err := s.CreateSession(ctx, chat.Session{Title: "tree"})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		fork uint64 // 0: append at the head
		role chat.Role
	}{
		{0, chat.RoleUser}, {0, chat.RoleAssistant}, {0, chat.RoleUser}, {0, chat.RoleAssistant},
		{3, chat.RoleUser}, {0, chat.RoleAssistant}, {3, chat.RoleUser},
	}
	for i, st := range steps {
		m := chat.Message{Role: st.role, Parts: text(fmt.Sprintf("m%d", i+1))}
		var got chat.Message
		if st.fork != 0 {
			got, err = s.ForkMessage(ctx, sess.ID, st.fork, m)
		} else {
			got, err = s.AppendMessage(ctx, sess.ID, m)
		}
		if err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
		if got.Seq != uint64(i+1) {
			t.Fatalf("step %d stored seq %d", i+1, got.Seq)
		}
	}
	return s, sess.ID
}

func TestForkKeepsTheOldBranch(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s, id := treeStore(t)
	tests := []struct {
		name         string
		op           func() error // nil: the tree as built
		wantPath     []uint64
		wantBranches map[uint64]Branch
	}{
		{
			name:     "second edit is active",
			wantPath: []uint64{1, 2, 7},
			wantBranches: map[uint64]Branch{
				7: {Index: 2, Count: 3, Prev: 5},
			},
		},
		{
			name: "an answer on the new branch",
			op: func() error {
				_, err := s.AppendMessage(ctx, id, chat.Message{Role: chat.RoleAssistant, Parts: text("m8")})
				return err
			},
			wantPath:     []uint64{1, 2, 7, 8},
			wantBranches: map[uint64]Branch{7: {Index: 2, Count: 3, Prev: 5}},
		},
		{
			name: "editing the first message forks at the root",
			op: func() error {
				_, err := s.ForkMessage(ctx, id, 1, chat.Message{Role: chat.RoleUser, Parts: text("m9")})
				return err
			},
			wantPath:     []uint64{9},
			wantBranches: map[uint64]Branch{9: {Index: 1, Count: 2, Prev: 1}},
		},
		{
			name:     "back to the first branch lands on its newest leaf",
			op:       func() error { _, err := s.SwitchBranch(ctx, id, 1); return err },
			wantPath: []uint64{1, 2, 7, 8},
			wantBranches: map[uint64]Branch{
				1: {Index: 0, Count: 2, Next: 9},
				7: {Index: 2, Count: 3, Prev: 5},
			},
		},
		{
			name:     "the middle edit",
			op:       func() error { _, err := s.SwitchBranch(ctx, id, 5); return err },
			wantPath: []uint64{1, 2, 5, 6},
			wantBranches: map[uint64]Branch{
				1: {Index: 0, Count: 2, Next: 9},
				5: {Index: 1, Count: 3, Prev: 3, Next: 7},
			},
		},
		{
			name:     "the original answer",
			op:       func() error { _, err := s.SwitchBranch(ctx, id, 3); return err },
			wantPath: []uint64{1, 2, 3, 4},
			wantBranches: map[uint64]Branch{
				1: {Index: 0, Count: 2, Next: 9},
				3: {Index: 0, Count: 3, Next: 5},
			},
		},
		{
			name: "appending continues the active branch",
			op: func() error {
				_, err := s.AppendMessage(ctx, id, chat.Message{Role: chat.RoleUser, Parts: text("m10")})
				return err
			},
			wantPath: []uint64{1, 2, 3, 4, 10},
			wantBranches: map[uint64]Branch{
				1: {Index: 0, Count: 2, Next: 9},
				3: {Index: 0, Count: 3, Next: 5},
			},
		},
	}
	// The steps build on each other, so they run in order.
	for _, tt := range tests {
		if tt.op != nil {
			if err := tt.op(); err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
		}
		msgs, err := s.Messages(ctx, id)
		if err != nil {
			t.Fatalf("%s: Messages: %v", tt.name, err)
		}
		if got := seqs(msgs); !reflect.DeepEqual(got, tt.wantPath) {
			t.Errorf("%s: Messages = %v, want %v", tt.name, got, tt.wantPath)
		}
		for i, m := range msgs {
			if want := fmt.Sprintf("m%d", m.Seq); m.Text() != want || (i > 0 && m.Parent != msgs[i-1].Seq) {
				t.Errorf("%s: message %d = %q with parent %d; want %q after %d", tt.name, m.Seq, m.Text(), m.Parent, want, msgs[max(i-1, 0)].Seq)
			}
		}
		p, err := s.ActivePath(ctx, id)
		if err != nil {
			t.Fatalf("%s: ActivePath: %v", tt.name, err)
		}
		if got := seqs(p.Messages); !reflect.DeepEqual(got, tt.wantPath) {
			t.Errorf("%s: ActivePath messages = %v, want %v", tt.name, got, tt.wantPath)
		}
		if !reflect.DeepEqual(p.Branches, tt.wantBranches) {
			t.Errorf("%s: branches = %+v, want %+v", tt.name, p.Branches, tt.wantBranches)
		}
		sess, err := s.Session(ctx, id)
		if last := tt.wantPath[len(tt.wantPath)-1]; err != nil || sess.Head != last {
			t.Errorf("%s: head = %d, %v; want %d", tt.name, sess.Head, err, last)
		}
	}
}

func TestSiblings(t *testing.T) {
	t.Parallel()
	s, id := treeStore(t)
	tests := []struct {
		seq     uint64
		want    []uint64
		wantErr error
	}{
		{seq: 1, want: []uint64{1}},
		{seq: 3, want: []uint64{3, 5, 7}},
		{seq: 7, want: []uint64{3, 5, 7}},
		{seq: 4, want: []uint64{4}},
		{seq: 0, wantErr: chat.ErrNotFound},
		{seq: 99, wantErr: chat.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.seq), func(t *testing.T) {
			t.Parallel()
			got, err := s.Siblings(t.Context(), id, tt.seq)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && !reflect.DeepEqual(got, tt.want)) {
				t.Errorf("Siblings(%d) = %v, %v; want %v, %v", tt.seq, got, err, tt.want, tt.wantErr)
			}
		})
	}
	if _, err := s.Siblings(t.Context(), "nope", 1); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("Siblings in a missing session: %v, want ErrNotFound", err)
	}
}

func TestOnActivePath(t *testing.T) {
	t.Parallel()
	s, id := treeStore(t)
	for seq, want := range map[uint64]bool{1: true, 2: true, 7: true, 3: false, 4: false, 5: false, 6: false, 99: false, 0: false} {
		got, err := s.OnActivePath(t.Context(), id, seq)
		if err != nil || got != want {
			t.Errorf("OnActivePath(%d) = %v, %v; want %v", seq, got, err, want)
		}
	}
	empty, _ := s.CreateSession(t.Context(), chat.Session{Title: "empty"})
	if on, err := s.OnActivePath(t.Context(), empty.ID, 1); on || err != nil {
		t.Errorf("OnActivePath in an empty session = %v, %v; want false", on, err)
	}
}

// TestBranchErrorsChangeNothing: a fork or switch that fails leaves the
// head, the history and the sequence as they were.
func TestBranchErrorsChangeNothing(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s, id := treeStore(t)
	before, _ := s.Session(ctx, id)
	tests := []struct {
		name string
		op   func() error
		want error
	}{
		{"fork an unknown message", func() error {
			_, err := s.ForkMessage(ctx, id, 42, chat.Message{Role: chat.RoleUser})
			return err
		}, chat.ErrNotFound},
		{"fork with an unencodable part", func() error {
			_, err := s.ForkMessage(ctx, id, 3, chat.Message{Parts: chat.Parts{nil}})
			return err
		}, chat.ErrInvalid},
		{"fork in a missing session", func() error {
			_, err := s.ForkMessage(ctx, "nope", 1, chat.Message{Role: chat.RoleUser})
			return err
		}, chat.ErrNotFound},
		{"switch to an unknown message", func() error { _, err := s.SwitchBranch(ctx, id, 42); return err }, chat.ErrNotFound},
		{"switch to seq 0", func() error { _, err := s.SwitchBranch(ctx, id, 0); return err }, chat.ErrNotFound},
		{"switch in a missing session", func() error { _, err := s.SwitchBranch(ctx, "nope", 1); return err }, chat.ErrNotFound},
	}
	for _, tt := range tests {
		if err := tt.op(); !errors.Is(err, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, err, tt.want)
		}
	}
	after, _ := s.Session(ctx, id)
	if !reflect.DeepEqual(after, before) {
		t.Errorf("session changed by failed calls:\n got %+v\nwant %+v", after, before)
	}
	m, err := s.AppendMessage(ctx, id, chat.Message{Role: chat.RoleAssistant})
	if err != nil || m.Seq != 8 || m.Parent != 7 {
		t.Errorf("next append = seq %d parent %d, %v; want 8 after 7", m.Seq, m.Parent, err)
	}
}

// TestSwitchBranchKeepsUpdatedAt: switching is navigation, so the session
// list keeps its order; a rename cannot move the head either.
func TestSwitchBranchKeepsUpdatedAt(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s, id := treeStore(t)
	before, _ := s.Session(ctx, id)
	sess, err := s.SwitchBranch(ctx, id, 3)
	if err != nil {
		t.Fatal(err)
	}
	if sess.Head != 4 || !sess.UpdatedAt.Equal(before.UpdatedAt) {
		t.Errorf("after switch: head %d, updated %v; want head 4, updated %v", sess.Head, sess.UpdatedAt, before.UpdatedAt)
	}
	renamed, err := s.UpdateSession(ctx, id, func(s *chat.Session) error { s.Title, s.Head = "x", 1; return nil })
	if err != nil || renamed.Head != 4 {
		t.Errorf("UpdateSession moved the head to %d (%v); want it kept at 4", renamed.Head, err)
	}
}

// TestPutMessageOnABranch: a checkpoint rewrites a message in place, on or
// off the active branch, without moving it in the tree or moving the head.
func TestPutMessageOnABranch(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s, id := treeStore(t)
	tests := []struct {
		name string
		msg  chat.Message
	}{
		{"on the active branch", chat.Message{Seq: 7, Role: chat.RoleUser, Parts: text("m7 edited")}},
		{"off the active branch", chat.Message{Seq: 6, Role: chat.RoleAssistant, Status: chat.StatusComplete, Parts: text("m6 done")}},
		{"with a wrong parent", chat.Message{Seq: 4, Parent: 1, Role: chat.RoleAssistant, Parts: text("m4 again")}},
	}
	wantParent := map[uint64]uint64{7: 2, 6: 5, 4: 3}
	for _, tt := range tests {
		if err := s.PutMessage(ctx, id, tt.msg); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		got, err := s.Message(ctx, id, tt.msg.Seq)
		if err != nil || got.Text() != tt.msg.Text() || got.Parent != wantParent[tt.msg.Seq] {
			t.Errorf("%s: stored %q with parent %d (%v); want %q with parent %d", tt.name, got.Text(), got.Parent, err, tt.msg.Text(), wantParent[tt.msg.Seq])
		}
	}
	msgs, _ := s.Messages(ctx, id)
	if got := seqs(msgs); !reflect.DeepEqual(got, []uint64{1, 2, 7}) {
		t.Errorf("path after checkpoints = %v, want [1 2 7]", got)
	}
	if err := s.PutMessage(ctx, id, chat.Message{Seq: 42}); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("put unknown seq: %v, want ErrNotFound", err)
	}
}

// TestMessagesReportsABrokenTree: a head or parent that points nowhere
// sensible is reported instead of returning a wrong conversation.
func TestMessagesReportsABrokenTree(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		damage func(tx *bolt.Tx, id string) error
	}{
		{"head points to a missing message", func(tx *bolt.Tx, id string) error {
			return patchJSON(tx.Bucket(bucketSessions), []byte(id), "head", 9)
		}},
		{"a parent that is not older", func(tx *bolt.Tx, id string) error {
			return patchJSON(tx.Bucket(bucketMessages).Bucket([]byte(id)), seqKey(2), "parent", 2)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			s := testStore(t)
			sess, _ := s.CreateSession(ctx, chat.Session{Title: "t"})
			for range 2 {
				if _, err := s.AppendMessage(ctx, sess.ID, chat.Message{Role: chat.RoleUser}); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.db.Update(func(tx *bolt.Tx) error { return tt.damage(tx, sess.ID) }); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Messages(ctx, sess.ID); !errors.Is(err, chat.ErrUnavailable) {
				t.Errorf("Messages: %v, want ErrUnavailable", err)
			}
			if _, err := s.ActivePath(ctx, sess.ID); !errors.Is(err, chat.ErrUnavailable) {
				t.Errorf("ActivePath: %v, want ErrUnavailable", err)
			}
		})
	}
}

// BenchmarkActivePath reads a 10,000-message conversation: a single
// branch, and the same with every tenth user message edited once.
func BenchmarkActivePath(b *testing.B) {
	for _, edits := range []bool{false, true} {
		b.Run(fmt.Sprintf("edits=%v", edits), func(b *testing.B) {
			ctx := context.Background()
			s, err := Open(ctx, b.TempDir(), Options{NoSync: true})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			sess, _ := s.CreateSession(ctx, chat.Session{Title: "bench"})
			body := text("a reply of a typical length, with a few sentences in it. " +
				"It goes on for a while so that decoding costs what it costs in real use.")
			for i := 0; i < 10_000; i += 2 {
				u, err := s.AppendMessage(ctx, sess.ID, chat.Message{Role: chat.RoleUser, Parts: text("question")})
				if err != nil {
					b.Fatal(err)
				}
				if edits && i%20 == 0 {
					if _, err := s.AppendMessage(ctx, sess.ID, chat.Message{Role: chat.RoleAssistant, Parts: body}); err != nil {
						b.Fatal(err)
					}
					if u, err = s.ForkMessage(ctx, sess.ID, u.Seq, chat.Message{Role: chat.RoleUser, Parts: text("edited")}); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := s.AppendMessage(ctx, sess.ID, chat.Message{Role: chat.RoleAssistant, Parts: body}); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for b.Loop() {
				p, err := s.ActivePath(ctx, sess.ID)
				if err != nil || len(p.Messages) != 10_000 {
					b.Fatalf("ActivePath: %d messages, %v", len(p.Messages), err)
				}
			}
		})
	}
}

// A page of the active branch is the same as the matching slice of
// ActivePath, with the same branch positions, and pages chain back to the
// root.
func TestActivePathPage(t *testing.T) {
	t.Parallel()
	s, id := treeStore(t)
	ctx := t.Context()
	// A longer active branch: 7 answered, then two more turns on it.
	for _, r := range []chat.Role{chat.RoleAssistant, chat.RoleUser, chat.RoleAssistant, chat.RoleUser, chat.RoleAssistant} {
		if _, err := s.AppendMessage(ctx, id, chat.Message{Role: r, Parts: text(string(r))}); err != nil {
			t.Fatal(err)
		}
	}
	full, err := s.ActivePath(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{1, 2, 3, 5, 100} {
		var got []uint64
		branches := map[uint64]Branch{}
		before := uint64(0)
		for pages := 0; ; pages++ {
			if pages > 20 {
				t.Fatalf("limit %d: pages do not end", limit)
			}
			p, err := s.ActivePathPage(ctx, id, before, limit)
			if err != nil {
				t.Fatalf("limit %d before %d: %v", limit, before, err)
			}
			if len(p.Messages) == 0 || len(p.Messages) > limit {
				t.Fatalf("limit %d before %d: page of %d", limit, before, len(p.Messages))
			}
			got = append(seqs(p.Messages), got...)
			for k, v := range p.Branches {
				branches[k] = v
			}
			if !p.More {
				break
			}
			before = p.Messages[0].Seq
		}
		if want := seqs(full.Messages); !reflect.DeepEqual(got, want) {
			t.Errorf("limit %d: pages give %v, want the active path %v", limit, got, want)
		}
		want := full.Branches
		if want == nil {
			want = map[uint64]Branch{}
		}
		if !reflect.DeepEqual(branches, want) {
			t.Errorf("limit %d: branches %v, want %v", limit, branches, want)
		}
	}

	// ActivePathTo: the same branch, from the head down to a message and
	// then up to extra older ones.
	for _, tc := range []struct {
		seq   uint64
		extra int
		want  []uint64
	}{
		{seq: 11, extra: 0, want: []uint64{11, 12}},
		{seq: 11, extra: 2, want: []uint64{9, 10, 11, 12}},
		{seq: 7, extra: 1, want: []uint64{2, 7, 8, 9, 10, 11, 12}}, // 7's parent is 2 (3 was edited)
		{seq: 1, extra: 5, want: []uint64{1, 2, 7, 8, 9, 10, 11, 12}},
		{seq: 5, extra: 0, want: []uint64{2, 7, 8, 9, 10, 11, 12}}, // 5 is off the branch: stops at the first older one
	} {
		p, err := s.ActivePathTo(ctx, id, tc.seq, tc.extra)
		if err != nil {
			t.Fatal(err)
		}
		if got := seqs(p.Messages); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ActivePathTo(%d, %d) = %v, want %v", tc.seq, tc.extra, got, tc.want)
		}
		if p.More != (tc.want[0] != 1) {
			t.Errorf("ActivePathTo(%d, %d).More = %v", tc.seq, tc.extra, p.More)
		}
		for k, v := range p.Branches {
			if full.Branches[k] != v {
				t.Errorf("ActivePathTo(%d, %d): branch of %d = %+v, want %+v", tc.seq, tc.extra, k, v, full.Branches[k])
			}
		}
	}

	if _, err := s.ActivePathPage(ctx, id, 0, 0); !errors.Is(err, chat.ErrInvalid) {
		t.Errorf("limit 0: err = %v, want invalid", err)
	}
	if _, err := s.ActivePathPage(ctx, id, 999, 5); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("before a missing message: err = %v, want not found", err)
	}
	empty, err := s.CreateSession(ctx, chat.Session{Title: "empty"})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := s.ActivePathPage(ctx, empty.ID, 0, 5); err != nil || len(p.Messages) != 0 || p.More {
		t.Errorf("empty session: %+v, %v", p, err)
	}
}
