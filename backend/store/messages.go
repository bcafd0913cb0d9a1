package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"maestro/backend/chat"
)

// AppendMessage adds msg to the end of a session's history. It assigns Seq
// (and ID and CreatedAt when empty), bumps the session's UpdatedAt in the
// same transaction, and returns the stored message.
func (s *Store) AppendMessage(ctx context.Context, sessionID string, msg chat.Message) (chat.Message, error) {
	if msg.ID == "" {
		msg.ID = chat.NewID()
	}
	if msg.CreatedAt.IsZero() {
		msg.CreatedAt = now()
	}
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b, err := sessionMessages(tx, sessionID, true)
		if err != nil {
			return err
		}
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		msg.Seq = seq
		if err := putJSON(b, seqKey(seq), msg); err != nil {
			return err
		}
		return touchSession(tx, sessionID)
	})
	if err != nil {
		return chat.Message{}, fmt.Errorf("store: append message to session %s: %w", sessionID, err)
	}
	return msg, nil
}

// PutMessage replaces the stored message with the same Seq, for example to
// checkpoint a streaming reply or to record its final state.
func (s *Store) PutMessage(ctx context.Context, sessionID string, msg chat.Message) error {
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b, err := sessionMessages(tx, sessionID, false)
		if err != nil {
			return err
		}
		k := seqKey(msg.Seq)
		if msg.Seq == 0 || b.Get(k) == nil {
			return fmt.Errorf("message %d: %w", msg.Seq, chat.ErrNotFound)
		}
		if err := putJSON(b, k, msg); err != nil {
			return err
		}
		return touchSession(tx, sessionID)
	})
	if err != nil {
		return fmt.Errorf("store: put message in session %s: %w", sessionID, err)
	}
	return nil
}

// Messages returns a session's history in order.
func (s *Store) Messages(ctx context.Context, sessionID string) ([]chat.Message, error) {
	var out []chat.Message
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b, err := sessionMessages(tx, sessionID, false)
		if err != nil {
			return err
		}
		if b == nil {
			return nil
		}
		out = make([]chat.Message, 0, b.Stats().KeyN)
		return eachJSON(b, func(_ []byte, m chat.Message) error {
			out = append(out, m)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("store: messages of session %s: %w", sessionID, err)
	}
	return out, nil
}

// MessagesBefore returns a session's last limit messages whose Seq is below
// before (the last limit of all when before is 0), oldest first, and
// whether older messages remain. Opening a long session reads its tail this
// way instead of decoding all of it; the next page is MessagesBefore(ctx,
// id, page[0].Seq, limit).
func (s *Store) MessagesBefore(ctx context.Context, sessionID string, before uint64, limit int) ([]chat.Message, bool, error) {
	if limit <= 0 {
		return nil, false, fmt.Errorf("store: messages of session %s: limit %d: %w", sessionID, limit, chat.ErrInvalid)
	}
	var (
		out  []chat.Message
		more bool
	)
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b, err := sessionMessages(tx, sessionID, false)
		if err != nil || b == nil {
			return err
		}
		c := b.Cursor()
		var k, v []byte
		if before == 0 {
			k, v = c.Last()
		} else if k, _ = c.Seek(seqKey(before)); k == nil {
			k, v = c.Last()
		} else {
			k, v = c.Prev()
		}
		for ; k != nil; k, v = c.Prev() {
			if v == nil { // a nested bucket
				continue
			}
			if len(out) == limit {
				more = true
				break
			}
			var m chat.Message
			if err := json.Unmarshal(v, &m); err != nil {
				return fmt.Errorf("decode %q: %w", k, err)
			}
			out = append(out, m)
		}
		slices.Reverse(out)
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("store: messages of session %s: %w", sessionID, err)
	}
	return out, more, nil
}

// sessionMessages returns the session's message bucket after checking that
// the session exists. Without create, a session with no messages yet gives a
// nil bucket; with create, the bucket is made.
func sessionMessages(tx *bolt.Tx, sessionID string, create bool) (*bolt.Bucket, error) {
	sessions, err := mustBucket(tx, bucketSessions)
	if err != nil {
		return nil, err
	}
	if sessions.Get([]byte(sessionID)) == nil {
		return nil, fmt.Errorf("session %s: %w", sessionID, chat.ErrNotFound)
	}
	all, err := mustBucket(tx, bucketMessages)
	if err != nil {
		return nil, err
	}
	if !create {
		return all.Bucket([]byte(sessionID)), nil
	}
	return all.CreateBucketIfNotExists([]byte(sessionID))
}

// touchSession moves the session's UpdatedAt forward.
func touchSession(tx *bolt.Tx, sessionID string) error {
	b, err := mustBucket(tx, bucketSessions)
	if err != nil {
		return err
	}
	sess, err := getJSON[chat.Session](b, []byte(sessionID))
	if err != nil {
		return err
	}
	sess.UpdatedAt = later(now(), sess.UpdatedAt)
	return putJSON(b, []byte(sessionID), sess)
}

// Message returns one message of a session by its sequence number.
func (s *Store) Message(ctx context.Context, sessionID string, seq uint64) (chat.Message, error) {
	var m chat.Message
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b, err := sessionMessages(tx, sessionID, false)
		if err != nil {
			return err
		}
		if b == nil {
			return fmt.Errorf("message %d: %w", seq, chat.ErrNotFound)
		}
		m, err = getJSON[chat.Message](b, seqKey(seq))
		return err
	})
	if err != nil {
		return chat.Message{}, fmt.Errorf("store: message %d of session %s: %w", seq, sessionID, err)
	}
	return m, nil
}
