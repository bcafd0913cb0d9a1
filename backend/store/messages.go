package store

import (
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"maestro/backend/chat"
)

// AppendMessage adds msg to the end of the session's active branch: its
// Parent is the session's Head, and Head moves to it. It assigns Seq (and ID
// and CreatedAt when empty), bumps the session's UpdatedAt in the same
// transaction, and returns the message with those set. Large attachment
// bytes are stored apart (blobs.go); the returned message keeps them.
func (s *Store) AppendMessage(ctx context.Context, sessionID string, msg chat.Message) (chat.Message, error) {
	m, err := s.appendMessage(ctx, sessionID, msg, func(_ *bolt.Bucket, sess chat.Session) (uint64, error) {
		return sess.Head, nil
	})
	if err != nil {
		return chat.Message{}, fmt.Errorf("store: append message to session %s: %w", sessionID, err)
	}
	return m, nil
}

// appendMessage stores msg under the parent that parentOf picks, inside one
// transaction that also moves the session's Head to it and its UpdatedAt
// forward. A failure writes nothing and consumes no sequence number.
func (s *Store) appendMessage(ctx context.Context, sessionID string, msg chat.Message,
	parentOf func(b *bolt.Bucket, sess chat.Session) (uint64, error)) (chat.Message, error) {
	if msg.ID == "" {
		msg.ID = chat.NewID()
	}
	if msg.CreatedAt.IsZero() {
		msg.CreatedAt = now()
	}
	err := s.update(ctx, func(tx *bolt.Tx) error {
		sessions, err := mustBucket(tx, bucketSessions)
		if err != nil {
			return err
		}
		sess, err := getJSON[chat.Session](sessions, []byte(sessionID))
		if err != nil {
			return fmt.Errorf("session %s: %w", sessionID, err)
		}
		b, err := sessionMessages(tx, sessionID, true)
		if err != nil {
			return err
		}
		parent, err := parentOf(b, sess)
		if err != nil {
			return err
		}
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		msg.Seq, msg.Parent = seq, parent
		stored, err := stashBlobs(tx, sessionID, msg)
		if err != nil {
			return err
		}
		if err := putJSON(b, seqKey(seq), stored); err != nil {
			return err
		}
		sess.Head = seq
		sess.UpdatedAt = later(now(), sess.UpdatedAt)
		if msg.Usage != nil {
			sess.Usage.Add(*msg.Usage)
		}
		return putJSON(sessions, []byte(sessionID), sess)
	})
	if err != nil {
		return chat.Message{}, err
	}
	return msg, nil
}

// PutMessage replaces the stored message with the same Seq, for example to
// checkpoint a streaming reply or to record its final state. The message
// keeps its place in the tree: the stored Parent wins over msg.Parent, and
// the session's Head does not move, so a message off the active branch can
// be rewritten too. The session's Usage follows the change of the
// message's.
func (s *Store) PutMessage(ctx context.Context, sessionID string, msg chat.Message) error {
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b, err := sessionMessages(tx, sessionID, false)
		if err != nil {
			return err
		}
		if b == nil || msg.Seq == 0 {
			return fmt.Errorf("message %d: %w", msg.Seq, chat.ErrNotFound)
		}
		k := seqKey(msg.Seq)
		raw := b.Get(k)
		if raw == nil {
			return fmt.Errorf("message %d: %w", msg.Seq, chat.ErrNotFound)
		}
		old, err := decodeLink(k, raw)
		if err != nil {
			return err
		}
		msg.Parent = old.Parent
		stored, err := stashBlobs(tx, sessionID, msg)
		if err != nil {
			return err
		}
		if err := putJSON(b, k, stored); err != nil {
			return err
		}
		return touchSession(tx, sessionID, func(u *chat.Usage) {
			if old.Usage != nil {
				u.Sub(*old.Usage)
			}
			if msg.Usage != nil {
				u.Add(*msg.Usage)
			}
		})
	})
	if err != nil {
		return fmt.Errorf("store: put message in session %s: %w", sessionID, err)
	}
	return nil
}

// Messages returns the session's active branch: the messages from the
// first one to the session's Head, in order, with the bytes of their
// attachments put back (blobs.go): the history a request is rendered from.
// Messages on other branches are skipped without being decoded.
func (s *Store) Messages(ctx context.Context, sessionID string) ([]chat.Message, error) {
	var out []chat.Message
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b, sess, err := sessionTree(tx, sessionID)
		if err != nil {
			return err
		}
		out, _, err = readPath(b, sess.Head, false)
		fillBlobs(tx, out)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: messages of session %s: %w", sessionID, err)
	}
	if out == nil {
		out = []chat.Message{}
	}
	return out, nil
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

// touchSession moves the session's UpdatedAt forward and lets usage adjust
// its Usage.
func touchSession(tx *bolt.Tx, sessionID string, usage func(*chat.Usage)) error {
	b, err := mustBucket(tx, bucketSessions)
	if err != nil {
		return err
	}
	sess, err := getJSON[chat.Session](b, []byte(sessionID))
	if err != nil {
		return err
	}
	sess.UpdatedAt = later(now(), sess.UpdatedAt)
	usage(&sess.Usage)
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
