package store

import (
	"encoding/binary"
	"errors"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// migrationTests holds one test per migration version. A migration without
// an entry fails TestEveryMigrationHasATest.
var migrationTests = map[uint64]func(t *testing.T, db *bolt.DB){
	1: func(t *testing.T, db *bolt.DB) {
		err := db.View(func(tx *bolt.Tx) error {
			for _, name := range [][]byte{bucketMeta, bucketSessions, bucketMessages, bucketConnectors, bucketRegistry, bucketSettings} {
				if tx.Bucket(name) == nil {
					t.Errorf("bucket %s missing after migration 1", name)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	},
}

func TestEveryMigrationHasATest(t *testing.T) {
	t.Parallel()
	for i, m := range migrations {
		if m.version != uint64(i+1) {
			t.Errorf("migration %d has version %d; versions must run 1, 2, 3… with no gaps", i, m.version)
		}
		if migrationTests[m.version] == nil {
			t.Errorf("migration %d (%s) has no test in migrationTests", m.version, m.name)
		}
	}
}

// TestMigrations runs each migration on a file migrated up to the version
// before it, then checks the result with that migration's test.
func TestMigrations(t *testing.T) {
	t.Parallel()
	for _, m := range migrations {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			db, err := bolt.Open(filepath.Join(t.TempDir(), FileName), 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			err = db.Update(func(tx *bolt.Tx) error {
				if err := runMigrations(tx, 0, migrations[:m.version-1]); err != nil {
					return err
				}
				return runMigrations(tx, m.version-1, migrations[:m.version])
			})
			if err != nil {
				t.Fatalf("migration %d: %v", m.version, err)
			}
			_ = db.View(func(tx *bolt.Tx) error {
				if got := binary.BigEndian.Uint64(tx.Bucket(bucketMeta).Get(keyVersion)); got != m.version {
					t.Errorf("meta/version = %d, want %d", got, m.version)
				}
				return nil
			})
			if test := migrationTests[m.version]; test != nil {
				test(t, db)
			}
		})
	}
}

// TestMigrationFailureRollsBack: a failing migration leaves the file at the
// version it had.
func TestMigrationFailureRollsBack(t *testing.T) {
	t.Parallel()
	db, err := bolt.Open(filepath.Join(t.TempDir(), FileName), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	failing := append(append([]migration{}, migrations...), migration{
		version: SchemaVersion() + 1, name: "fails",
		migrate: func(tx *bolt.Tx) error {
			_, _ = tx.CreateBucket([]byte("half-made"))
			return errors.New("disk on fire")
		},
	})
	err = db.Update(func(tx *bolt.Tx) error { return runMigrations(tx, 0, failing) })
	if err == nil {
		t.Fatal("runMigrations succeeded with a failing migration")
	}
	_ = db.View(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketMeta) != nil || tx.Bucket([]byte("half-made")) != nil {
			t.Error("a failed migration run left buckets behind")
		}
		return nil
	})
}
