package store

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"slices"

	bolt "go.etcd.io/bbolt"

	"maestro/backend/chat"
)

// ActiveTail returns the session and the end of its active branch, read in
// one transaction: the messages from Head back towards the first, oldest
// first, for as long as keep reports true. The first message keep refuses
// ends the walk and is not returned; the whole branch comes back when keep
// never refuses. Only the messages returned (and the one refused) are
// decoded, so reading the part of a long session that a request needs
// costs what that part costs, not what the session does. The session is
// the state the messages belong to (its Head and UpdatedAt identify it).
func (s *Store) ActiveTail(ctx context.Context, sessionID string, keep func(chat.Message) bool) (chat.Session, []chat.Message, error) {
	return s.tail(ctx, sessionID, 0, keep)
}

// TailFrom is ActiveTail walked back from the message at seq instead of
// the session's Head: the branch that ends there (a regenerated answer is
// answered from it). The message must be on the active branch, or
// chat.ErrNotFound.
func (s *Store) TailFrom(ctx context.Context, sessionID string, seq uint64, keep func(chat.Message) bool) (chat.Session, []chat.Message, error) {
	if seq == 0 {
		return chat.Session{}, nil, fmt.Errorf("store: branch of session %s up to message 0: %w", sessionID, chat.ErrNotFound)
	}
	return s.tail(ctx, sessionID, seq, keep)
}

// tail walks back from `from` (0: the Head).
func (s *Store) tail(ctx context.Context, sessionID string, from uint64, keep func(chat.Message) bool) (chat.Session, []chat.Message, error) {
	var (
		sess chat.Session
		out  []chat.Message
	)
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b, ss, err := sessionTree(tx, sessionID)
		if err != nil {
			return err
		}
		sess = ss
		start := sess.Head
		if from != 0 {
			if start, err = onPath(b, sess.Head, from); err != nil {
				return err
			}
		}
		for at := start; at != 0 && b != nil; {
			m, err := pathMessage(b, at)
			if err != nil {
				return err
			}
			if !keep(m) {
				break
			}
			out = append(out, m)
			at = m.Parent
		}
		return nil
	})
	if err != nil {
		return chat.Session{}, nil, fmt.Errorf("store: end of the active branch of session %s: %w", sessionID, err)
	}
	slices.Reverse(out)
	if out == nil {
		out = []chat.Message{}
	}
	return sess, out, nil
}

// pathMessage decodes the message at seq of a branch being walked down.
func pathMessage(b *bolt.Bucket, seq uint64) (chat.Message, error) {
	raw := b.Get(seqKey(seq))
	if raw == nil {
		return chat.Message{}, fmt.Errorf("message %d of the active branch is missing: %w", seq, chat.ErrUnavailable)
	}
	var m chat.Message
	if err := json.Unmarshal(raw, &m); err != nil {
		return chat.Message{}, fmt.Errorf("decode message %d: %w", seq, err)
	}
	if m.Parent >= seq {
		return chat.Message{}, fmt.Errorf("message %d has parent %d, which is not older: %w", seq, m.Parent, chat.ErrUnavailable)
	}
	return m, nil
}

// streamBatch is how many messages PathMessages decodes per transaction.
const streamBatch = 64

// PathMessages yields the session's active branch message by message,
// oldest first, without holding it all: it finds the branch's sequence
// numbers in one pass (reading only each message's parent), then decodes
// streamBatch messages per short read transaction, so writers are never
// held up by a long export. A branch changed meanwhile is read as it was
// when the walk began, except that a message rewritten since is read in
// its new state. A failure is the last item.
func (s *Store) PathMessages(ctx context.Context, sessionID string) iter.Seq2[chat.Message, error] {
	return func(yield func(chat.Message, error) bool) {
		seqs, err := s.pathSeqs(ctx, sessionID)
		if err != nil {
			yield(chat.Message{}, err)
			return
		}
		for len(seqs) > 0 {
			n := min(streamBatch, len(seqs))
			batch, err := s.readSeqs(ctx, sessionID, seqs[:n])
			if err != nil {
				yield(chat.Message{}, err)
				return
			}
			for _, m := range batch {
				if !yield(m, nil) {
					return
				}
			}
			seqs = seqs[n:]
		}
	}
}

// pathSeqs returns the sequence numbers of the active branch, oldest first.
func (s *Store) pathSeqs(ctx context.Context, sessionID string) ([]uint64, error) {
	var seqs []uint64
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b, sess, err := sessionTree(tx, sessionID)
		if err != nil || b == nil {
			return err
		}
		for at := sess.Head; at != 0; {
			seqs = append(seqs, at)
			parent, err := parentOf(b, at)
			if err != nil {
				return err
			}
			if parent >= at {
				return fmt.Errorf("message %d has parent %d, which is not older: %w", at, parent, chat.ErrUnavailable)
			}
			at = parent
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: active branch of session %s: %w", sessionID, err)
	}
	slices.Reverse(seqs)
	return seqs, nil
}

// readSeqs decodes the messages at seqs in one transaction.
func (s *Store) readSeqs(ctx context.Context, sessionID string, seqs []uint64) ([]chat.Message, error) {
	out := make([]chat.Message, 0, len(seqs))
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b, err := sessionMessages(tx, sessionID, false)
		if err != nil {
			return err
		}
		if b == nil {
			return fmt.Errorf("messages: %w", chat.ErrNotFound)
		}
		for _, seq := range seqs {
			m, err := getJSON[chat.Message](b, seqKey(seq))
			if err != nil {
				return fmt.Errorf("message %d: %w", seq, err)
			}
			out = append(out, m)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: read messages of session %s: %w", sessionID, err)
	}
	return out, nil
}
