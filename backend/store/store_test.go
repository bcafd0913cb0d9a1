package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"maestro/backend/chat"
	"maestro/backend/chat/chattest"
)

// testStore opens a real bbolt file in a fresh temp dir.
func testStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(t.Context(), t.TempDir(), Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestSessionsCRUD(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := testStore(t)

	a, err := s.CreateSession(ctx, chat.Session{Title: "First"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.CreateSession(ctx, chat.Session{Title: "Second", Provider: "gemini", Model: "gemini-2.5-pro"})
	if err != nil {
		t.Fatal(err)
	}
	if a.ID == "" || a.Approval != chat.ApprovalAsk || a.CreatedAt.IsZero() {
		t.Errorf("CreateSession did not fill defaults: %+v", a)
	}
	if _, err := s.CreateSession(ctx, chat.Session{ID: a.ID, Title: "dup"}); !errors.Is(err, chat.ErrConflict) {
		t.Errorf("duplicate id: got %v, want ErrConflict", err)
	}

	renamed, err := s.UpdateSession(ctx, a.ID, func(s *chat.Session) error { s.Title = "Renamed"; s.ID = "hijack"; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if renamed.ID != a.ID || renamed.Title != "Renamed" || !renamed.UpdatedAt.Equal(a.UpdatedAt) {
		t.Errorf("UpdateSession = %+v; want same id, new title, UpdatedAt unchanged (%v)", renamed, a.UpdatedAt)
	}
	list, err := s.Sessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := titles(list); !reflect.DeepEqual(got, []string{"Second", "Renamed"}) {
		t.Errorf("Sessions order after a rename = %v; want it unchanged (newest activity first)", got)
	}
	if _, err := s.AppendMessage(ctx, a.ID, chat.Message{Role: chat.RoleUser}); err != nil {
		t.Fatal(err)
	}
	list, _ = s.Sessions(ctx)
	if got := titles(list); !reflect.DeepEqual(got, []string{"Renamed", "Second"}) {
		t.Errorf("Sessions order after a message = %v; want the active session first", got)
	}
	got, err := s.Session(ctx, b.ID)
	if err != nil || !reflect.DeepEqual(got, b) {
		t.Errorf("Session(%s) = %+v, %v; want %+v", b.ID, got, err, b)
	}

	if err := s.DeleteSession(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Session(ctx, a.ID); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("Session after delete: got %v, want ErrNotFound", err)
	}
	if err := s.DeleteSession(ctx, a.ID); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("second delete: got %v, want ErrNotFound", err)
	}
	if _, err := s.UpdateSession(ctx, "nope", func(*chat.Session) error { return nil }); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("update missing: got %v, want ErrNotFound", err)
	}
}

func titles(ss []chat.Session) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Title)
	}
	return out
}

// TestSessionRoundTrip stores a session with every field set and reads it back.
func TestSessionRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := testStore(t)
	at := time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.UTC)
	want := chat.Session{
		ID: "s1", Title: "Everything", Provider: "anthropic", Model: "claude-sonnet-4-5", SystemPrompt: "Be brief.",
		EnabledConnectors: []string{"everything", "fs"}, DisabledTools: []string{"everything.echo"},
		Grants: []string{"fs.read_file"}, Approval: chat.ApprovalDenyAll, Roots: []string{"/home/me/src"},
		ToolsRevision: 42, CreatedAt: at, UpdatedAt: at.Add(time.Hour),
	}
	if _, err := s.CreateSession(ctx, want); err != nil {
		t.Fatal(err)
	}
	got, err := s.Session(ctx, "s1")
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("round trip:\n got %+v, %v\nwant %+v", got, err, want)
	}
}

// TestMessagesRoundTrip checks that every canonical message shape comes back
// unchanged, in order, with sequences assigned.
func TestMessagesRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := testStore(t)
	sess, err := s.CreateSession(ctx, chat.Session{Title: "t"})
	if err != nil {
		t.Fatal(err)
	}
	want := chattest.Messages()
	for i := range want {
		stored, err := s.AppendMessage(ctx, sess.ID, want[i])
		if err != nil {
			t.Fatalf("append %s: %v", want[i].ID, err)
		}
		if stored.Seq != uint64(i+1) || stored.Parent != uint64(i) {
			t.Errorf("append %s: seq %d, parent %d; want %d, %d", want[i].ID, stored.Seq, stored.Parent, i+1, i)
		}
		want[i].Seq, want[i].Parent = stored.Seq, stored.Parent
	}
	got, err := s.Messages(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d messages, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("message %d changed in the store\n got %#v\nwant %#v", i, got[i], want[i])
		}
	}
}

