package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/store"
)

func TestSessionLifecycle(t *testing.T) {
	t.Parallel()
	a, rec := startApp(t, "")

	first, err := a.Sessions.Create("")
	if err != nil {
		t.Fatal(err)
	}
	if first.Title != DefaultTitle || first.ID == "" || first.CreatedAt == 0 {
		t.Errorf("CreateSession(\"\") = %+v; want an id, a time and the title %q", first, DefaultTitle)
	}
	second, err := a.Sessions.Create("  Trip   plans ")
	if err != nil {
		t.Fatal(err)
	}
	if second.Title != "Trip plans" {
		t.Errorf("title = %q, want it trimmed to %q", second.Title, "Trip plans")
	}
	renamed, err := a.Sessions.Rename(first.ID, "Renamed")
	if err != nil || renamed.Title != "Renamed" {
		t.Fatalf("RenameSession = %+v, %v", renamed, err)
	}
	if _, err := a.Sessions.Rename(first.ID, "   "); chat.Kind(err) != chat.KindInvalid {
		t.Errorf("rename to blank: kind %q, want invalid (err %v)", chat.Kind(err), err)
	}
	list, err := a.Sessions.List()
	if err != nil || len(list) != 2 || list[0].ID != second.ID || list[1].Title != "Renamed" {
		t.Fatalf("ListSessions = %+v, %v; want the newest session first and the rename kept", list, err)
	}
	if err := a.Sessions.Delete(second.ID); err != nil {
		t.Fatal(err)
	}
	if err := a.Sessions.Delete(second.ID); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("second delete: kind %q, want not_found", chat.Kind(err))
	}
	if got := rec.count(EventSessionsChanged); got != 4 {
		t.Errorf("%s emitted %d times, want 4 (2 creates, rename, delete)", EventSessionsChanged, got)
	}
}

func TestSendMessageAndReopen(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, _ := startApp(t, dir)
	s, _ := a.Sessions.Create("")
	if _, err := a.Chat.SendMessage(s.ID, "  ", nil); chat.Kind(err) != chat.KindInvalid {
		t.Errorf("empty message: kind %q, want invalid", chat.Kind(err))
	}
	sent, err := a.Chat.SendMessage(s.ID, "How do I pin a Go module version?\nMore detail.", nil)
	if err != nil {
		t.Fatal(err)
	}
	m := sent.Message
	if m.Role != "user" || m.Seq != 1 || len(m.Parts) != 1 || m.Parts[0].Text == "" {
		t.Errorf("SendMessage = %+v", m)
	}
	view, err := a.Sessions.Open(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if view.Session.Title != "How do I pin a Go module version?" {
		t.Errorf("title after first message = %q; want the first line", view.Session.Title)
	}
	// The run (signed out here) may have stored its failed reply already.
	if len(view.Messages) == 0 || view.Messages[0].Role != "user" || view.Messages[0].Status != "complete" {
		t.Errorf("messages = %+v; want the user's message first, complete", view.Messages)
	}
	if _, err := a.Chat.SendMessage("missing", "hi", nil); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("send to missing session: kind %q, want not_found", chat.Kind(err))
	}
	if got := a.Settings.Status().LastSessionID; got != s.ID {
		t.Errorf("LastSessionID = %q, want %q", got, s.ID)
	}
}

func TestStatusReportsBadDataFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, store.FileName)
	garbage := []byte(strings.Repeat("definitely not bbolt ", 500))
	if err := os.WriteFile(path, garbage, 0o600); err != nil {
		t.Fatal(err)
	}
	a, _ := startApp(t, dir)
	st := a.Settings.Status()
	if st.StoreError == nil || st.StoreError.Kind != chat.KindUnavailable || !strings.Contains(st.StoreError.Message, path) {
		t.Fatalf("Status().StoreError = %+v; want kind unavailable naming %s", st.StoreError, path)
	}
	if _, err := a.Sessions.List(); err == nil {
		t.Error("ListSessions succeeded with a bad data file")
	}
	if after, _ := os.ReadFile(path); string(after) != string(garbage) {
		t.Error("the bad data file was modified")
	}
}

