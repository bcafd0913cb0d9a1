package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"maestro/backend/chat"
)

// migration moves the schema from version-1 to version.
type migration struct {
	version uint64
	name    string
	migrate func(tx *bolt.Tx) error
}

// migrations is ordered by version, starting at 1, with no gaps. Append only:
// a released migration never changes. Each one has a test in
// migrations_test.go, and TestEveryMigrationHasATest enforces that.
var migrations = []migration{
	{version: 1, name: "create the top-level buckets", migrate: createBuckets},
}

// SchemaVersion is the version a fully migrated file has.
func SchemaVersion() uint64 { return migrations[len(migrations)-1].version }

func createBuckets(tx *bolt.Tx) error {
	for _, name := range [][]byte{bucketSessions, bucketMessages, bucketConnectors, bucketRegistry, bucketSettings} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	return nil
}

// migrate runs every pending migration in one Update transaction, after
// checking that the file is ours (or empty). Any error rolls everything back.
func (s *Store) migrate() error {
	err := s.db.Update(func(tx *bolt.Tx) error {
		from, err := schemaVersion(tx)
		if err != nil {
			return err
		}
		return runMigrations(tx, from, migrations)
	})
	if err != nil {
		return chat.E(chat.ErrUnavailable, "the data file %s cannot be used: %w", s.path, err)
	}
	return nil
}

// schemaVersion reads meta/version. A file with no buckets at all is new
// (version 0). A file with buckets but no Maestro marker belongs to another
// program, and a version newer than this build knows came from a newer
// Maestro: both are refused so nothing is overwritten.
func schemaVersion(tx *bolt.Tx) (uint64, error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		empty := true
		_ = tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
		if !empty {
			return 0, errors.New("it was written by another program and was left untouched")
		}
		return 0, nil
	}
	if !bytes.Equal(meta.Get(keyApp), appMarker) {
		return 0, errors.New("it is not a Maestro data file and was left untouched")
	}
	raw := meta.Get(keyVersion)
	if len(raw) != 8 {
		return 0, errors.New("its schema version is unreadable; it was left untouched")
	}
	v := binary.BigEndian.Uint64(raw)
	if v > SchemaVersion() {
		return 0, fmt.Errorf("it was written by a newer Maestro (schema %d, this build knows %d); update Maestro", v, SchemaVersion())
	}
	return v, nil
}

// runMigrations applies ms[i] for every version above from, then records the
// new version. It is separate from migrate so tests can run a prefix.
func runMigrations(tx *bolt.Tx, from uint64, ms []migration) error {
	if from == uint64(len(ms)) && tx.Bucket(bucketMeta) != nil {
		return nil
	}
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return fmt.Errorf("create meta bucket: %w", err)
	}
	if err := meta.Put(keyApp, appMarker); err != nil {
		return err
	}
	for _, m := range ms {
		if m.version <= from {
			continue
		}
		if err := m.migrate(tx); err != nil {
			return fmt.Errorf("migration %d (%s): %w", m.version, m.name, err)
		}
		if err := meta.Put(keyVersion, seqKey(m.version)); err != nil {
			return err
		}
	}
	return nil
}
