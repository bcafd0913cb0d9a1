package app

import (
	"context"
	"encoding/json"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/chat/chattest"
	"maestro/backend/store"
)

// BenchmarkOpenSession10k opens a 10,000-message session through the bound
// method, as the frontend does: "call" is OpenSession (reading the last page
// of messages, DTO conversion, remembering the session with one fsynced
// write); "call+json" adds the JSON encoding Wails does before the result
// crosses to the webview, and reports its size. "earlier" is the next
// page, EarlierMessages, as scrolling up loads it.
//
//	go test -run='^$' -bench=OpenSession10k ./app/
func BenchmarkOpenSession10k(b *testing.B) {
	dir := b.TempDir()
	id := seedSession(b, dir, 10_000)
	a, _ := startApp(b, dir)
	b.Run("call", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := a.Sessions.Open(id); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("call+json", func(b *testing.B) {
		b.ReportAllocs()
		var size int
		for b.Loop() {
			view, err := a.Sessions.Open(id)
			if err != nil {
				b.Fatal(err)
			}
			raw, err := json.Marshal(view)
			if err != nil {
				b.Fatal(err)
			}
			size = len(raw)
		}
		b.ReportMetric(float64(size), "json-bytes")
	})
	view, err := a.Sessions.Open(id)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("earlier", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := a.Sessions.EarlierMessages(id, view.EarlierBefore); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// seedSession writes a session of n chattest.Conversation messages into
// dir's data file (without fsync, to keep setup short) and closes it.
func seedSession(b *testing.B, dir string, n int) string {
	b.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, dir, store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	sess, err := st.CreateSession(ctx, chat.Session{Title: "Long session"})
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range chattest.Conversation(n) {
		if _, err := st.AppendMessage(ctx, sess.ID, m); err != nil {
			b.Fatal(err)
		}
	}
	return sess.ID
}