func TestShutdownWaitsThenCloses(t *testing.T) {
	t.Parallel()
	a, _ := newApp(t, "")
	a.Startup(t.Context())
	started, release := make(chan struct{}), make(chan struct{})
	var wrote error
	a.core.work.Add(1)
	go func() {
		defer a.core.work.Done()
		run, ctx, cancel, err := a.core.call()
		if err != nil {
			wrote = err
			close(started)
			return
		}
		defer cancel()
		close(started)
		<-release
		// The store must still be open here even though shutdown has begun.
		_, wrote = run.store.CreateSession(context.WithoutCancel(ctx), chat.Session{Title: "late"})
	}()
	<-started
	done := make(chan struct{})
	go func() { a.Shutdown(context.Background()); close(done) }()
	close(release)
	<-done
	if wrote != nil {
		t.Errorf("work running at shutdown failed: %v", wrote)
	}
	if _, err := a.Sessions.List(); !errors.Is(err, chat.ErrUnavailable) {
		t.Errorf("after shutdown: got %v, want ErrUnavailable", err)
	}
}

// formatted decodes what FormatError hands Wails: JSON text, since the
// runtime wraps it in new Error(…), which keeps only a string whole.
func formatted(t *testing.T, err error) *ErrorDTO {
	t.Helper()
	s, ok := FormatError(err).(string)
	if !ok {
		t.Fatalf("FormatError returned %T, want a string the Wails runtime keeps whole", FormatError(err))
	}
	var dto ErrorDTO
	if jerr := json.Unmarshal([]byte(s), &dto); jerr != nil {
		t.Fatalf("FormatError = %q: %v", s, jerr)
	}
	return &dto
}

func TestFormatError(t *testing.T) {
	t.Parallel()
	got := formatted(t, errors.Join(errors.New("store: session x"), chat.ErrNotFound))
	if got.Kind != chat.KindNotFound || !strings.Contains(got.Message, "session x") {
		t.Errorf("FormatError = %+v", got)
	}
	if FormatError(nil) != nil {
		t.Error("FormatError(nil) should be nil")
	}
	// A provider's refusal carries what the UI needs to pick its card.
	gate := &chat.ProviderError{Provider: chat.ProviderAnthropic, Status: 400, Kind: chat.ProviderKindEntitlement,
		Code: "third_party_gate", Message: "Third-party apps now draw from your extra usage"}
	got = formatted(t, fmt.Errorf("agent: step 1: %w", gate))
	want := ErrorDTO{Kind: chat.KindUnavailable, Message: got.Message, Provider: chat.ProviderAnthropic, Reason: "entitlement",
		Code: "third_party_gate", Detail: "Third-party apps now draw from your extra usage"}
	if *got != want {
		t.Errorf("FormatError(gate) = %+v\nwant %+v", *got, want)
	}
	// A stored failure reads the same.
	at := time.Date(2026, 11, 24, 20, 0, 0, 0, time.UTC)
	msg := messageDTO(chat.Message{Role: chat.RoleAssistant, Status: chat.StatusFailed, Error: "e",
		Failure: &chat.Failure{Kind: chat.KindUnavailable, Provider: "openai", Reason: "quota", RetryAt: at}})
	if f := msg.Failure; f == nil || f.Reason != "quota" || f.Message != "e" || f.RetryAt != at.UnixMilli() {
		t.Errorf("stored failure DTO = %+v", f)
	}
}

// TestToolCallDTOInvalidArguments: a call whose arguments were not a JSON
// object shows the text the model sent, still as JSON.
func TestToolCallDTOInvalidArguments(t *testing.T) {
	t.Parallel()
	msg := messageDTO(chat.Message{Role: chat.RoleAssistant, Parts: chat.Parts{chat.ToolCallPart{Call: chat.ToolCall{
		ID: "c1", Name: "srv.add", Arguments: json.RawMessage(`{}`), InvalidArguments: `{"a": 1,`}}}})
	if got, want := msg.Parts[0].Arguments, `{"INVALID_JSON":"{\"a\": 1,"}`; got != want {
		t.Errorf("arguments = %s; want %s", got, want)
	}
}