func TestMessagesOrderPastByteBoundary(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := testStore(t)
	sess, _ := s.CreateSession(ctx, chat.Session{Title: "t"})
	const n = 300 // crosses 255, where little-endian keys would sort wrongly
	for i := range n {
		if _, err := s.AppendMessage(ctx, sess.ID, chat.Message{Role: chat.RoleUser, Parts: chat.Parts{chat.TextPart{Text: string(rune('a' + i%26))}}}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Messages(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range got {
		if m.Seq != uint64(i+1) {
			t.Fatalf("message %d has seq %d; want chronological order", i, m.Seq)
		}
	}
}

func TestPutMessageCheckpoint(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := testStore(t)
	sess, _ := s.CreateSession(ctx, chat.Session{Title: "t"})
	m, err := s.AppendMessage(ctx, sess.ID, chat.Message{Role: chat.RoleAssistant, Status: chat.StatusStreaming, Parts: chat.Parts{chat.TextPart{Text: "Hel"}}})
	if err != nil {
		t.Fatal(err)
	}
	m.Parts = chat.Parts{chat.TextPart{Text: "Hello"}}
	m.Status = chat.StatusComplete
	if err := s.PutMessage(ctx, sess.ID, m); err != nil {
		t.Fatal(err)
	}
	got, _ := s.Messages(ctx, sess.ID)
	if len(got) != 1 || got[0].Text() != "Hello" || got[0].Status != chat.StatusComplete {
		t.Errorf("after checkpoint: %+v; want one complete message \"Hello\"", got)
	}
	if one, err := s.Message(ctx, sess.ID, m.Seq); err != nil || one.Text() != "Hello" {
		t.Errorf("Message(%d) = %+v, %v; want the checkpointed message", m.Seq, one, err)
	}
	if _, err := s.Message(ctx, sess.ID, 99); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("Message(99): got %v, want ErrNotFound", err)
	}
	if err := s.PutMessage(ctx, sess.ID, chat.Message{Seq: 99}); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("put unknown seq: got %v, want ErrNotFound", err)
	}
	if _, err := s.AppendMessage(ctx, "nope", m); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("append to missing session: got %v, want ErrNotFound", err)
	}
}

