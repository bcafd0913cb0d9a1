package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"maestro/backend/chat"
)

// Page is part of a session's active branch: its messages in order, the
// Branch of those that have siblings, and whether older messages of the
// branch remain before it.
type Page struct {
	Path
	More bool
}

// ActivePathPage returns up to limit messages of the active branch that
// come right before the message at before (the branch's last limit
// messages when before is 0), oldest first. Opening a long session reads
// its tail this way; the page before is ActivePathPage(ctx, id,
// page.Messages[0].Seq, limit).
//
// It follows Parent links from the start, so it decodes only the page's
// messages; finding their siblings reads the Parent of the messages stored
// after the page's oldest parent.
func (s *Store) ActivePathPage(ctx context.Context, sessionID string, before uint64, limit int) (Page, error) {
	if limit <= 0 {
		return Page{}, fmt.Errorf("store: page of session %s: limit %d: %w", sessionID, limit, chat.ErrInvalid)
	}
	p, err := s.walkPath(ctx, sessionID, before, func(got []chat.Message) bool { return len(got) < limit })
	if err != nil {
		return Page{}, fmt.Errorf("store: page of session %s before %d: %w", sessionID, before, err)
	}
	return p, nil
}

// ActivePathTo returns the active branch from its last message back to the
// message at seq and then up to extra older ones, oldest first, in one walk
// (opening a session at a search hit). A seq not on the branch stops the
// walk at the first message older than it.
func (s *Store) ActivePathTo(ctx context.Context, sessionID string, seq uint64, extra int) (Page, error) {
	older := 0
	p, err := s.walkPath(ctx, sessionID, 0, func(got []chat.Message) bool {
		if n := len(got); n > 0 && got[n-1].Seq <= seq {
			older++
			return older <= extra
		}
		return true
	})
	if err != nil {
		return Page{}, fmt.Errorf("store: active branch of session %s down to %d: %w", sessionID, seq, err)
	}
	return p, nil
}

// walkPath follows Parent links down the active branch, starting at the
// parent of before (at Head when before is 0), while more says so given
// what it has read (newest first), then returns that part oldest first
// with the branch positions of its messages.
func (s *Store) walkPath(ctx context.Context, sessionID string, before uint64, more func(got []chat.Message) bool) (Page, error) {
	var p Page
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b, sess, err := sessionTree(tx, sessionID)
		if err != nil || b == nil {
			return err
		}
		at := sess.Head
		if before != 0 {
			if at, err = parentOf(b, before); err != nil {
				return err
			}
		}
		for at != 0 && more(p.Messages) {
			m, err := pathMessage(b, at)
			if err != nil {
				return err
			}
			p.Messages = append(p.Messages, m)
			at = m.Parent
		}
		p.More = at != 0
		slices.Reverse(p.Messages)
		p.Branches, err = pageBranches(b, p.Messages)
		return err
	})
	if p.Messages == nil {
		p.Messages = []chat.Message{}
	}
	return p, err
}

// pageBranches finds the siblings of the page's messages: the messages off
// the page whose parent is one of the page's parents. Siblings are newer
// than their parent, so the keys after the oldest parent hold them all.
func pageBranches(b *bolt.Bucket, page []chat.Message) (map[uint64]Branch, error) {
	if len(page) == 0 {
		return nil, nil
	}
	on := make(map[uint64]bool, len(page))
	parents := make(map[uint64]bool, len(page))
	for _, m := range page {
		on[m.Seq], parents[m.Parent] = true, true
	}
	others := map[uint64][]uint64{}
	c := b.Cursor()
	for k, raw := c.Seek(seqKey(page[0].Parent + 1)); k != nil; k, raw = c.Next() {
		seq := binary.BigEndian.Uint64(k)
		if raw == nil || on[seq] {
			continue
		}
		parent, err := decodeParent(k, raw)
		if err != nil {
			return nil, err
		}
		if parents[parent] {
			others[parent] = append(others[parent], seq)
		}
	}
	return branchesOf(page, others), nil
}
