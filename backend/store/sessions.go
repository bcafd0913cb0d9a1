package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"maestro/backend/chat"
)

// lastStamp is the last time now returned, in Unix milliseconds.
var lastStamp atomic.Int64

// now is the store's clock: UTC, millisecond precision, no monotonic part,
// so a value read back equals the value written. Within a process every
// call returns a later time than the one before, so two writes in the same
// millisecond still order sessions by activity.
func now() time.Time {
	t := time.Now().UTC().UnixMilli()
	for {
		last := lastStamp.Load()
		if t <= last {
			t = last + 1
		}
		if lastStamp.CompareAndSwap(last, t) {
			return time.UnixMilli(t).UTC()
		}
	}
}

// CreateSession stores a new session. It mints the id and times when they
// are empty and returns the stored value.
func (s *Store) CreateSession(ctx context.Context, sess chat.Session) (chat.Session, error) {
	if sess.ID == "" {
		sess.ID = chat.NewID()
	}
	if sess.CreatedAt.IsZero() {
		sess.CreatedAt = now()
	}
	if sess.UpdatedAt.IsZero() {
		sess.UpdatedAt = sess.CreatedAt
	}
	if sess.Approval == "" {
		sess.Approval = chat.ApprovalAsk
	}
	sess.Head, sess.Usage = 0, chat.Usage{} // no messages yet
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b, err := mustBucket(tx, bucketSessions)
		if err != nil {
			return err
		}
		if b.Get([]byte(sess.ID)) != nil {
			return fmt.Errorf("session %s already exists: %w", sess.ID, chat.ErrConflict)
		}
		return putJSON(b, []byte(sess.ID), sess)
	})
	if err != nil {
		return chat.Session{}, fmt.Errorf("store: create session: %w", err)
	}
	return sess, nil
}

// Session returns one session, or chat.ErrNotFound.
func (s *Store) Session(ctx context.Context, id string) (chat.Session, error) {
	var sess chat.Session
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b, err := mustBucket(tx, bucketSessions)
		if err != nil {
			return err
		}
		sess, err = getJSON[chat.Session](b, []byte(id))
		return err
	})
	if err != nil {
		return chat.Session{}, fmt.Errorf("store: session %s: %w", id, err)
	}
	return sess, nil
}

// Sessions lists every session, most recently updated first.
func (s *Store) Sessions(ctx context.Context) ([]chat.Session, error) {
	var out []chat.Session
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b, err := mustBucket(tx, bucketSessions)
		if err != nil {
			return err
		}
		return eachJSON(b, func(_ []byte, v chat.Session) error {
			out = append(out, v)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("store: list sessions: %w", err)
	}
	slices.SortStableFunc(out, func(a, b chat.Session) int {
		if c := b.UpdatedAt.Compare(a.UpdatedAt); c != 0 {
			return c
		}
		return cmp.Compare(b.ID, a.ID)
	})
	return out, nil
}

// UpdateSession applies fn to the stored session inside one write
// transaction. If fn returns an error nothing is written. The id, creation
// time, Head and Usage cannot be changed (the message methods own Head and
// Usage). UpdatedAt is the time of the last message (AppendMessage and
// PutMessage move it), so settings changes such as a rename or a tool
// toggle do not reorder the session list.
func (s *Store) UpdateSession(ctx context.Context, id string, fn func(*chat.Session) error) (chat.Session, error) {
	var sess chat.Session
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b, err := mustBucket(tx, bucketSessions)
		if err != nil {
			return err
		}
		sess, err = getJSON[chat.Session](b, []byte(id))
		if err != nil {
			return err
		}
		created, head, usage := sess.CreatedAt, sess.Head, sess.Usage
		if err := fn(&sess); err != nil {
			return err
		}
		sess.ID, sess.CreatedAt, sess.Head, sess.Usage = id, created, head, usage
		return putJSON(b, []byte(id), sess)
	})
	if err != nil {
		return chat.Session{}, fmt.Errorf("store: update session %s: %w", id, err)
	}
	return sess, nil
}

// later returns t, or just after prev if the clock has not moved past it, so
// UpdatedAt strictly increases and the list order follows the last change.
func later(t, prev time.Time) time.Time {
	if !t.After(prev) {
		return prev.Add(time.Millisecond)
	}
	return t
}

// DeleteSession removes a session with its messages, its registry snapshot
// and the attachment bytes no other session holds.
func (s *Store) DeleteSession(ctx context.Context, id string) error {
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b, err := mustBucket(tx, bucketSessions)
		if err != nil {
			return err
		}
		if b.Get([]byte(id)) == nil {
			return chat.ErrNotFound
		}
		if err := b.Delete([]byte(id)); err != nil {
			return err
		}
		msgs, err := mustBucket(tx, bucketMessages)
		if err != nil {
			return err
		}
		if err := dropSessionBlobs(tx, id, msgs.Bucket([]byte(id))); err != nil {
			return err
		}
		if err := msgs.DeleteBucket([]byte(id)); err != nil && !errors.Is(err, bolterrors.ErrBucketNotFound) {
			return err
		}
		reg, err := mustBucket(tx, bucketRegistry)
		if err != nil {
			return err
		}
		return reg.Delete([]byte(id))
	})
	if err != nil {
		return fmt.Errorf("store: delete session %s: %w", id, err)
	}
	return nil
}
