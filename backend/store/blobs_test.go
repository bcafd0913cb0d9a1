package store

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"maestro/backend/chat"
)

// record reads a message as it is stored, without its bytes put back.
func record(t *testing.T, s *Store, sessionID string, seq uint64) string {
	t.Helper()
	var raw string
	_ = s.db.View(func(tx *bolt.Tx) error {
		raw = string(tx.Bucket(bucketMessages).Bucket([]byte(sessionID)).Get(seqKey(seq)))
		return nil
	})
	return raw
}

func TestAttachmentBytesStoredOnce(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := testStore(t)
	content := []byte(strings.Repeat("an image's bytes ", 1000))
	data := base64.StdEncoding.EncodeToString(content)
	ref := chat.BlobRef(content)
	msg := chat.Message{Role: chat.RoleUser, Parts: chat.Parts{
		chat.TextPart{Text: "look"},
		chat.FilePart{Name: "a.png", MIMEType: "image/png", Data: data},
		chat.ResourcePart{URI: "demo://blob/1", MIMEType: "application/octet-stream", Data: data},
		chat.FilePart{Name: "tiny.txt", MIMEType: "text/plain", Data: "aGk="},
	}}
	var sessions []string
	for range 2 {
		sess, err := s.CreateSession(ctx, chat.Session{Title: "t"})
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.AppendMessage(ctx, sess.ID, msg)
		if err != nil {
			t.Fatal(err)
		}
		if got.Parts[1].(chat.FilePart).Data != data {
			t.Fatal("AppendMessage returned the message without its bytes; the agent renders from it")
		}
		sessions = append(sessions, sess.ID)
	}
	if msg.Parts[1].(chat.FilePart).Data != data {
		t.Fatal("AppendMessage changed the caller's message")
	}
	raw := record(t, s, sessions[0], 1)
	if strings.Contains(raw, data[:64]) || strings.Count(raw, ref) != 2 || !strings.Contains(raw, `"data":"aGk="`) {
		t.Errorf("stored record = %.400s; want both large copies as %s and the tiny file inline", raw, ref)
	}
	_ = s.db.View(func(tx *bolt.Tx) error {
		if n := tx.Bucket(bucketBlobs).Stats().KeyN; n != 1 {
			t.Errorf("%d blobs; want 1 for the same bytes in two parts of two sessions", n)
		}
		return nil
	})

	msgs, err := s.Messages(ctx, sessions[0])
	if err != nil {
		t.Fatal(err)
	}
	f, r := msgs[0].Parts[1].(chat.FilePart), msgs[0].Parts[2].(chat.ResourcePart)
	if f.Data != data || f.Ref != ref || f.Size != int64(len(content)) || r.Data != data || r.Ref != ref {
		t.Errorf("Messages gave file %q…/%q and resource %q…; want the bytes back with their ref", f.Data[:min(10, len(f.Data))], f.Ref, r.Data[:min(10, len(r.Data))])
	}
	page, err := s.ActivePathPage(ctx, sessions[0], 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if pf := page.Messages[0].Parts[1].(chat.FilePart); pf.Data != "" || pf.Ref != ref || pf.Size != int64(len(content)) {
		t.Errorf("a page for the UI gave %+v; want the ref and size only", pf)
	}
	if got, err := s.Blob(ctx, ref); err != nil || string(got) != string(content) {
		t.Errorf("Blob = %d bytes, %v", len(got), err)
	}

	// Rewriting a message that came back with its bytes stores no copy.
	msgs[0].Status = chat.StatusComplete
	if err := s.PutMessage(ctx, sessions[0], msgs[0]); err != nil {
		t.Fatal(err)
	}
	if raw := record(t, s, sessions[0], 1); strings.Contains(raw, data[:64]) {
		t.Error("PutMessage stored the bytes inline")
	}

	for i, id := range sessions {
		if err := s.DeleteSession(ctx, id); err != nil {
			t.Fatal(err)
		}
		_, err := s.Blob(ctx, ref)
		if last := i == len(sessions)-1; last != errors.Is(err, chat.ErrNotFound) {
			t.Errorf("after deleting %d of 2 sessions: Blob err = %v", i+1, err)
		}
	}
}

// A ref whose bytes are gone comes back as it is, for the renderers to
// note.
func TestMissingBlobKeepsTheRef(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := testStore(t)
	sess, _ := s.CreateSession(ctx, chat.Session{Title: "t"})
	if _, err := s.AppendMessage(ctx, sess.ID, chat.Message{Role: chat.RoleUser, Parts: chat.Parts{
		chat.FilePart{Name: "gone.png", MIMEType: "image/png", Ref: "sha256-00", Size: 9}}}); err != nil {
		t.Fatal(err)
	}
	msgs, err := s.Messages(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if f := msgs[0].Parts[0].(chat.FilePart); f.Data != "" || f.Ref != "sha256-00" {
		t.Errorf("file = %+v; want the ref kept and no bytes", f)
	}
}

// SessionBlob gives a session the bytes its messages name, and nothing
// else: not another session's, not an unknown ref, not more than asked.
func TestSessionBlob(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := testStore(t)
	content := []byte(strings.Repeat("a PDF's bytes ", 1000))
	ref := chat.BlobRef(content)
	owner, _ := s.CreateSession(ctx, chat.Session{Title: "owner"})
	other, _ := s.CreateSession(ctx, chat.Session{Title: "other"})
	if _, err := s.AppendMessage(ctx, owner.ID, chat.Message{Role: chat.RoleUser, Parts: chat.Parts{
		chat.FilePart{Name: "a.pdf", MIMEType: "application/pdf", Data: base64.StdEncoding.EncodeToString(content)}}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, session, ref string
		limit              int
		want               error // nil: the bytes
	}{
		{"the owner's", owner.ID, ref, len(content), nil},
		{"another session's", other.ID, ref, len(content), chat.ErrNotFound},
		{"an unknown ref", owner.ID, "sha256-00", len(content), chat.ErrNotFound},
		{"an unknown session", "nope", ref, len(content), chat.ErrNotFound},
		{"over the limit", owner.ID, ref, len(content) - 1, chat.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := s.SessionBlob(ctx, tt.session, tt.ref, tt.limit)
			if tt.want == nil {
				if err != nil || string(got) != string(content) {
					t.Errorf("got %d bytes, %v; want the %d stored", len(got), err, len(content))
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Errorf("got err %v; want %v", err, tt.want)
			}
		})
	}
}
