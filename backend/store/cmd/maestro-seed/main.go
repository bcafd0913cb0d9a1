// Command maestro-seed fills a data dir with long sessions for measuring:
// .ci/perf.sh and .ci/perf-session.mjs use it to open a 1,000- and a
// 10,000-message session in the real app. It is a development tool; the app
// does not import it.
//
//	maestro-seed -dir DIR 10000 20
//
// creates one session per argument, in order, each holding that many
// messages of chattest.Conversation, records the last one as the session to
// reopen (so the app opens it at launch), and prints one JSON line per
// session:
//
//	{"id":"…","title":"…","messages":10000,"lastSeq":10000}
//
// lastSeq is the sequence number of the last message the chat shows (tool
// messages appear on their call's card, not as rows).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"

	"maestro/backend/chat"
	"maestro/backend/chat/chattest"
	"maestro/backend/store"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "maestro-seed:", err)
		os.Exit(1)
	}
}

type seeded struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Messages int    `json:"messages"`
	LastSeq  uint64 `json:"lastSeq"`
}

func run() error {
	dir := flag.String("dir", "", "data dir to fill (created if missing; the app's MAESTRO_DATA_DIR)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: maestro-seed -dir DIR MESSAGES...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *dir == "" || flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	var counts []int
	for _, a := range flag.Args() {
		n, err := strconv.Atoi(a)
		if err != nil || n < 0 {
			return fmt.Errorf("message count %q: want a number ≥ 0", a)
		}
		counts = append(counts, n)
	}
	ctx := context.Background()
	// No fsync per message: seeding 10,000 would take a minute. Close still
	// leaves every page written to the file for the app to read.
	st, err := store.Open(ctx, *dir, store.Options{NoSync: true})
	if err != nil {
		return err
	}
	if err := seedAll(ctx, st, counts); err != nil {
		_ = st.Close()
		return err
	}
	return st.Close()
}

// lastSession is the setting app.OpenSession writes and app.Status reads
// (app/sessions.go settingLastSession). The list order cannot pick the
// session instead: each append moves UpdatedAt at least 1 ms forward, so a
// session seeded with 10,000 messages in a second looks newer than one
// seeded after it.
const lastSession = "lastSession"

func seedAll(ctx context.Context, st *store.Store, counts []int) error {
	enc := json.NewEncoder(os.Stdout)
	for _, n := range counts {
		out, err := seed(ctx, st, n)
		if err != nil {
			return err
		}
		if err := st.PutSetting(ctx, lastSession, out.ID); err != nil {
			return err
		}
		if err := enc.Encode(out); err != nil {
			return err
		}
	}
	return nil
}

func seed(ctx context.Context, st *store.Store, n int) (seeded, error) {
	out := seeded{Title: fmt.Sprintf("%d messages", n), Messages: n}
	sess, err := st.CreateSession(ctx, chat.Session{Title: out.Title})
	if err != nil {
		return out, err
	}
	out.ID = sess.ID
	for _, m := range chattest.Conversation(n) {
		saved, err := st.AppendMessage(ctx, sess.ID, m)
		if err != nil {
			return out, err
		}
		if m.Role != chat.RoleTool {
			out.LastSeq = saved.Seq
		}
	}
	return out, nil
}
