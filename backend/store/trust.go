package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"

	"maestro/backend/chat"
)

// The tasks, trust and audit buckets hold values owned by backend/mcp and
// backend/tools; the store keeps them as JSON and does not interpret them.

// PutTask stores an MCP task record under its connector and task id.
func (s *Store) PutTask(ctx context.Context, connectorID, taskID string, v any) error {
	return s.putRaw(ctx, bucketTasks, taskKey(connectorID, taskID), v)
}

// DeleteTask removes a task record.
func (s *Store) DeleteTask(ctx context.Context, connectorID, taskID string) error {
	return s.deleteRaw(ctx, bucketTasks, taskKey(connectorID, taskID))
}

// Tasks returns every task record, in key order (by connector, then task
// id).
func (s *Store) Tasks(ctx context.Context) ([]json.RawMessage, error) {
	return s.rawPrefix(ctx, bucketTasks, "")
}

func taskKey(connectorID, taskID string) string { return connectorID + "/" + taskID }

// TrustRecord decodes the record kind/key into v, or returns
// chat.ErrNotFound.
func (s *Store) TrustRecord(ctx context.Context, kind, key string, v any) error {
	return s.getRaw(ctx, bucketTrust, kind+"/"+key, v)
}

// PutTrustRecord stores v as the record kind/key.
func (s *Store) PutTrustRecord(ctx context.Context, kind, key string, v any) error {
	return s.putRaw(ctx, bucketTrust, kind+"/"+key, v)
}

// DeleteTrustRecord removes the record kind/key.
func (s *Store) DeleteTrustRecord(ctx context.Context, kind, key string) error {
	return s.deleteRaw(ctx, bucketTrust, kind+"/"+key)
}

// TrustRecords returns the records of one kind whose key starts with
// prefix, in key order.
func (s *Store) TrustRecords(ctx context.Context, kind, prefix string) ([]json.RawMessage, error) {
	return s.rawPrefix(ctx, bucketTrust, kind+"/"+prefix)
}

// rawPrefix returns the values of bucket whose keys start with prefix.
func (s *Store) rawPrefix(ctx context.Context, bucket []byte, prefix string) ([]json.RawMessage, error) {
	var out []json.RawMessage
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b, err := mustBucket(tx, bucket)
		if err != nil {
			return err
		}
		c := b.Cursor()
		p := []byte(prefix)
		for k, v := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, v = c.Next() {
			if v != nil {
				out = append(out, bytes.Clone(v))
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: list %s/%s: %w", bucket, strings.TrimSuffix(prefix, "/"), err)
	}
	return out, nil
}

// AuditKeep is how many audit records the store keeps per connector: an
// append past it drops the oldest, so a chatty connector cannot fill the
// disk.
const AuditKeep = 10_000

// AppendAudit adds a record to a connector's audit log, dropping the
// oldest past AuditKeep.
func (s *Store) AppendAudit(ctx context.Context, connectorID string, v any) error {
	if connectorID == "" {
		return fmt.Errorf("store: append audit: no connector: %w", chat.ErrInvalid)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("store: append audit: %w", err)
	}
	err = s.update(ctx, func(tx *bolt.Tx) error {
		all, err := mustBucket(tx, bucketAudit)
		if err != nil {
			return err
		}
		b, err := all.CreateBucketIfNotExists([]byte(connectorID))
		if err != nil {
			return err
		}
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		if err := b.Put(seqKey(seq), raw); err != nil {
			return err
		}
		if seq <= AuditKeep {
			return nil
		}
		return b.Delete(seqKey(seq - AuditKeep)) // one in, one out
	})
	if err != nil {
		return fmt.Errorf("store: append audit of %s: %w", connectorID, err)
	}
	return nil
}

// Audit calls fn with a connector's audit records, oldest first, until fn
// returns an error (which Audit returns). A connector without records has
// none.
func (s *Store) Audit(ctx context.Context, connectorID string, fn func(json.RawMessage) error) error {
	err := s.view(ctx, func(tx *bolt.Tx) error {
		all, err := mustBucket(tx, bucketAudit)
		if err != nil {
			return err
		}
		b := all.Bucket([]byte(connectorID))
		if b == nil {
			return nil
		}
		return b.ForEach(func(_, v []byte) error { return fn(bytes.Clone(v)) })
	})
	if err != nil {
		return fmt.Errorf("store: read the audit of %s: %w", connectorID, err)
	}
	return nil
}

// DeleteAudit removes a connector's audit log.
func (s *Store) DeleteAudit(ctx context.Context, connectorID string) error {
	err := s.update(ctx, func(tx *bolt.Tx) error {
		all, err := mustBucket(tx, bucketAudit)
		if err != nil {
			return err
		}
		if all.Bucket([]byte(connectorID)) == nil {
			return nil
		}
		return all.DeleteBucket([]byte(connectorID))
	})
	if err != nil {
		return fmt.Errorf("store: delete the audit of %s: %w", connectorID, err)
	}
	return nil
}
