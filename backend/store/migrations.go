package store

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
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
	{version: 2, name: "link messages into a tree", migrate: linkMessages},
	{version: 3, name: "create the catalogs bucket", migrate: createCatalogs},
	{version: 4, name: "keep attachment bytes apart, once", migrate: moveAttachmentBytes},
	{version: 5, name: "add up each session's usage", migrate: sumSessionUsage},
	{version: 6, name: "create the tasks, trust and audit buckets", migrate: createTrustBuckets},
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

// createCatalogs adds the bucket of fetched model lists.
func createCatalogs(tx *bolt.Tx) error {
	if _, err := tx.CreateBucketIfNotExists(bucketCatalogs); err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketCatalogs, err)
	}
	return nil
}

// moveAttachmentBytes creates the blob buckets and moves the bytes of the
// file parts stored inline (blobMin bytes or more) into them, the part
// keeping a ref and its size. Records are patched as generic JSON objects,
// so the migration does not depend on later shapes of chat.Message.
func moveAttachmentBytes(tx *bolt.Tx) error {
	for _, name := range [][]byte{bucketBlobs, bucketBlobOwners} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	all, err := mustBucket(tx, bucketMessages)
	if err != nil {
		return err
	}
	ids, err := bucketNames(all)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := moveSessionBytes(tx, string(id), all.Bucket(id)); err != nil {
			return fmt.Errorf("session %s: %w", id, err)
		}
	}
	return nil
}

// moveSessionBytes patches one session's records (collected first: a
// bucket is not written while it is walked).
func moveSessionBytes(tx *bolt.Tx, sessionID string, b *bolt.Bucket) error {
	patched := map[string][]byte{}
	err := b.ForEach(func(k, raw []byte) error {
		if raw == nil || !bytes.Contains(raw, []byte(`"data":`)) {
			return nil
		}
		out, changed, err := moveRecordBytes(tx, sessionID, raw)
		if err != nil {
			return fmt.Errorf("message %x: %w", k, err)
		}
		if changed {
			patched[string(k)] = out
		}
		return nil
	})
	if err != nil {
		return err
	}
	for k, v := range patched {
		if err := b.Put([]byte(k), v); err != nil {
			return err
		}
	}
	return nil
}

// moveRecordBytes moves the large file bytes of one stored message.
func moveRecordBytes(tx *bolt.Tx, sessionID string, raw []byte) ([]byte, bool, error) {
	var msg map[string]json.RawMessage
	if err := json.Unmarshal(raw, &msg); err != nil {
		return nil, false, err
	}
	var parts []map[string]json.RawMessage
	if err := json.Unmarshal(msg["parts"], &parts); err != nil || parts == nil {
		return raw, false, nil
	}
	changed := false
	for _, p := range parts {
		var typ, data string
		_ = json.Unmarshal(p["type"], &typ)
		_ = json.Unmarshal(p["data"], &data)
		if typ != "file" || chat.DecodedLen(data) < blobMin {
			continue
		}
		content, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			continue
		}
		ref, err := putBlob(tx, sessionID, content)
		if err != nil {
			return nil, false, err
		}
		p["ref"], _ = json.Marshal(ref)
		p["size"], _ = json.Marshal(len(content))
		delete(p, "data")
		changed = true
	}
	if !changed {
		return raw, false, nil
	}
	var err error
	if msg["parts"], err = json.Marshal(parts); err != nil {
		return nil, false, err
	}
	out, err := json.Marshal(msg)
	return out, true, err
}

// linkMessages turns each session's linear history into a one-branch tree:
// every message's parent is the message before it, and the session's head
// is its last message. Records are patched as generic JSON objects, so the
// migration does not depend on later shapes of chat.Message.
func linkMessages(tx *bolt.Tx) error {
	all, err := mustBucket(tx, bucketMessages)
	if err != nil {
		return err
	}
	sessions, err := mustBucket(tx, bucketSessions)
	if err != nil {
		return err
	}
	ids, err := bucketNames(all)
	if err != nil {
		return err
	}
	for _, id := range ids {
		last, err := linkSession(all.Bucket(id))
		if err != nil {
			return fmt.Errorf("session %s: %w", id, err)
		}
		if last == 0 || sessions.Get(id) == nil {
			continue
		}
		if err := patchJSON(sessions, id, "head", last); err != nil {
			return fmt.Errorf("session %s: %w", id, err)
		}
	}
	return nil
}

// linkSession sets each message's parent to the one before it in key order
// and returns the last key. Writes wait until the cursor is done, since
// bbolt cursors do not survive changes to their bucket.
func linkSession(b *bolt.Bucket) (uint64, error) {
	type patch struct {
		key    []byte
		parent uint64
	}
	var patches []patch
	var prev uint64
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if v == nil {
			continue
		}
		patches = append(patches, patch{bytes.Clone(k), prev})
		prev = binary.BigEndian.Uint64(k)
	}
	for _, p := range patches {
		if p.parent == 0 {
			continue // the first message is a root
		}
		if err := patchJSON(b, p.key, "parent", p.parent); err != nil {
			return 0, err
		}
	}
	return prev, nil
}

// bucketNames lists the names of b's nested buckets (copied: they are
// used after the walk, while b is written).
func bucketNames(b *bolt.Bucket) ([][]byte, error) {
	var ids [][]byte
	err := b.ForEachBucket(func(k []byte) error {
		ids = append(ids, bytes.Clone(k))
		return nil
	})
	return ids, err
}

// patchJSON sets one field of the JSON object stored at k.
func patchJSON(b *bolt.Bucket, k []byte, field string, v any) error {
	obj, err := getJSON[map[string]json.RawMessage](b, k)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s of %q: %w", field, k, err)
	}
	obj[field] = raw
	return putJSON(b, k, obj)
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

// sumSessionUsage sets each session's usage to the sum of its messages'
// (every branch), which AppendMessage and PutMessage keep up to date from
// then on. The session record is patched as a generic JSON object.
func sumSessionUsage(tx *bolt.Tx) error {
	all, err := mustBucket(tx, bucketMessages)
	if err != nil {
		return err
	}
	sessions, err := mustBucket(tx, bucketSessions)
	if err != nil {
		return err
	}
	totals := map[string]chat.Usage{}
	err = all.ForEachBucket(func(id []byte) error {
		var total chat.Usage
		err := all.Bucket(id).ForEach(func(k, raw []byte) error {
			if raw == nil {
				return nil
			}
			l, err := decodeLink(k, raw)
			if err == nil && l.Usage != nil {
				total.Add(*l.Usage)
			}
			return err
		})
		if err != nil {
			return fmt.Errorf("session %s: %w", id, err)
		}
		if !total.IsZero() && sessions.Get(id) != nil {
			totals[string(id)] = total
		}
		return nil
	})
	if err != nil {
		return err
	}
	for id, total := range totals {
		if err := patchJSON(sessions, []byte(id), "usage", total); err != nil {
			return fmt.Errorf("session %s: %w", id, err)
		}
	}
	return nil
}

// createTrustBuckets adds the buckets of MCP tasks, of the user's standing
// tool decisions (pins, grants for every chat) and of the tool-call audit
// log.
func createTrustBuckets(tx *bolt.Tx) error {
	for _, name := range [][]byte{bucketTasks, bucketTrust, bucketAudit} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	return nil
}
