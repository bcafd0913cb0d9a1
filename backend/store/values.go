package store

import (
	"context"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"maestro/backend/chat"
)

// The connectors, registry, settings and catalogs buckets hold values owned
// by other packages. The store keeps them as JSON and does not interpret them.

// Setting decodes the setting at key into v, or returns chat.ErrNotFound.
func (s *Store) Setting(ctx context.Context, key string, v any) error {
	return s.getRaw(ctx, bucketSettings, key, v)
}

// PutSetting stores v as the setting at key.
func (s *Store) PutSetting(ctx context.Context, key string, v any) error {
	return s.putRaw(ctx, bucketSettings, key, v)
}

// Connector decodes one connector config into v.
func (s *Store) Connector(ctx context.Context, id string, v any) error {
	return s.getRaw(ctx, bucketConnectors, id, v)
}

// PutConnector stores a connector config.
func (s *Store) PutConnector(ctx context.Context, id string, v any) error {
	return s.putRaw(ctx, bucketConnectors, id, v)
}

// DeleteConnector removes a connector config.
func (s *Store) DeleteConnector(ctx context.Context, id string) error {
	return s.deleteRaw(ctx, bucketConnectors, id)
}

// Connectors returns every connector config as raw JSON, keyed by id order.
func (s *Store) Connectors(ctx context.Context) ([]json.RawMessage, error) {
	var out []json.RawMessage
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b, err := mustBucket(tx, bucketConnectors)
		if err != nil {
			return err
		}
		return eachJSON(b, func(_ []byte, v json.RawMessage) error {
			out = append(out, v)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("store: list connectors: %w", err)
	}
	return out, nil
}

// RegistrySnapshot decodes a session's registry snapshot into v.
func (s *Store) RegistrySnapshot(ctx context.Context, sessionID string, v any) error {
	return s.getRaw(ctx, bucketRegistry, sessionID, v)
}

// PutRegistrySnapshot stores a session's registry snapshot.
func (s *Store) PutRegistrySnapshot(ctx context.Context, sessionID string, v any) error {
	return s.putRaw(ctx, bucketRegistry, sessionID, v)
}

// ModelList decodes provider's kept model list into v
// (backend/providers/catalog owns its shape).
func (s *Store) ModelList(ctx context.Context, provider string, v any) error {
	return s.getRaw(ctx, bucketCatalogs, provider, v)
}

// PutModelList keeps provider's model list.
func (s *Store) PutModelList(ctx context.Context, provider string, v any) error {
	return s.putRaw(ctx, bucketCatalogs, provider, v)
}

func (s *Store) getRaw(ctx context.Context, bucket []byte, key string, v any) error {
	err := s.view(ctx, func(tx *bolt.Tx) error {
		b, err := mustBucket(tx, bucket)
		if err != nil {
			return err
		}
		raw, err := getJSON[json.RawMessage](b, []byte(key))
		if err != nil {
			return err
		}
		return json.Unmarshal(raw, v)
	})
	if err != nil {
		return fmt.Errorf("store: read %s/%s: %w", bucket, key, err)
	}
	return nil
}

func (s *Store) putRaw(ctx context.Context, bucket []byte, key string, v any) error {
	if key == "" {
		return fmt.Errorf("store: write %s: empty key: %w", bucket, chat.ErrInvalid)
	}
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b, err := mustBucket(tx, bucket)
		if err != nil {
			return err
		}
		return putJSON(b, []byte(key), v)
	})
	if err != nil {
		return fmt.Errorf("store: write %s/%s: %w", bucket, key, err)
	}
	return nil
}

func (s *Store) deleteRaw(ctx context.Context, bucket []byte, key string) error {
	err := s.update(ctx, func(tx *bolt.Tx) error {
		b, err := mustBucket(tx, bucket)
		if err != nil {
			return err
		}
		if b.Get([]byte(key)) == nil {
			return chat.ErrNotFound
		}
		return b.Delete([]byte(key))
	})
	if err != nil {
		return fmt.Errorf("store: delete %s/%s: %w", bucket, key, err)
	}
	return nil
}
