package store

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"maestro/backend/chat"
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
	2: func(t *testing.T, db *bolt.DB) {
		ctx := t.Context()
		s := &Store{db: db}
		sess, err := s.Session(ctx, "linear")
		if err != nil || sess.Head != 3 || sess.Title != "Old linear" || sess.ToolsRevision != 2 {
			t.Errorf("linear session = %+v, %v; want head 3 and its other fields kept", sess, err)
		}
		msgs, err := s.Messages(ctx, "linear")
		if err != nil {
			t.Fatal(err)
		}
		if got := seqs(msgs); !reflect.DeepEqual(got, []uint64{1, 2, 3}) {
			t.Fatalf("Messages = %v, want [1 2 3]", got)
		}
		for i, m := range msgs {
			if m.Parent != uint64(i) || m.Text() != fmt.Sprintf("text %d", i+1) || m.Status != chat.StatusComplete {
				t.Errorf("message %d = parent %d, %q, %s; want parent %d and its content kept", m.Seq, m.Parent, m.Text(), m.Status, i)
			}
		}
		if empty, err := s.Session(ctx, "empty"); err != nil || empty.Head != 0 {
			t.Errorf("empty session = %+v, %v; want head 0", empty, err)
		}
		// The next message continues the migrated branch.
		next, err := s.AppendMessage(ctx, "linear", chat.Message{Role: chat.RoleUser})
		if err != nil || next.Seq != 4 || next.Parent != 3 {
			t.Errorf("append after migration = seq %d parent %d, %v; want 4 after 3", next.Seq, next.Parent, err)
		}
		_ = db.View(func(tx *bolt.Tx) error {
			if raw := tx.Bucket(bucketMessages).Bucket([]byte("orphan")).Get(seqKey(1)); !strings.Contains(string(raw), `"text 1"`) {
				t.Errorf("orphan message = %s; want it left readable", raw)
			}
			return nil
		})
	},
	3: func(t *testing.T, db *bolt.DB) {
		s := &Store{db: db}
		type list struct{ Models []string }
		var got list
		if err := s.ModelList(t.Context(), "openai", &got); !errors.Is(err, chat.ErrNotFound) {
			t.Fatalf("ModelList on a new bucket = %v; want ErrNotFound", err)
		}
		if err := s.PutModelList(t.Context(), "openai", list{Models: []string{"gpt-5.5"}}); err != nil {
			t.Fatal(err)
		}
		if err := s.ModelList(t.Context(), "openai", &got); err != nil || !reflect.DeepEqual(got.Models, []string{"gpt-5.5"}) {
			t.Errorf("ModelList = %+v, %v; want the list just kept", got, err)
		}
	},
	4: func(t *testing.T, db *bolt.DB) {
		ctx := t.Context()
		s := &Store{db: db}
		ref := chat.BlobRef([]byte(bigFile))
		_ = db.View(func(tx *bolt.Tx) error {
			raw := string(tx.Bucket(bucketMessages).Bucket([]byte("a")).Get(seqKey(1)))
			if strings.Contains(raw, "%PDF") || strings.Contains(raw, base64.StdEncoding.EncodeToString([]byte(bigFile))[:40]) || !strings.Contains(raw, ref) {
				t.Errorf("record = %.200s…; want the large bytes replaced by %s", raw, ref)
			}
			if !strings.Contains(raw, `"data":"iVBORw0KGgo="`) {
				t.Errorf("record = %.300s; want the small file kept inline", raw)
			}
			if got := tx.Bucket(bucketBlobs).Stats().KeyN; got != 1 {
				t.Errorf("%d blobs; want the same bytes stored once", got)
			}
			return nil
		})
		msgs, err := s.Messages(ctx, "a")
		if err != nil || len(msgs) != 1 {
			t.Fatalf("Messages = %+v, %v", msgs, err)
		}
		f := msgs[0].Parts[1].(chat.FilePart)
		if raw, _ := base64.StdEncoding.DecodeString(f.Data); string(raw) != bigFile || f.Ref != ref || f.Size != int64(len(bigFile)) || f.Name != "big.pdf" {
			t.Errorf("file = name %q ref %q size %d, %d bytes back; want the bytes put back", f.Name, f.Ref, f.Size, len(raw))
		}
		if err := s.DeleteSession(ctx, "a"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Blob(ctx, ref); err != nil {
			t.Errorf("Blob after deleting one of its two sessions: %v; want it kept", err)
		}
	},
	5: func(t *testing.T, db *bolt.DB) {
		s := &Store{db: db}
		ctx := t.Context()
		tests := []struct {
			id   string
			want chat.Usage
		}{
			// Both branches and a superseded attempt count: each was paid for.
			{"spent", chat.Usage{InputTokens: 600, OutputTokens: 60, ReasoningTokens: 6, CacheReadTokens: 300}},
			{"free", chat.Usage{}},
		}
		for _, tt := range tests {
			sess, err := s.Session(ctx, tt.id)
			if err != nil || sess.Usage != tt.want || sess.Title != "Old "+tt.id {
				t.Errorf("session %s = usage %+v title %q, %v; want %+v and the title kept", tt.id, sess.Usage, sess.Title, err, tt.want)
			}
		}
		// From then on the store keeps the total.
		m, err := s.AppendMessage(ctx, "spent", chat.Message{Role: chat.RoleAssistant, Usage: &chat.Usage{InputTokens: 1}})
		if err != nil {
			t.Fatal(err)
		}
		m.Usage = &chat.Usage{InputTokens: 5}
		if err := s.PutMessage(ctx, "spent", m); err != nil {
			t.Fatal(err)
		}
		if sess, _ := s.Session(ctx, "spent"); sess.Usage.InputTokens != 605 {
			t.Errorf("usage after a new reply rewritten = %+v; want 605 input tokens", sess.Usage)
		}
	},
	6: func(t *testing.T, db *bolt.DB) {
		ctx := t.Context()
		s := &Store{db: db}
		// The new buckets take their records; the old ones are untouched.
		if err := s.PutTask(ctx, "c1", "t1", map[string]string{"status": "working"}); err != nil {
			t.Fatal(err)
		}
		if err := s.PutTrustRecord(ctx, "pin", "c1/tool", map[string]string{"hash": "h"}); err != nil {
			t.Fatal(err)
		}
		if err := s.AppendAudit(ctx, "c1", map[string]string{"tool": "x"}); err != nil {
			t.Fatal(err)
		}
		tasks, err := s.Tasks(ctx)
		if err != nil || len(tasks) != 1 {
			t.Errorf("Tasks = %s, %v; want one", tasks, err)
		}
		if _, err := s.Session(ctx, "kept"); err != nil {
			t.Errorf("the session stored before migration 6: %v", err)
		}
	},
}

