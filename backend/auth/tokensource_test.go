package auth

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"maestro/backend/chat"
)

// scriptedRefresh is a RefreshFunc that answers from a list and counts.
type scriptedRefresh struct {
	mu    sync.Mutex
	calls int
	gate  chan struct{} // if set, each call waits for it
	errs  []error
	ttl   time.Duration
}

func (r *scriptedRefresh) refresh(ctx context.Context, rt string) (*oauth2.Token, error) {
	if r.gate != nil {
		<-r.gate
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	if len(r.errs) > 0 {
		err := r.errs[0]
		r.errs = r.errs[1:]
		if err != nil {
			return nil, err
		}
	}
	ttl := r.ttl
	if ttl == 0 {
		ttl = time.Hour
	}
	return &oauth2.Token{AccessToken: "at-" + string(rune('0'+r.calls)), RefreshToken: "rt-" + string(rune('0'+r.calls)),
		Expiry: time.Now().Add(ttl)}, nil
}

func (r *scriptedRefresh) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls
}

type savedTokens struct {
	mu   sync.Mutex
	toks []*oauth2.Token
	err  error
}

func (s *savedTokens) save(_ context.Context, t *oauth2.Token) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.toks = append(s.toks, t)
	return s.err
}

func (s *savedTokens) last() *oauth2.Token {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.toks) == 0 {
		return nil
	}
	return s.toks[len(s.toks)-1]
}

func TestSourceRefreshWindow(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		left time.Duration
		want int
	}{
		{time.Hour, 0}, {5*time.Minute + time.Second, 0}, {5 * time.Minute, 1}, {time.Minute, 1}, {-time.Hour, 1},
	}
	for _, tt := range tests {
		r, s := &scriptedRefresh{}, &savedTokens{}
		src := NewSavingTokenSource(&oauth2.Token{AccessToken: "old", RefreshToken: "rt-0", Expiry: now.Add(tt.left)},
			r.refresh, s.save, WithClock(func() time.Time { return now }))
		tok, err := src.Token()
		if err != nil {
			t.Fatalf("left %v: Token() = %v", tt.left, err)
		}
		if r.count() != tt.want {
			t.Errorf("left %v: refreshes = %d; want %d", tt.left, r.count(), tt.want)
		}
		if tt.want == 1 && (tok.AccessToken != "at-1" || s.last() == nil || s.last().AccessToken != "at-1") {
			t.Errorf("left %v: token %q, saved %v; want the refreshed one, saved", tt.left, tok.AccessToken, s.last())
		}
	}
}

// TestSourceReceivedTokenUsesHalfItsLife: a token a sign-in just granted
// for a minute is not refreshed at once, but after half its life.
func TestSourceReceivedTokenUsesHalfItsLife(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	now := start
	r := &scriptedRefresh{}
	src := NewSavingTokenSource(&oauth2.Token{AccessToken: "granted", RefreshToken: "rt-0", Expiry: start.Add(time.Minute)},
		r.refresh, (&savedTokens{}).save, WithClock(func() time.Time { return now }), WithReceived(start))
	if tok, err := src.Token(); err != nil || tok.AccessToken != "granted" || r.count() != 0 {
		t.Fatalf("Token() = %v, %v after %d refreshes; want the granted token", tok, err, r.count())
	}
	now = start.Add(31 * time.Second)
	if tok, err := src.Token(); err != nil || tok.AccessToken != "at-1" {
		t.Errorf("Token() past half its life = %v, %v; want a refreshed one", tok, err)
	}
}

// TestSourceWithoutRefreshTokenUntilExpiry: a token that cannot be
// renewed is handed out until it expires, then asks for a sign-in.
func TestSourceWithoutRefreshTokenUntilExpiry(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	src := NewSavingTokenSource(&oauth2.Token{AccessToken: "only", Expiry: now.Add(time.Minute)},
		(&scriptedRefresh{}).refresh, (&savedTokens{}).save, WithClock(func() time.Time { return now }))
	if tok, err := src.Token(); err != nil || tok.AccessToken != "only" {
		t.Errorf("Token() inside the early window = %v, %v; want the token", tok, err)
	}
	now = now.Add(2 * time.Minute)
	if _, err := src.Token(); !errors.Is(err, chat.ErrAuthRequired) {
		t.Errorf("Token() after expiry = %v; want ErrAuthRequired", err)
	}
}