func TestKeychainStatus(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		kc   Keychain
		want bool
	}{{fakeKeychain{}, true}, {fakeKeychain{err: errors.New("keychain unavailable: install gnome-keyring")}, false}} {
		a, _ := newApp(t, "", func(d *Deps) { d.Keychain = tt.kc })
		if got := a.Settings.KeychainStatus(); got.Available || got.Message == "" {
			t.Errorf("KeychainStatus() before startup = %+v; want unavailable, with a message", got)
		}
		a.Startup(t.Context())
		got := a.Settings.KeychainStatus()
		a.Shutdown(context.Background())
		if got.Available != tt.want || got.Message == "" {
			t.Errorf("KeychainStatus() with %v = %+v; want available=%v and a message", tt.kc, got, tt.want)
		}
	}
}

func TestTitleFrom(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"Hello there", "Hello there"},
		{"  first line\nsecond", "first line"},
		{strings.Repeat("word ", 30), "word word word word word word word word word word word word…"},
		{strings.Repeat("x", 100), strings.Repeat("x", 60) + "…"},
		{"\n\n", DefaultTitle},
	}
	for _, tt := range tests {
		if got := titleFrom(tt.in); got != tt.want {
			t.Errorf("titleFrom(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRotatingLog(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x.log")
	w, err := newRotatingFile(path, 100)
	if err != nil {
		t.Fatal(err)
	}
	line := []byte(strings.Repeat("a", 39) + "\n")
	for range 5 {
		if _, err := w.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	_ = w.Close()
	cur, _ := os.ReadFile(path)
	old, _ := os.ReadFile(path + ".1")
	if len(cur) > 100 || len(old) > 100 || len(cur)+len(old) < 120 {
		t.Errorf("after 200 bytes with a 100-byte cap: current %d bytes, rotated %d", len(cur), len(old))
	}
}

func TestLogReadableOnlyByTheUser(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "maestro.log")
	if err := os.WriteFile(path, []byte("old line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil { // past the umask
		t.Fatal(err)
	}
	w, err := newRotatingFile(path, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("log mode = %v, %v; want 0600", fi.Mode().Perm(), err)
	}
}

func TestOpenSessionPages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st, err := store.Open(t.Context(), dir, store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := st.CreateSession(t.Context(), chat.Session{Title: "Long"})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 200; i++ {
		m := chat.Message{Role: chat.RoleUser, Status: chat.StatusComplete, Parts: chat.Parts{chat.TextPart{Text: fmt.Sprint(i)}}}
		if i == 150 || i == 30 {
			m.Status = agent.StatusSuperseded
		}
		if _, err := st.AppendMessage(t.Context(), sess.ID, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	a, _ := startApp(t, dir)

	seqs := func(ms []MessageDTO) (first, last uint64, n int) {
		for _, m := range ms {
			if m.Status == string(agent.StatusSuperseded) {
				t.Errorf("superseded message %d was returned", m.Seq)
			}
		}
		return ms[0].Seq, ms[len(ms)-1].Seq, len(ms)
	}
	view, err := a.Sessions.Open(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if first, last, n := seqs(view.Messages); first != 121 || last != 200 || n != 79 || view.EarlierBefore != 121 {
		t.Errorf("OpenSession = seq %d..%d (%d messages), earlierBefore %d; want 121..200 (79, one superseded), 121", first, last, n, view.EarlierBefore)
	}
	page, err := a.Sessions.EarlierMessages(sess.ID, view.EarlierBefore)
	if err != nil {
		t.Fatal(err)
	}
	if first, last, n := seqs(page.Messages); first != 41 || last != 120 || n != 80 || page.EarlierBefore != 41 {
		t.Errorf("EarlierMessages(121) = seq %d..%d (%d), earlierBefore %d; want 41..120 (80), 41", first, last, n, page.EarlierBefore)
	}
	page, err = a.Sessions.EarlierMessages(sess.ID, page.EarlierBefore)
	if err != nil {
		t.Fatal(err)
	}
	if first, last, n := seqs(page.Messages); first != 1 || last != 40 || n != 39 || page.EarlierBefore != 0 {
		t.Errorf("EarlierMessages(41) = seq %d..%d (%d), earlierBefore %d; want 1..40 (39), 0", first, last, n, page.EarlierBefore)
	}
	if _, err := a.Sessions.EarlierMessages(sess.ID, 0); chat.Kind(err) != chat.KindInvalid {
		t.Errorf("EarlierMessages(0): kind %q, want invalid", chat.Kind(err))
	}
	if _, err := a.Sessions.EarlierMessages("missing", 5); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("EarlierMessages on a missing session: kind %q, want not_found", chat.Kind(err))
	}
}
