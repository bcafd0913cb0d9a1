package store

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"maestro/backend/chat"
)

// A session's messages form a tree. Each message records its Parent, the
// message before it on its branch; siblings share a Parent. The session's
// Head is the last message of the active branch, and the conversation is
// the path from the root to Head. A parent is always stored before its
// children, so a parent's Seq is smaller than its children's: one cursor
// pass from the newest key down to the oldest meets every message of the
// path in reverse order, and a pass up from a message meets all its
// descendants.

// Branch is where a message sits among its siblings (the messages with the
// same parent), oldest first.
type Branch struct {
	// Index is the message's 0-based position; Count includes the message.
	Index, Count int
	// Prev and Next are the Seq of the siblings either side, 0 at the ends.
	Prev, Next uint64
}

// Path is a session's active branch with, for its messages that have
// siblings, their place among them.
type Path struct {
	Messages []chat.Message
	// Branches is keyed by Seq. A message missing from it is its parent's
	// only child.
	Branches map[uint64]Branch
}

// ActivePath returns what Messages returns, plus the Branch of every
// message of the path that has siblings, all in one cursor pass. A
// message on another branch is only decoded far enough to read its Parent.
func (s *Store) ActivePath(ctx context.Context, sessionID string) (Path, error) {
	var p Path
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b, sess, err := sessionTree(tx, sessionID)
		if err != nil {
			return err
		}
		p.Messages, p.Branches, err = readPath(b, sess.Head, true)
		return err
	})
	if err != nil {
		return Path{}, fmt.Errorf("store: active path of session %s: %w", sessionID, err)
	}
	if p.Messages == nil {
		p.Messages = []chat.Message{}
	}
	return p, nil
}

// ForkMessage stores msg as a new sibling of the message at seq: it gets
// that message's Parent, and the session's Head moves to it, in one
// transaction. The old message and everything after it stay, as another
// branch. Seq, ID and CreatedAt are filled as in AppendMessage.
func (s *Store) ForkMessage(ctx context.Context, sessionID string, seq uint64, msg chat.Message) (chat.Message, error) {
	m, err := s.appendMessage(ctx, sessionID, msg, func(b *bolt.Bucket, _ chat.Session) (uint64, error) {
		return parentOf(b, seq)
	})
	if err != nil {
		return chat.Message{}, fmt.Errorf("store: fork message %d of session %s: %w", seq, sessionID, err)
	}
	return m, nil
}

// Siblings returns the Seq of every message with the same parent as the
// message at seq, that message included, oldest first.
func (s *Store) Siblings(ctx context.Context, sessionID string, seq uint64) ([]uint64, error) {
	var out []uint64
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b, _, err := sessionTree(tx, sessionID)
		if err != nil {
			return err
		}
		if b == nil {
			return fmt.Errorf("message %d: %w", seq, chat.ErrNotFound)
		}
		parent, err := parentOf(b, seq)
		if err != nil {
			return err
		}
		c := b.Cursor()
		for k, raw := c.Seek(seqKey(parent + 1)); k != nil; k, raw = c.Next() {
			if raw == nil {
				continue
			}
			p, err := decodeParent(k, raw)
			if err != nil {
				return err
			}
			if p == parent {
				out = append(out, binary.BigEndian.Uint64(k))
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: siblings of message %d of session %s: %w", seq, sessionID, err)
	}
	return out, nil
}

// SwitchBranch makes the branch through the message at seq the active one:
// the session's Head becomes the newest message under it (seq itself if it
// has no children), which is always a leaf. UpdatedAt does not move, since
// nothing was written to the conversation. It returns the session.
func (s *Store) SwitchBranch(ctx context.Context, sessionID string, seq uint64) (chat.Session, error) {
	var sess chat.Session
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b, cur, err := sessionTree(tx, sessionID)
		if err != nil {
			return err
		}
		if b == nil || seq == 0 || b.Get(seqKey(seq)) == nil {
			return fmt.Errorf("message %d: %w", seq, chat.ErrNotFound)
		}
		leaf, err := newestUnder(b, seq)
		if err != nil {
			return err
		}
		sess = cur
		sess.Head = leaf
		sessions, err := mustBucket(tx, bucketSessions)
		if err != nil {
			return err
		}
		return putJSON(sessions, []byte(sessionID), sess)
	})
	if err != nil {
		return chat.Session{}, fmt.Errorf("store: switch session %s to the branch of message %d: %w", sessionID, seq, err)
	}
	return sess, nil
}

// OnActivePath reports whether the message at seq is on the session's
// active branch. It walks down from Head and stops at seq, decoding only
// the Parent of the messages between them.
func (s *Store) OnActivePath(ctx context.Context, sessionID string, seq uint64) (bool, error) {
	var on bool
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b, sess, err := sessionTree(tx, sessionID)
		if err != nil || b == nil {
			return err
		}
		_, err = onPath(b, sess.Head, seq)
		on = err == nil
		if errors.Is(err, chat.ErrNotFound) {
			err = nil
		}
		return err
	})
	if err != nil {
		return false, fmt.Errorf("store: find message %d on the active branch of session %s: %w", seq, sessionID, err)
	}
	return on, nil
}

// onPath walks down from head to seq, decoding only the Parent of the
// messages between them, and returns seq, or chat.ErrNotFound when seq is
// not on the branch that ends at head.
func onPath(b *bolt.Bucket, head, seq uint64) (uint64, error) {
	for at := head; at >= seq && at != 0 && b != nil; {
		if at == seq {
			return seq, nil
		}
		var err error
		if at, err = parentOf(b, at); err != nil {
			return 0, err
		}
	}
	return 0, fmt.Errorf("message %d is not on the active branch: %w", seq, chat.ErrNotFound)
}