func TestSourceKeepsRefreshTokenWhenOmitted(t *testing.T) {
	t.Parallel()
	s := &savedTokens{}
	src := NewSavingTokenSource(&oauth2.Token{AccessToken: "old", RefreshToken: "keep", TokenType: "Bearer", Expiry: time.Now()},
		func(context.Context, string) (*oauth2.Token, error) {
			return &oauth2.Token{AccessToken: "new", Expiry: time.Now().Add(time.Hour)}, nil
		}, s.save)
	tok, err := src.Token()
	if err != nil || tok.RefreshToken != "keep" || tok.TokenType != "Bearer" || s.last().RefreshToken != "keep" {
		t.Errorf("Token() = %+v, %v; want the old refresh token kept and saved", tok, err)
	}
}

func TestSourceTransientFailureKeepsValidToken(t *testing.T) {
	t.Parallel()
	r := &scriptedRefresh{errs: []error{chat.E(chat.ErrUnavailable, "network down")}}
	src := NewSavingTokenSource(&oauth2.Token{AccessToken: "still-good", RefreshToken: "rt", Expiry: time.Now().Add(2 * time.Minute)},
		r.refresh, (&savedTokens{}).save)
	tok, err := src.Token()
	if err != nil || tok.AccessToken != "still-good" {
		t.Fatalf("Token() = %v, %v; want the still valid token", tok, err)
	}
	if tok, err := src.Token(); err != nil || tok.AccessToken != "at-2" {
		t.Errorf("second Token() = %v, %v; want a retry that succeeds", tok, err)
	}

	// An expired token with a failing refresh is an error.
	r2 := &scriptedRefresh{errs: []error{chat.E(chat.ErrUnavailable, "network down")}}
	src2 := NewSavingTokenSource(&oauth2.Token{AccessToken: "gone", RefreshToken: "rt", Expiry: time.Now().Add(-time.Minute)},
		r2.refresh, (&savedTokens{}).save)
	if _, err := src2.Token(); !errors.Is(err, chat.ErrUnavailable) {
		t.Errorf("Token() with an expired token = %v; want the refresh error", err)
	}
}

func TestSourcePermanentFailureRemembered(t *testing.T) {
	t.Parallel()
	dead := refreshError("ChatGPT", &oauthError{Status: 401, Code: "refresh_token_reused"})
	r := &scriptedRefresh{errs: []error{dead}}
	src := NewSavingTokenSource(&oauth2.Token{AccessToken: "old", RefreshToken: "rt", Expiry: time.Now().Add(time.Minute)},
		r.refresh, (&savedTokens{}).save)
	for range 3 {
		_, err := src.Token()
		wantKind(t, err, chat.ErrAuthRequired)
	}
	if _, err := src.RefreshAfter(t.Context(), &oauth2.Token{AccessToken: "old"}); !errors.Is(err, chat.ErrAuthRequired) {
		t.Errorf("RefreshAfter() = %v; want the remembered failure", err)
	}
	if r.count() != 1 {
		t.Errorf("refreshes = %d; want 1", r.count())
	}
}

func TestSourceNoRefreshToken(t *testing.T) {
	t.Parallel()
	src := NewSavingTokenSource(&oauth2.Token{AccessToken: "old", Expiry: time.Now().Add(-time.Minute)},
		(&scriptedRefresh{}).refresh, (&savedTokens{}).save)
	_, err := src.Token()
	wantKind(t, err, chat.ErrAuthRequired)
}

// TestSourceCallerGivesUp: a caller whose context ends stops waiting, but
// the refresh completes and is saved (a rotated refresh token must not be
// lost), and the next caller gets its result without a second refresh.
func TestSourceCallerGivesUp(t *testing.T) {
	t.Parallel()
	r := &scriptedRefresh{gate: make(chan struct{})}
	s := &savedTokens{}
	src := NewSavingTokenSource(&oauth2.Token{AccessToken: "old", RefreshToken: "rt", Expiry: time.Now()}, r.refresh, s.save)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error)
	go func() {
		_, err := src.TokenContext(ctx)
		done <- err
	}()
	time.Sleep(10 * time.Millisecond)
	cancel()
	if err := <-done; !errors.Is(err, chat.ErrCanceled) {
		t.Fatalf("TokenContext() = %v; want canceled", err)
	}
	close(r.gate)
	src.Wait()
	if s.last() == nil || s.last().RefreshToken != "rt-1" {
		t.Fatalf("the abandoned refresh was not saved: %v", s.last())
	}
	if tok, err := src.Token(); err != nil || tok.AccessToken != "at-1" || r.count() != 1 {
		t.Errorf("Token() = %v, %v after %d refreshes; want at-1 and no new refresh", tok, err, r.count())
	}
}