func TestDeleteSessionRemovesItsData(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := testStore(t)
	a, _ := s.CreateSession(ctx, chat.Session{Title: "a"})
	b, _ := s.CreateSession(ctx, chat.Session{Title: "b"})
	for _, id := range []string{a.ID, b.ID} {
		if _, err := s.AppendMessage(ctx, id, chat.Message{Role: chat.RoleUser}); err != nil {
			t.Fatal(err)
		}
		if err := s.PutRegistrySnapshot(ctx, id, map[string]int{"revision": 1}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.DeleteSession(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Messages(ctx, a.ID); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("messages of deleted session: got %v, want ErrNotFound", err)
	}
	var snap map[string]int
	if err := s.RegistrySnapshot(ctx, a.ID, &snap); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("snapshot of deleted session: got %v, want ErrNotFound", err)
	}
	if msgs, err := s.Messages(ctx, b.ID); err != nil || len(msgs) != 1 {
		t.Errorf("other session's messages: %d, %v; want 1", len(msgs), err)
	}
	if err := s.RegistrySnapshot(ctx, b.ID, &snap); err != nil || snap["revision"] != 1 {
		t.Errorf("other session's snapshot: %v, %v", snap, err)
	}
}

func TestValues(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := testStore(t)
	type conn struct {
		ID      string   `json:"id"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	for _, c := range []conn{{"b", "npx", []string{"-y", "x"}}, {"a", "node", nil}} {
		if err := s.PutConnector(ctx, c.ID, c); err != nil {
			t.Fatal(err)
		}
	}
	raws, err := s.Connectors(ctx)
	if err != nil || len(raws) != 2 {
		t.Fatalf("Connectors = %d, %v; want 2", len(raws), err)
	}
	var first conn
	if err := json.Unmarshal(raws[0], &first); err != nil || first.ID != "a" {
		t.Errorf("first connector = %+v, %v; want id a (key order)", first, err)
	}
	var got conn
	if err := s.Connector(ctx, "b", &got); err != nil || got.Command != "npx" || len(got.Args) != 2 {
		t.Errorf("Connector(b) = %+v, %v", got, err)
	}
	if err := s.DeleteConnector(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	if err := s.Connector(ctx, "b", &got); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("deleted connector: got %v, want ErrNotFound", err)
	}
	if err := s.DeleteConnector(ctx, "b"); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("delete missing connector: got %v, want ErrNotFound", err)
	}

	if err := s.PutSetting(ctx, "lastSession", "s1"); err != nil {
		t.Fatal(err)
	}
	var last string
	if err := s.Setting(ctx, "lastSession", &last); err != nil || last != "s1" {
		t.Errorf("Setting(lastSession) = %q, %v", last, err)
	}
	if err := s.Setting(ctx, "missing", &last); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("missing setting: got %v, want ErrNotFound", err)
	}
	if err := s.PutSetting(ctx, "", 1); !errors.Is(err, chat.ErrInvalid) {
		t.Errorf("empty key: got %v, want ErrInvalid", err)
	}
}

// TestFailedWriteKeepsPreviousState: a write that fails part-way changes nothing.
func TestFailedWriteKeepsPreviousState(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := testStore(t)
	sess, _ := s.CreateSession(ctx, chat.Session{Title: "Keep me"})
	boom := errors.New("boom")
	_, err := s.UpdateSession(ctx, sess.ID, func(s *chat.Session) error {
		s.Title = "Half-done"
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("UpdateSession error = %v, want boom", err)
	}
	if got, _ := s.Session(ctx, sess.ID); got.Title != "Keep me" || !got.UpdatedAt.Equal(sess.UpdatedAt) {
		t.Errorf("after failed update: %+v; want it unchanged", got)
	}

	if err := s.PutSetting(ctx, "k", "v1"); err != nil {
		t.Fatal(err)
	}
	if err := s.PutSetting(ctx, "k", make(chan int)); err == nil {
		t.Error("storing an unencodable value succeeded")
	}
	var v string
	if err := s.Setting(ctx, "k", &v); err != nil || v != "v1" {
		t.Errorf("after failed put: %q, %v; want v1", v, err)
	}
	// A message with a part that cannot be encoded must not consume a
	// sequence number or touch the session.
	if _, err := s.AppendMessage(ctx, sess.ID, chat.Message{Parts: chat.Parts{nil}}); !errors.Is(err, chat.ErrInvalid) {
		t.Errorf("append bad message: got %v, want ErrInvalid", err)
	}
	m, err := s.AppendMessage(ctx, sess.ID, chat.Message{Role: chat.RoleUser})
	if err != nil || m.Seq != 1 {
		t.Errorf("append after failure: seq %d, %v; want 1", m.Seq, err)
	}
}

func TestReopenKeepsData(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	dir := t.TempDir()
	s, err := Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sess, _ := s.CreateSession(ctx, chat.Session{Title: "persist"})
	if _, err := s.AppendMessage(ctx, sess.ID, chat.Message{Role: chat.RoleUser, Parts: chat.Parts{chat.TextPart{Text: "hi"}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(ctx, dir, Options{})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s2.Close()
	msgs, err := s2.Messages(ctx, sess.ID)
	if err != nil || len(msgs) != 1 || msgs[0].Text() != "hi" {
		t.Errorf("after reopen: %+v, %v", msgs, err)
	}
	// The next sequence continues after the stored ones.
	m, _ := s2.AppendMessage(ctx, sess.ID, chat.Message{Role: chat.RoleUser})
	if m.Seq != 2 {
		t.Errorf("seq after reopen = %d, want 2", m.Seq)
	}
}

// TestOpenRefusesForeignFiles: a file that is not ours gives an error naming
// the path and is never written to.
func TestOpenRefusesForeignFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		write    func(t *testing.T, path string)
		wantKind string
		wantText string
	}{
		{"garbage", func(t *testing.T, path string) {
			writeFile(t, path, bytes.Repeat([]byte("not a database "), 1000))
		}, chat.KindUnavailable, "damaged or is not a Maestro data file"},
		{"short garbage", func(t *testing.T, path string) {
			writeFile(t, path, []byte("{}"))
		}, chat.KindUnavailable, "not a Maestro data file"},
		{"another program's bbolt file", func(t *testing.T, path string) {
			db, err := bolt.Open(path, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			_ = db.Update(func(tx *bolt.Tx) error {
				b, _ := tx.CreateBucket([]byte("widgets"))
				return b.Put([]byte("k"), []byte("v"))
			})
			_ = db.Close()
		}, chat.KindUnavailable, "written by another program"},
		{"a newer Maestro's file", func(t *testing.T, path string) {
			db, err := bolt.Open(path, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			_ = db.Update(func(tx *bolt.Tx) error {
				b, _ := tx.CreateBucket(bucketMeta)
				_ = b.Put(keyApp, appMarker)
				return b.Put(keyVersion, seqKey(SchemaVersion()+1))
			})
			_ = db.Close()
		}, chat.KindUnavailable, "newer Maestro"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, FileName)
			tt.write(t, path)
			before, _ := os.ReadFile(path)
			s, err := Open(t.Context(), dir, Options{})
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded on a foreign file")
			}
			if got := chat.Kind(err); got != tt.wantKind {
				t.Errorf("kind = %q, want %q (err: %v)", got, tt.wantKind, err)
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("error %q should name %s and say %q", err, path, tt.wantText)
			}
			after, _ := os.ReadFile(path)
			if !bytes.Equal(before, after) {
				t.Errorf("the file was modified (%d bytes before, %d after)", len(before), len(after))
			}
		})
	}
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestOpenEmptyFileInitialises(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, FileName), nil)
	s, err := Open(t.Context(), dir, Options{})
	if err != nil {
		t.Fatalf("Open on an empty file: %v", err)
	}
	s.Close()
}

// TestSecondOpenTimesOut: a second opener of a locked file fails with a
// conflict after the timeout instead of hanging.
func TestSecondOpenTimesOut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := Open(t.Context(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	done := make(chan error, 1)
	go func() {
		s2, err := Open(t.Context(), dir, Options{Timeout: 100 * time.Millisecond})
		if err == nil {
			s2.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, chat.ErrConflict) || !strings.Contains(err.Error(), dir) {
			t.Errorf("second Open: got %v, want ErrConflict naming %s", err, dir)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("second Open hung")
	}
}

func TestDataDir(t *testing.T) {
	// Not parallel: it sets an environment variable.
	dir := t.TempDir()
	t.Setenv("MAESTRO_DATA_DIR", dir)
	got, err := DataDir()
	if err != nil || got != dir {
		t.Errorf("DataDir() = %q, %v; want %q", got, err, dir)
	}
	t.Setenv("MAESTRO_DATA_DIR", "")
	t.Setenv("XDG_CONFIG_HOME", dir)
	got, err = DataDir()
	if want := filepath.Join(dir, "Maestro"); err != nil || got != want {
		t.Errorf("DataDir() without override = %q, %v; want %q", got, err, want)
	}
}

// TestOpenTightensPermissions: a data folder or file that others can read
// (made by an older version, a restored backup or a permissive umask) is
// restricted to its owner on open.
func TestOpenTightensPermissions(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("Unix permission bits")
	}
	tests := []struct {
		name              string
		dirMode, fileMode os.FileMode // fileMode 0: no file before Open
	}{
		{"loose folder, new file", 0o755, 0},
		{"loose folder and file", 0o755, 0o644},
		{"world-writable folder and file", 0o777, 0o666},
		{"tight already", 0o700, 0o600},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "Maestro")
			if tt.fileMode != 0 {
				s, err := Open(t.Context(), dir, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
				chmod(t, filepath.Join(dir, FileName), tt.fileMode)
			} else if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			chmod(t, dir, tt.dirMode)
			s, err := Open(t.Context(), dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if got := mode(t, dir); got != 0o700 {
				t.Errorf("folder mode = %#o; want 0700", got)
			}
			if got := mode(t, filepath.Join(dir, FileName)); got != 0o600 {
				t.Errorf("%s mode = %#o; want 0600", FileName, got)
			}
		})
	}
}

func chmod(t *testing.T, path string, m os.FileMode) {
	t.Helper()
	// Chmod, not the create mode, which the umask would narrow.
	if err := os.Chmod(path, m); err != nil {
		t.Fatal(err)
	}
}

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}