// migrationSeeds write data in the layout of the version before a
// migration, so its test can check what the migration made of it.
var migrationSeeds = map[uint64]func(tx *bolt.Tx) error{
	2: seedLinearHistory,
	4: seedInlineFiles,
	5: seedUsage,
	6: func(tx *bolt.Tx) error {
		return tx.Bucket(bucketSessions).Put([]byte("kept"), []byte(`{"id":"kept","title":"Before 6","toolsRevision":1}`))
	},
}

// bigFile is a file's bytes large enough to leave the record (blobMin).
var bigFile = strings.Repeat("%PDF ", blobMin/5+1)

// seedInlineFiles writes two sessions as schema 3 stored them: file parts
// with their bytes inline, one large (the same bytes in both sessions) and
// one small.
func seedInlineFiles(tx *bolt.Tx) error {
	data := base64.StdEncoding.EncodeToString([]byte(bigFile))
	for _, id := range []string{"a", "b"} {
		sess := fmt.Sprintf(`{"id":%q,"title":"Files %s","head":1,"toolsRevision":0,"createdAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:06Z"}`, id, id)
		if err := tx.Bucket(bucketSessions).Put([]byte(id), []byte(sess)); err != nil {
			return err
		}
		b, err := tx.Bucket(bucketMessages).CreateBucket([]byte(id))
		if err != nil {
			return err
		}
		if _, err := b.NextSequence(); err != nil {
			return err
		}
		m := fmt.Sprintf(`{"seq":1,"id":"m1","role":"user","parts":[{"type":"text","text":"see"},`+
			`{"type":"file","name":"big.pdf","mimeType":"application/pdf","data":%q},`+
			`{"type":"file","name":"small.png","mimeType":"image/png","data":"iVBORw0KGgo="}],"status":"complete","createdAt":"2026-01-02T03:04:05Z"}`, data)
		if err := b.Put(seqKey(1), []byte(m)); err != nil {
			return err
		}
	}
	return nil
}

