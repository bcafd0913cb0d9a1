package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
	"maestro/backend/providers/openai/openaifake"
)

// bearer stands in for the oauth2 client: it adds the token, and records
// whether the body it handed out was closed.
type bearer struct {
	token  string
	closed atomic.Bool
}

func (b *bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil {
		resp.Body = &closeRecorder{ReadCloser: resp.Body, closed: &b.closed}
	}
	return resp, err
}

type closeRecorder struct {
	io.ReadCloser
	closed *atomic.Bool
}

func (c *closeRecorder) Close() error { c.closed.Store(true); return c.ReadCloser.Close() }

// newFake starts a fake that wants token "tok" and account "acc_1", and a
// ChatGPT-mode model pointed at it.
func newFake(t *testing.T, opts ...Option) (*openaifake.Server, *Model, *bearer) {
	t.Helper()
	f := openaifake.New(openaifake.WithToken("tok"), openaifake.WithAccountID("acc_1"), openaifake.WithAPIKey("sk-test"))
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	rt := &bearer{token: "tok"}
	opts = append([]Option{WithBaseURL(srv.URL), WithHTTPClient(&http.Client{Transport: rt}),
		WithAccountID("acc_1"), WithVersion("1.2.3")}, opts...)
	return f, New(opts...), rt
}

// run streams req and collects everything.
func run(ctx context.Context, m *Model, req chat.Request) ([]chat.Event, error) {
	seq, err := m.Stream(ctx, req)
	if err != nil {
		return nil, err
	}
	var evs []chat.Event
	for ev, err := range seq {
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
}

func TestURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		opts []Option
		want string
	}{
		{nil, "https://chatgpt.com/backend-api/codex/responses"},
		{[]Option{WithBaseURL("http://127.0.0.1:9/")}, "http://127.0.0.1:9/backend-api/codex/responses"},
		{[]Option{WithBaseURL("https://chatgpt.com/backend-api")}, "https://chatgpt.com/backend-api/codex/responses"},
		{[]Option{WithBaseURL("https://chatgpt.com/backend-api/codex")}, "https://chatgpt.com/backend-api/codex/responses"},
		{[]Option{WithAPIKey("k")}, "https://api.openai.com/v1/responses"},
		{[]Option{WithAPIKey("k"), WithBaseURL("http://h/v1")}, "http://h/v1/responses"},
		{[]Option{WithAPIKey("k"), WithBaseURL("http://h")}, "http://h/v1/responses"},
	}
	for _, tt := range tests {
		if got := New(tt.opts...).URL(); got != tt.want {
			t.Errorf("URL() = %q; want %q", got, tt.want)
		}
	}
}

func TestStreamChatGPTHeaders(t *testing.T) {
	t.Parallel()
	f, m, _ := newFake(t)
	req := baseRequest(user("ping"))
	evs, err := run(t.Context(), m, req)
	if err != nil {
		t.Fatal(err)
	}
	if got := evs[0]; !reflect.DeepEqual(got, chat.TextDelta{Text: "You said"}) {
		t.Errorf("first event = %#v; want the echo", got)
	}
	rec := f.Script.Requests()[0]
	want := map[string]string{
		"Chatgpt-Account-Id": "acc_1", "Originator": "maestro", "Session_id": "sess-1",
		"User-Agent": "maestro/1.2.3 (" + runtime.GOOS + " " + runtime.GOARCH + ")",
		"Accept":     "text/event-stream", "Content-Type": "application/json", "Openai-Beta": "responses=experimental",
		"Version": DefaultClientVersion,
	}
	for k, v := range want {
		if got := rec.Header.Get(k); got != v {
			t.Errorf("header %s = %q; want %q", k, got, v)
		}
	}
	if rec.Path != openaifake.ChatGPTPath || !strings.HasPrefix(rec.Header.Get("Authorization"), "Bearer ") {
		t.Errorf("request %s with auth %q; want %s with the client's bearer", rec.Path, rec.Header.Get("Authorization"), openaifake.ChatGPTPath)
	}
}