// sessionTree returns the session and its message bucket (nil when it has
// no messages yet), or chat.ErrNotFound.
func sessionTree(tx *bolt.Tx, sessionID string) (*bolt.Bucket, chat.Session, error) {
	sessions, err := mustBucket(tx, bucketSessions)
	if err != nil {
		return nil, chat.Session{}, err
	}
	sess, err := getJSON[chat.Session](sessions, []byte(sessionID))
	if err != nil {
		return nil, chat.Session{}, fmt.Errorf("session %s: %w", sessionID, err)
	}
	b, err := sessionMessages(tx, sessionID, false)
	return b, sess, err
}

// readPath walks b once, newest key first, and returns the path from the
// root to head in order. Messages off the path are skipped undecoded,
// unless withBranches asks for the siblings of the path's messages: then
// their Parent is read, and the Branch of every path message that has
// siblings is returned.
func readPath(b *bolt.Bucket, head uint64, withBranches bool) ([]chat.Message, map[uint64]Branch, error) {
	if b == nil || head == 0 {
		return nil, nil, nil
	}
	var (
		// A path is at most as long as its head's seq (seqs grow along
		// it) and as the number of messages.
		path = make([]chat.Message, 0, min(head, b.Sequence()))
		// others holds the messages off the path by parent, newest first.
		others map[uint64][]uint64
		want   = head
	)
	c := b.Cursor()
	k, raw := c.Last()
	if !withBranches {
		k, raw = c.Seek(seqKey(head))
	}
	for ; k != nil; k, raw = c.Prev() {
		if raw == nil {
			continue
		}
		seq := binary.BigEndian.Uint64(k)
		if seq == want {
			var m chat.Message
			if err := json.Unmarshal(raw, &m); err != nil {
				return nil, nil, fmt.Errorf("decode message %d: %w", seq, err)
			}
			if m.Parent >= seq {
				return nil, nil, fmt.Errorf("message %d has parent %d, which is not older: %w", seq, m.Parent, chat.ErrUnavailable)
			}
			path = append(path, m)
			want = m.Parent
			if want == 0 && !withBranches {
				break
			}
			continue
		}
		if !withBranches {
			continue
		}
		parent, err := decodeParent(k, raw)
		if err != nil {
			return nil, nil, err
		}
		if others == nil {
			others = map[uint64][]uint64{}
		}
		others[parent] = append(others[parent], seq)
	}
	if want != 0 {
		return nil, nil, fmt.Errorf("message %d of the active branch is missing: %w", want, chat.ErrUnavailable)
	}
	slices.Reverse(path)
	return path, branchesOf(path, others), nil
}

// branchesOf places each path message among its siblings: itself and the
// off-path messages with the same parent.
func branchesOf(path []chat.Message, others map[uint64][]uint64) map[uint64]Branch {
	if len(others) == 0 {
		return nil
	}
	out := map[uint64]Branch{}
	for _, m := range path {
		rest := others[m.Parent]
		if len(rest) == 0 {
			continue
		}
		sibs := append([]uint64{m.Seq}, rest...)
		slices.Sort(sibs)
		i := slices.Index(sibs, m.Seq)
		br := Branch{Index: i, Count: len(sibs)}
		if i > 0 {
			br.Prev = sibs[i-1]
		}
		if i < len(sibs)-1 {
			br.Next = sibs[i+1]
		}
		out[m.Seq] = br
	}
	return out
}

// newestUnder returns the largest Seq in the subtree rooted at seq, in one
// pass over the keys after it. Children are newer than their parent, so
// by the time a message is met its parent's membership is known.
func newestUnder(b *bolt.Bucket, seq uint64) (uint64, error) {
	in := map[uint64]bool{seq: true}
	leaf := seq
	c := b.Cursor()
	for k, raw := c.Seek(seqKey(seq + 1)); k != nil; k, raw = c.Next() {
		if raw == nil {
			continue
		}
		parent, err := decodeParent(k, raw)
		if err != nil {
			return 0, err
		}
		if in[parent] {
			s := binary.BigEndian.Uint64(k)
			in[s], leaf = true, s
		}
	}
	return leaf, nil
}

// parentOf returns the Parent of the message at seq, or chat.ErrNotFound.
func parentOf(b *bolt.Bucket, seq uint64) (uint64, error) {
	k := seqKey(seq)
	raw := b.Get(k)
	if seq == 0 || raw == nil {
		return 0, fmt.Errorf("message %d: %w", seq, chat.ErrNotFound)
	}
	return decodeParent(k, raw)
}

// decodeParent reads only the Parent of a stored message.
func decodeParent(k, raw []byte) (uint64, error) {
	l, err := decodeLink(k, raw)
	return l.Parent, err
}

// link is the part of a stored message that its rewrite and the branch
// walks need.
type link struct {
	Parent uint64      `json:"parent"`
	Usage  *chat.Usage `json:"usage"`
}

// decodeLink reads only the Parent and Usage of a stored message.
func decodeLink(k, raw []byte) (link, error) {
	var l link
	if err := json.Unmarshal(raw, &l); err != nil {
		return link{}, fmt.Errorf("decode message %d: %w", binary.BigEndian.Uint64(k), err)
	}
	return l, nil
}
