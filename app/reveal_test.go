package app

import (
	"fmt"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/store"
)

// A search hit opens its session with the pages down to the hit loaded,
// and a hit on an edited-away version shows that version's branch.
func TestOpenSessionAt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := t.Context()
	st, err := store.Open(ctx, dir, store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := st.CreateSession(ctx, chat.Session{Title: "Long"})
	if err != nil {
		t.Fatal(err)
	}
	msg := func(role chat.Role, text string) chat.Message {
		return chat.Message{Role: role, Status: chat.StatusComplete, Parts: chat.Parts{chat.TextPart{Text: text}}}
	}
	// 1–4, then an edited-away version of 3 (seq 5, 6), then 250 more on
	// the first branch: seq 3 and 5 are siblings.
	for i := 1; i <= 4; i++ {
		if _, err := st.AppendMessage(ctx, sess.ID, msg(chat.RoleUser, fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.ForkMessage(ctx, sess.ID, 3, msg(chat.RoleUser, "edited")); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AppendMessage(ctx, sess.ID, msg(chat.RoleAssistant, "edited answer")); err != nil {
		t.Fatal(err)
	}
	if _, err := st.SwitchBranch(ctx, sess.ID, 3); err != nil {
		t.Fatal(err)
	}
	for i := 7; i <= 256; i++ {
		if _, err := st.AppendMessage(ctx, sess.ID, msg(chat.RoleUser, fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	a, _ := startApp(t, dir)

	tests := []struct {
		name               string
		seq                uint64
		wantFirst, wantLen int // the first seq shown and how many
		wantEarlier        bool
	}{
		{name: "the latest page", seq: 256, wantFirst: 177, wantLen: pageSize, wantEarlier: true},
		{name: "a hit three pages up, with hitContext older ones", seq: 20, wantFirst: 20 - hitContext, wantLen: 237 + hitContext, wantEarlier: true},
		{name: "a hit at the start", seq: 1, wantFirst: 1, wantLen: 254},
		{name: "a hit on the edited-away version", seq: 6, wantFirst: 1, wantLen: 4},
		{name: "back on the first branch", seq: 4, wantFirst: 1, wantLen: 254},
	}
	for _, tc := range tests { // in order: the branch switch carries on
		view, err := a.Sessions.OpenAt(sess.ID, tc.seq)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		ms := view.Messages
		if len(ms) != tc.wantLen || int(ms[0].Seq) != tc.wantFirst || (view.EarlierBefore != 0) != tc.wantEarlier {
			t.Errorf("%s: %d messages from %d (earlierBefore %d); want %d from %d, earlier %v",
				tc.name, len(ms), ms[0].Seq, view.EarlierBefore, tc.wantLen, tc.wantFirst, tc.wantEarlier)
		}
		found := false
		for _, m := range ms {
			found = found || m.Seq == tc.seq
		}
		if !found {
			t.Errorf("%s: message %d is not in the view", tc.name, tc.seq)
		}
	}
	if _, err := a.Sessions.OpenAt(sess.ID, 9999); err == nil {
		t.Error("a missing message opened")
	}
}
