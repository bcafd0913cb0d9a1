package store

import (
	"errors"
	"reflect"
	"testing"

	"maestro/backend/chat"
)

// TestTailFrom: the walk starts at a message of the active branch; one off
// it (or none) is not found.
func TestTailFrom(t *testing.T) {
	t.Parallel()
	st, id := branchy(t) // active branch 1, 2, 5, 6; 3 and 4 on the other
	all := func(chat.Message) bool { return true }
	tests := []struct {
		name string
		seq  uint64
		want []uint64
		err  error
	}{
		{"head", 6, []uint64{1, 2, 5, 6}, nil},
		{"middle", 5, []uint64{1, 2, 5}, nil},
		{"first", 1, []uint64{1}, nil},
		{"other branch", 3, nil, chat.ErrNotFound},
		{"unknown", 99, nil, chat.ErrNotFound},
		{"zero", 0, nil, chat.ErrNotFound},
	}
	for _, tt := range tests {
		sess, got, err := st.TailFrom(t.Context(), id, tt.seq, all)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("%s: error %v; want %v", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || sess.Head != 6 || !reflect.DeepEqual(seqs(got), tt.want) {
			t.Errorf("%s: %v, head %d, messages %v; want head 6, %v", tt.name, err, sess.Head, seqs(got), tt.want)
		}
	}
	// OnActivePath, which shares the walk, still answers.
	for seq, want := range map[uint64]bool{1: true, 6: true, 3: false, 4: false, 99: false} {
		if got, err := st.OnActivePath(t.Context(), id, seq); err != nil || got != want {
			t.Errorf("OnActivePath(%d) = %v, %v; want %v", seq, got, err, want)
		}
	}
}