func TestSourceRefreshAfter(t *testing.T) {
	t.Parallel()
	r := &scriptedRefresh{}
	src := NewSavingTokenSource(&oauth2.Token{AccessToken: "a", RefreshToken: "rt", Expiry: time.Now().Add(time.Hour)},
		r.refresh, (&savedTokens{}).save)
	rejected, _ := src.Token()
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			if tok, err := src.RefreshAfter(context.Background(), rejected); err != nil || tok.AccessToken != "at-1" {
				t.Errorf("RefreshAfter() = %v, %v", tok, err)
			}
		})
	}
	wg.Wait()
	if r.count() != 1 {
		t.Errorf("refreshes = %d; want 1 for one rejected token", r.count())
	}
	// Rejecting the new token refreshes again.
	if tok, _ := src.RefreshAfter(t.Context(), &oauth2.Token{AccessToken: "at-1"}); tok.AccessToken != "at-2" {
		t.Errorf("RefreshAfter(new) = %v; want at-2", tok)
	}
}

func TestSourceSaveFailureLogged(t *testing.T) {
	t.Parallel()
	logs := &syncBuffer{}
	s := &savedTokens{err: errors.New("keychain locked")}
	src := NewSavingTokenSource(&oauth2.Token{AccessToken: "old", RefreshToken: "rt", Expiry: time.Now()},
		(&scriptedRefresh{}).refresh, s.save, WithLogger(newTestLogger(logs)))
	tok, err := src.Token()
	if err != nil || tok.AccessToken != "at-1" {
		t.Fatalf("Token() = %v, %v; want the new token in memory", tok, err)
	}
	if !strings.Contains(logs.String(), "keychain locked") || strings.Contains(logs.String(), "rt-1") {
		t.Errorf("log = %q; want the save failure, without the token", logs.String())
	}
}

// TestTransport covers the 401 handling: one refresh, one replay with the
// same body (buffered when the request cannot rebuild it), and the first
// 401 returned as is when the refresh fails.
func TestTransport(t *testing.T) {
	t.Parallel()
	var valid atomic.Value
	valid.Store("a")
	var bodies []string
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer "+valid.Load().(string) {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"error":"expired"}`)
			return
		}
		_, _ = io.WriteString(w, "ok")
	}))
	defer srv.Close()

	r := &scriptedRefresh{}
	src := NewSavingTokenSource(&oauth2.Token{AccessToken: "a", RefreshToken: "rt", Expiry: time.Now().Add(time.Hour)},
		r.refresh, (&savedTokens{}).save)
	client := &http.Client{Transport: &Transport{Source: src}}

	// A body without GetBody (a plain reader) is buffered and replayed.
	valid.Store("at-1")
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL, io.MultiReader(strings.NewReader("pay"), strings.NewReader("load")))
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != "ok" || r.count() != 1 {
		t.Fatalf("got %d %q after %d refreshes; want 200 ok after 1", resp.StatusCode, b, r.count())
	}
	mu.Lock()
	if len(bodies) != 2 || bodies[0] != "payload" || bodies[1] != "payload" {
		t.Errorf("bodies = %q; want the payload twice", bodies)
	}
	bodies = nil
	mu.Unlock()

	// Still 401 after the refresh: returned, no second refresh.
	valid.Store("never")
	resp, err = client.Post(srv.URL, "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 || r.count() != 2 {
		t.Errorf("got %d after %d refreshes; want 401 after 2", resp.StatusCode, r.count())
	}

	// The refresh fails: the first 401, body intact.
	r.mu.Lock()
	r.errs = []error{chat.E(chat.ErrUnavailable, "down")}
	r.mu.Unlock()
	resp, err = client.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 401 || string(b) != `{"error":"expired"}` {
		t.Errorf("got %d %q; want the server's 401", resp.StatusCode, b)
	}
}

func TestTransportNoTokenNoRequest(t *testing.T) {
	t.Parallel()
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits++ }))
	defer srv.Close()
	src := NewSavingTokenSource(&oauth2.Token{AccessToken: "a", Expiry: time.Now().Add(-time.Hour)},
		(&scriptedRefresh{}).refresh, (&savedTokens{}).save)
	client := &http.Client{Transport: &Transport{Source: src}}
	_, err := client.Get(srv.URL)
	if !errors.Is(err, chat.ErrAuthRequired) || hits != 0 {
		t.Errorf("Get() = %v with %d hits; want auth required and no request", err, hits)
	}
}