// seedLinearHistory writes sessions as schema 1 stored them: messages with
// no parent, sessions with no head. "linear" has three messages, "empty"
// none, and "orphan" is a message bucket whose session is gone.
func seedLinearHistory(tx *bolt.Tx) error {
	sessions, msgs := tx.Bucket(bucketSessions), tx.Bucket(bucketMessages)
	for id, n := range map[string]uint64{"linear": 3, "empty": 0, "orphan": 1} {
		if id != "orphan" {
			sess := fmt.Sprintf(`{"id":%q,"title":"Old %s","toolsRevision":2,"createdAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:06Z"}`, id, id)
			if err := sessions.Put([]byte(id), []byte(sess)); err != nil {
				return err
			}
		}
		if n == 0 {
			continue
		}
		b, err := msgs.CreateBucket([]byte(id))
		if err != nil {
			return err
		}
		for seq := uint64(1); seq <= n; seq++ {
			if _, err := b.NextSequence(); err != nil {
				return err
			}
			role := map[bool]string{true: "user", false: "assistant"}[seq%2 == 1]
			m := fmt.Sprintf(`{"seq":%d,"id":"m%d","role":%q,"parts":[{"type":"text","text":"text %d"}],"status":"complete","createdAt":"2026-01-02T03:04:05Z"}`, seq, seq, role, seq)
			if err := b.Put(seqKey(seq), []byte(m)); err != nil {
				return err
			}
		}
	}
	return nil
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
				if seed := migrationSeeds[m.version]; seed != nil {
					if err := seed(tx); err != nil {
						return fmt.Errorf("seed: %w", err)
					}
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

// seedUsagewrites two sessions in schema 4: "spent" with replies on two
// branches (one of them superseded) that carry usage, "free" with none.
func seedUsage(tx *bolt.Tx) error {
	sessions, msgs := tx.Bucket(bucketSessions), tx.Bucket(bucketMessages)
	records := map[string][]string{
		"spent": {
			`{"seq":1,"id":"u1","role":"user","parts":[{"type":"text","text":"hi"}],"status":"complete","createdAt":"2026-01-02T03:04:05Z"}`,
			`{"seq":2,"parent":1,"id":"a1","role":"assistant","status":"superseded","usage":{"inputTokens":100,"outputTokens":10},"createdAt":"2026-01-02T03:04:05Z"}`,
			`{"seq":3,"parent":1,"id":"a2","role":"assistant","status":"complete","usage":{"inputTokens":200,"outputTokens":20,"reasoningTokens":6,"cacheReadTokens":100},"createdAt":"2026-01-02T03:04:05Z"}`,
			`{"seq":4,"id":"u2","role":"user","parts":[{"type":"text","text":"edited"}],"status":"complete","createdAt":"2026-01-02T03:04:05Z"}`,
			`{"seq":5,"parent":4,"id":"a3","role":"assistant","status":"complete","usage":{"inputTokens":300,"outputTokens":30,"cacheReadTokens":200},"createdAt":"2026-01-02T03:04:05Z"}`,
		},
		"free": {`{"seq":1,"id":"u1","role":"user","parts":[{"type":"text","text":"hi"}],"status":"complete","createdAt":"2026-01-02T03:04:05Z"}`},
	}
	for id, recs := range records {
		sess := fmt.Sprintf(`{"id":%q,"title":"Old %s","head":%d,"toolsRevision":1,"createdAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:06Z"}`, id, id, len(recs))
		if err := sessions.Put([]byte(id), []byte(sess)); err != nil {
			return err
		}
		b, err := msgs.CreateBucket([]byte(id))
		if err != nil {
			return err
		}
		for i, rec := range recs {
			if _, err := b.NextSequence(); err != nil {
				return err
			}
			if err := b.Put(seqKey(uint64(i+1)), []byte(rec)); err != nil {
				return err
			}
		}
	}
	return nil
}
