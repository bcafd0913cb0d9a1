package store

import (
	"context"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	bolt "go.etcd.io/bbolt"

	"maestro/backend/chat"
	"maestro/backend/chat/chattest"
)

// BenchmarkAttachmentHistory reads a 200-message session in which 20 user
// messages carry a 1 MiB image (the same image, as when a message is
// edited or retried): "blobs" as the store keeps it now (the bytes once,
// apart), "inline" as it kept them before migration 4 (each record holds
// its bytes), written directly. Messages is what the agent reads for every
// request, Page what opening the session reads. file-MiB is the data
// file's size after the writes. docs/PERFORMANCE.md has the figures.
func BenchmarkAttachmentHistory(b *testing.B) {
	raw := make([]byte, 1<<20)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range raw {
		raw[i] = byte(rng.IntN(256))
	}
	data := base64.StdEncoding.EncodeToString(raw)
	for _, layout := range []string{"blobs", "inline"} {
		s, sessID := attachmentSession(b, layout, data)
		size := fileSize(b, s)
		b.Run("Messages/"+layout, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				msgs, err := s.Messages(context.Background(), sessID)
				if err != nil || len(msgs) != 200 {
					b.Fatalf("%d messages, %v", len(msgs), err)
				}
			}
			b.ReportMetric(float64(size)/(1<<20), "file-MiB")
		})
		b.Run("Page/"+layout, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.ActivePathPage(context.Background(), sessID, 0, 80); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// attachmentSession writes the benchmark's session in the given layout.
func attachmentSession(b *testing.B, layout, data string) (*Store, string) {
	b.Helper()
	ctx := context.Background()
	s, err := Open(ctx, b.TempDir(), Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	sess, err := s.CreateSession(ctx, chat.Session{Title: "attachments"})
	if err != nil {
		b.Fatal(err)
	}
	for i, m := range chattest.Conversation(200) {
		if m.Role == chat.RoleUser && i%10 == 0 {
			m.Parts = append(m.Parts, chat.FilePart{Name: fmt.Sprintf("shot-%d.png", i), MIMEType: "image/png", Data: data})
		}
		if layout == "blobs" {
			_, err = s.AppendMessage(ctx, sess.ID, m)
		} else {
			err = appendInline(s, sess.ID, m)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	return s, sess.ID
}

// appendInline appends m with its bytes in the record, as schema 3 did.
func appendInline(s *Store, sessionID string, m chat.Message) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		sessions := tx.Bucket(bucketSessions)
		sess, err := getJSON[chat.Session](sessions, []byte(sessionID))
		if err != nil {
			return err
		}
		b, err := tx.Bucket(bucketMessages).CreateBucketIfNotExists([]byte(sessionID))
		if err != nil {
			return err
		}
		seq, _ := b.NextSequence()
		m.Seq, m.Parent, m.ID = seq, sess.Head, chat.NewID()
		if err := putJSON(b, seqKey(seq), m); err != nil {
			return err
		}
		sess.Head = seq
		return putJSON(sessions, []byte(sessionID), sess)
	})
}

func fileSize(b *testing.B, s *Store) int64 {
	b.Helper()
	fi, err := os.Stat(s.Path())
	if err != nil {
		b.Fatal(err)
	}
	return fi.Size()
}