func TestStreamAPIKey(t *testing.T) {
	t.Parallel()
	f := openaifake.New(openaifake.WithAPIKey("sk-test"))
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	req := baseRequest(user("ping"))
	req.MaxOutputTokens = 100
	if _, err := run(t.Context(), New(WithBaseURL(srv.URL), WithAPIKey("sk-test")), req); err != nil {
		t.Fatal(err)
	}
	rec := f.Script.Requests()[0]
	var body map[string]any
	_ = json.Unmarshal(rec.Body, &body)
	if rec.Path != openaifake.APIPath || rec.Header.Get("Chatgpt-Account-Id") != "" || body["max_output_tokens"] != 100.0 {
		t.Errorf("got %s, account %q, max_output_tokens %v; want %s, none, 100",
			rec.Path, rec.Header.Get("Chatgpt-Account-Id"), body["max_output_tokens"], openaifake.APIPath)
	}
	_, err := run(t.Context(), New(WithBaseURL(srv.URL), WithAPIKey("sk-wrong")), req)
	if he, ok := chat.AsProviderError(err); !ok || he.Kind != chat.ProviderKindAuth || he.Code != "invalid_api_key" {
		t.Errorf("wrong key: err = %v; want auth invalid_api_key", err)
	}
}

func TestStreamAuthFailures(t *testing.T) {
	t.Parallel()
	_, noAuth, _ := newFake(t, WithHTTPClient(http.DefaultClient))
	if _, err := run(t.Context(), noAuth, baseRequest(user("x"))); !errors.Is(err, chat.ErrAuthRequired) {
		t.Errorf("no bearer: err = %v; want auth required (the adapter must not add auth)", err)
	}
	_, noAccount, _ := newFake(t, WithAccountID(""))
	if _, err := run(t.Context(), noAccount, baseRequest(user("x"))); !errors.Is(err, chat.ErrAuthRequired) {
		t.Errorf("no account id: err = %v; want auth required", err)
	}
}

// Every golden body is one the fake (and so, as far as we know, the real
// backend) accepts, in both modes.
func TestGoldenAcceptedByFake(t *testing.T) {
	t.Parallel()
	f := openaifake.New()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	files, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.json"))
	if len(files) < 9 {
		t.Fatalf("found %d golden files; want the render cases", len(files))
	}
	for _, path := range files {
		body, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{openaifake.ChatGPTPath, openaifake.APIPath} {
			hr, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+p, bytes.NewReader(body))
			hr.Header.Set("Authorization", "Bearer tok")
			hr.Header.Set("ChatGPT-Account-ID", "acc_1")
			resp, err := http.DefaultClient.Do(hr)
			if err != nil {
				t.Fatal(err)
			}
			_, perr := collectReader(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || perr != nil {
				reqs := f.Script.Requests()
				t.Errorf("%s on %s: status %d (%s), stream error %v; want 200", filepath.Base(path), p,
					resp.StatusCode, reqs[len(reqs)-1].Rejection, perr)
			}
		}
	}
}

func collectReader(r io.Reader) ([]chat.Event, error) {
	var evs []chat.Event
	for ev, err := range parseStream(r) {
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
}

// Stopping the range closes the body, even mid-stream.
func TestStreamBreakClosesBody(t *testing.T) {
	t.Parallel()
	f, m, rt := newFake(t)
	f.Script.Push(fakescript.Reply{Text: strings.Repeat("long text ", 50), DelayMS: 20})
	seq, err := m.Stream(t.Context(), baseRequest(user("x")))
	if err != nil {
		t.Fatal(err)
	}
	for range seq {
		break
	}
	if !rt.closed.Load() {
		t.Error("body still open after break")
	}
}

func TestStreamCancel(t *testing.T) {
	t.Parallel()
	f, m, _ := newFake(t)
	f.Script.Push(fakescript.Reply{Text: strings.Repeat("long text ", 50), DelayMS: 20})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	seq, err := m.Stream(ctx, baseRequest(user("x")))
	if err != nil {
		t.Fatal(err)
	}
	var last error
	for _, err := range seq {
		cancel()
		last = err
	}
	if !errors.Is(last, context.Canceled) {
		t.Errorf("last = %v; want context.Canceled", last)
	}
}

func TestStreamIdleTimeout(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "event: response.created\ndata: "+created+"\n\n")
		http.NewResponseController(w).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	m := New(WithBaseURL(srv.URL), WithAccountID("a"), WithIdleTimeout(50*time.Millisecond))
	_, err := run(t.Context(), m, baseRequest(user("x")))
	if he, ok := chat.AsProviderError(err); !ok || he.Kind != chat.ProviderKindStream || !strings.Contains(he.Message, "no data for") {
		t.Errorf("err = %v; want a stream error for the idle timeout", err)
	}
}
