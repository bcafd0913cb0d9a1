package store

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"maestro/backend/chat"
)

// branchy stores u1 a2 u3 a4 on one branch, then forks u3 into u5 a6: the
// active branch is 1 2 5 6, and 3 4 sit on the other.
func branchy(t *testing.T) (*Store, string) {
	t.Helper()
	st := testStore(t)
	ctx := t.Context()
	sess, err := st.CreateSession(ctx, chat.Session{Title: "walk"})
	if err != nil {
		t.Fatal(err)
	}
	roles := []chat.Role{chat.RoleUser, chat.RoleAssistant, chat.RoleUser, chat.RoleAssistant}
	for i, r := range roles {
		if _, err := st.AppendMessage(ctx, sess.ID, chat.Message{Role: r, Parts: chat.Parts{chat.TextPart{Text: string(rune('a' + i))}}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.ForkMessage(ctx, sess.ID, 3, chat.Message{Role: chat.RoleUser}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AppendMessage(ctx, sess.ID, chat.Message{Role: chat.RoleAssistant}); err != nil {
		t.Fatal(err)
	}
	return st, sess.ID
}

func TestActiveTail(t *testing.T) {
	t.Parallel()
	st, id := branchy(t)
	tests := []struct {
		name string
		keep func(chat.Message) bool
		want []uint64
	}{
		{"all", func(chat.Message) bool { return true }, []uint64{1, 2, 5, 6}},
		{"down to 2, refused", func(m chat.Message) bool { return m.Seq > 2 }, []uint64{5, 6}},
		{"none", func(chat.Message) bool { return false }, []uint64{}},
	}
	for _, tt := range tests {
		var seen []uint64
		sess, got, err := st.ActiveTail(t.Context(), id, func(m chat.Message) bool {
			seen = append(seen, m.Seq)
			return tt.keep(m)
		})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if sess.ID != id || sess.Head != 6 || !reflect.DeepEqual(seqs(got), tt.want) {
			t.Errorf("%s: head %d, messages %v; want head 6, %v", tt.name, sess.Head, seqs(got), tt.want)
		}
		// The walk follows the branch, newest first, and stops at the refusal.
		if n := len(tt.want) + 1; len(tt.want) < 4 && (len(seen) != n || seen[0] != 6) {
			t.Errorf("%s: keep saw %v; want the branch from 6 down to the refused one", tt.name, seen)
		}
	}
	if _, _, err := st.ActiveTail(t.Context(), "nope", func(chat.Message) bool { return true }); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("ActiveTail of an unknown session = %v; want ErrNotFound", err)
	}
}

func TestPathMessagesStreamsTheBranch(t *testing.T) {
	t.Parallel()
	st := testStore(t)
	ctx := t.Context()
	sess, err := st.CreateSession(ctx, chat.Session{Title: "long"})
	if err != nil {
		t.Fatal(err)
	}
	const n = 3*streamBatch + 5 // several batches and a short last one
	for range n {
		if _, err := st.AppendMessage(ctx, sess.ID, chat.Message{Role: chat.RoleUser}); err != nil {
			t.Fatal(err)
		}
	}
	var got []uint64
	for m, err := range st.PathMessages(ctx, sess.ID) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, m.Seq)
	}
	want, _ := st.Messages(ctx, sess.ID)
	if !reflect.DeepEqual(got, seqs(want)) {
		t.Errorf("PathMessages yielded %d messages %v…; want the %d of Messages in order", len(got), got[:min(5, len(got))], len(want))
	}
	// Stopping the range stops the reads.
	count := 0
	for range st.PathMessages(ctx, sess.ID) {
		count++
		if count == 2 {
			break
		}
	}
	if count != 2 {
		t.Errorf("broke after %d; want 2", count)
	}
	// Branches: only the active one.
	bst, id := branchy(t)
	got = got[:0]
	for m, err := range bst.PathMessages(ctx, id) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, m.Seq)
	}
	if !reflect.DeepEqual(got, []uint64{1, 2, 5, 6}) {
		t.Errorf("PathMessages on a forked session = %v; want [1 2 5 6]", got)
	}
	// Failures arrive as the last item.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	for _, err := range st.PathMessages(cctx, sess.ID) {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("PathMessages with a done context = %v; want context.Canceled", err)
		}
	}
}

func TestSessionUsageFollowsMessages(t *testing.T) {
	t.Parallel()
	st := testStore(t)
	ctx := t.Context()
	sess, err := st.CreateSession(ctx, chat.Session{Title: "cost", Usage: chat.Usage{InputTokens: 99}})
	if err != nil {
		t.Fatal(err)
	}
	usage := func() chat.Usage {
		t.Helper()
		s, err := st.Session(ctx, sess.ID)
		if err != nil {
			t.Fatal(err)
		}
		return s.Usage
	}
	if got := usage(); !got.IsZero() {
		t.Fatalf("new session usage %+v; want none (CreateSession ignores it)", got)
	}
	u := func(in, out int64) *chat.Usage { return &chat.Usage{InputTokens: in, OutputTokens: out} }
	steps := []struct {
		name string
		do   func() error
		want chat.Usage
	}{
		{"a user message costs nothing", func() error {
			_, err := st.AppendMessage(ctx, sess.ID, chat.Message{Role: chat.RoleUser})
			return err
		}, chat.Usage{}},
		{"a reply adds its usage", func() error {
			_, err := st.AppendMessage(ctx, sess.ID, chat.Message{Role: chat.RoleAssistant, Usage: u(100, 10)})
			return err
		}, *u(100, 10)},
		{"a checkpoint then the final write count once", func() error {
			m, err := st.AppendMessage(ctx, sess.ID, chat.Message{Role: chat.RoleAssistant, Status: chat.StatusStreaming})
			if err != nil {
				return err
			}
			m.Usage, m.Status = u(200, 20), chat.StatusComplete
			if err := st.PutMessage(ctx, sess.ID, m); err != nil {
				return err
			}
			return st.PutMessage(ctx, sess.ID, m) // rewritten unchanged
		}, *u(300, 30)},
		{"a forked branch adds, the old one stays counted", func() error {
			_, err := st.ForkMessage(ctx, sess.ID, 2, chat.Message{Role: chat.RoleAssistant, Usage: u(1, 1)})
			return err
		}, *u(301, 31)},
		{"UpdateSession cannot change it", func() error {
			_, err := st.UpdateSession(ctx, sess.ID, func(s *chat.Session) error { s.Usage = chat.Usage{}; return nil })
			return err
		}, *u(301, 31)},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got := usage(); got != s.want {
			t.Errorf("%s: usage %+v; want %+v", s.name, got, s.want)
		}
	}
}
