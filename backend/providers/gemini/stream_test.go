package gemini

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
)

func TestStreamStopClosesBody(t *testing.T) {
	t.Parallel()
	f, srv := newFake(t)
	var closed atomic.Int32
	m := New(WithBaseURL(srv.URL), WithProject(testProject), WithHTTPClient(&http.Client{Transport: bearer{tok: testToken, closed: &closed}}))
	f.Script.Push(fakescript.Reply{Text: strings.Repeat("word ", 50), ChunkRunes: 5, DelayMS: 20})
	seq, err := m.Stream(t.Context(), base(user("u1", "hi")))
	if err != nil {
		t.Fatal(err)
	}
	for range seq {
		break
	}
	if closed.Load() != 1 {
		t.Errorf("got %d body closes after break; want 1", closed.Load())
	}
	for _, err := range seq {
		if err == nil || !strings.Contains(err.Error(), "already consumed") {
			t.Errorf("second range: got %v; want an already-consumed error", err)
		}
	}
}

func TestStreamCancel(t *testing.T) {
	t.Parallel()
	f, srv := newFake(t)
	m := modes(srv)["code assist"]
	f.Script.Push(fakescript.Reply{Text: strings.Repeat("word ", 50), ChunkRunes: 5, DelayMS: 50})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	seq, err := m.Stream(ctx, base(user("u1", "hi")))
	if err != nil {
		t.Fatal(err)
	}
	var last error
	n := 0
	for _, err := range seq {
		n++
		if n == 2 {
			cancel()
		}
		last = err
	}
	if !errors.Is(last, context.Canceled) {
		t.Errorf("got last error %v; want context.Canceled", last)
	}
}

func TestStreamRejectsBeforeSending(t *testing.T) {
	t.Parallel()
	if _, err := New().Stream(t.Context(), base(user("u", "x"))); err == nil || !strings.Contains(err.Error(), "project") {
		t.Errorf("code assist without project: got %v; want a project error", err)
	}
	m := New(WithBaseURL("http://127.0.0.1:1"), WithProject("p"))
	if _, err := m.Stream(t.Context(), chat.Request{Model: "gemini-2.5-pro"}); !errors.Is(err, chat.ErrInvalid) {
		t.Errorf("no messages: got %v; want chat.ErrInvalid", err)
	}
	if _, err := m.Stream(t.Context(), chat.Request{Messages: []chat.Message{user("u", "x")}}); !errors.Is(err, chat.ErrInvalid) {
		t.Errorf("no model: got %v; want chat.ErrInvalid", err)
	}
	bad := base(user("u", "x"))
	bad.Tools[0].InputSchema = raw(`{not json}`)
	if _, err := m.Stream(t.Context(), bad); err == nil || !strings.Contains(err.Error(), "gemini: encode request") {
		t.Errorf("invalid schema: got %v; want an encode error", err)
	}
	_, err := m.Stream(t.Context(), chat.Request{Model: "gemini-2.5-pro", Messages: []chat.Message{user("u", "x")}})
	if he, ok := chat.AsProviderError(err); !ok || he.Kind != chat.ProviderKindServer {
		t.Errorf("unreachable server: got %v; want a server-kind *chat.ProviderError", err)
	}
}

// TestRequestHeaders checks what reaches the wire in each mode.
func TestRequestHeaders(t *testing.T) {
	t.Parallel()
	f, srv := newFake(t)
	for mode, m := range modes(srv, WithVersion("1.2.3")) {
		if _, err := run(t.Context(), m, base(user("u1", "hi"))); err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
	}
	for _, r := range f.Script.Requests() {
		if ua := r.Header.Get("User-Agent"); !strings.HasPrefix(ua, "Maestro/1.2.3 (") {
			t.Errorf("%s: got User-Agent %q", r.Path, ua)
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s: got Content-Type %q", r.Path, ct)
		}
		apiKeyMode := strings.HasPrefix(r.Path, "/v1beta/")
		if (r.Header.Get("X-Goog-Api-Key") != "") != apiKeyMode || (r.Header.Get("Authorization") != "") == apiKeyMode {
			t.Errorf("%s: wrong credentials for the mode: %v", r.Path, r.Header)
		}
	}
}
