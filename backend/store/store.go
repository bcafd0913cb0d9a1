package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"maestro/backend/chat"
)

// Bucket and key names. See the package doc for the tree.
var (
	bucketMeta       = []byte("meta")
	bucketSessions   = []byte("sessions")
	bucketMessages   = []byte("messages")
	bucketConnectors = []byte("connectors")
	bucketRegistry   = []byte("registry")
	bucketSettings   = []byte("settings")
	bucketCatalogs   = []byte("catalogs")
	bucketTasks      = []byte("tasks")
	bucketTrust      = []byte("trust")
	bucketAudit      = []byte("audit")

	keyApp     = []byte("app")
	keyVersion = []byte("version")
	appMarker  = []byte("maestro")
)

// FileName is the data file's name inside the data dir.
const FileName = "maestro.db"

// DefaultOpenTimeout bounds how long Open waits for another process's lock.
const DefaultOpenTimeout = time.Second

// Store is Maestro's bbolt file.
type Store struct {
	db   *bolt.DB
	path string
}

// DataDir returns $MAESTRO_DATA_DIR, or os.UserConfigDir()/Maestro.
func DataDir() (string, error) {
	if d := os.Getenv("MAESTRO_DATA_DIR"); d != "" {
		return filepath.Abs(d)
	}
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("store: find the config dir: %w", err)
	}
	return filepath.Join(base, "Maestro"), nil
}

// Options tune Open.
type Options struct {
	// Timeout bounds the wait for the file lock; zero means DefaultOpenTimeout.
	Timeout time.Duration
	// NoSync skips fsync (benchmarks only).
	NoSync bool
}

// Data folder and file permissions: the file holds every conversation, so
// only its owner may read it.
const (
	dirPerm  os.FileMode = 0o700
	filePerm os.FileMode = 0o600
)

// Open opens or creates dir/maestro.db and runs pending migrations.
// It never overwrites a file it does not recognise. An existing folder or
// file that group or others can reach is restricted to dirPerm and
// filePerm: MkdirAll and bolt.Open apply those modes only to what they
// create, and a folder made by an older version, a permissive umask or a
// restored backup keeps whatever it had.
func Open(ctx context.Context, dir string, opts Options) (*Store, error) {
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return nil, chat.E(chat.ErrUnavailable, "cannot create the data folder %s: %w", dir, err)
	}
	if err := restrict(dir, dirPerm); err != nil {
		return nil, chat.E(chat.ErrUnavailable, "cannot restrict the data folder %s to its owner: %w", dir, err)
	}
	path := filepath.Join(dir, FileName)
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultOpenTimeout
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	db, err := bolt.Open(path, filePerm, &bolt.Options{Timeout: opts.Timeout, NoSync: opts.NoSync})
	if err != nil {
		return nil, openError(path, err)
	}
	s := &Store{db: db, path: path}
	if err := s.migrate(); err != nil {
		_ = db.Close()
		return nil, err
	}
	// Only once the file is known to be ours: a foreign file is left as it
	// was found.
	if err := restrict(path, filePerm); err != nil {
		_ = db.Close()
		return nil, chat.E(chat.ErrUnavailable, "cannot restrict the data file %s to its owner: %w", path, err)
	}
	return s, nil
}

// restrict clears the permission bits of path that perm does not grant,
// keeping narrower modes as they are. On Windows, where Go maps modes onto
// the read-only attribute alone, it changes nothing that matters.
func restrict(path string, perm os.FileMode) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if fi.Mode().Perm()&^perm == 0 {
		return nil
	}
	return os.Chmod(path, fi.Mode().Perm()&perm)
}

func openError(path string, err error) error {
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return chat.E(chat.ErrConflict, "the data file %s is in use by another Maestro window", path)
	case errors.Is(err, bolterrors.ErrInvalid), errors.Is(err, bolterrors.ErrVersionMismatch), errors.Is(err, bolterrors.ErrChecksum):
		return chat.E(chat.ErrUnavailable, "the data file %s is damaged or is not a Maestro data file (%w); it was left untouched", path, err)
	default:
		return chat.E(chat.ErrUnavailable, "cannot open the data file %s: %w", path, err)
	}
}

// Path is the data file's path.
func (s *Store) Path() string { return s.path }

// Close closes the file. Call it once, after all other calls have returned.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("store: close %s: %w", s.path, err)
	}
	return nil
}

// view and update run fn in a transaction, after checking ctx. bbolt has no
// cancellation inside a transaction; transactions here are short.
func (s *Store) view(ctx context.Context, fn func(*bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.View(fn)
}

func (s *Store) update(ctx context.Context, fn func(*bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.Update(fn)
}

// getJSON decodes the value at k. A missing key is chat.ErrNotFound. The
// decode copies out of the mmap, so the result outlives the transaction.
func getJSON[T any](b *bolt.Bucket, k []byte) (T, error) {
	var v T
	raw := b.Get(k)
	if raw == nil {
		return v, chat.ErrNotFound
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, fmt.Errorf("decode %q: %w", k, err)
	}
	return v, nil
}

// putJSON encodes v and stores it at k.
func putJSON[T any](b *bolt.Bucket, k []byte, v T) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", k, err)
	}
	return b.Put(k, raw)
}

// eachJSON decodes every value of b in key order.
func eachJSON[T any](b *bolt.Bucket, fn func(k []byte, v T) error) error {
	return b.ForEach(func(k, raw []byte) error {
		if raw == nil { // a nested bucket
			return nil
		}
		var v T
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("decode %q: %w", k, err)
		}
		return fn(bytes.Clone(k), v)
	})
}

func seqKey(seq uint64) []byte {
	k := make([]byte, 8)
	binary.BigEndian.PutUint64(k, seq)
	return k
}

// mustBucket returns a top-level bucket that migrations guarantee exists.
func mustBucket(tx *bolt.Tx, name []byte) (*bolt.Bucket, error) {
	b := tx.Bucket(name)
	if b == nil {
		return nil, fmt.Errorf("store: bucket %s is missing: %w", name, chat.ErrUnavailable)
	}
	return b, nil
}
