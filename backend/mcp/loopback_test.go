package mcp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"maestro/backend/chat"
)

// browserGet plays the browser: it follows the authorization URL's
// redirect_uri with a code and the state.
func browserGet(t *testing.T, authURL string, extra url.Values) (int, string) {
	t.Helper()
	u, err := url.Parse(authURL)
	if err != nil {
		t.Errorf("parse %q: %v", authURL, err)
		return 0, ""
	}
	cb, err := url.Parse(u.Query().Get("redirect_uri"))
	if err != nil {
		t.Errorf("parse redirect_uri: %v", err)
		return 0, ""
	}
	q := url.Values{"state": {u.Query().Get("state")}}
	for k, v := range extra {
		q[k] = v
	}
	cb.RawQuery = q.Encode()
	resp, err := http.Get(cb.String())
	if err != nil {
		t.Errorf("GET %s: %v", cb, err)
		return 0, ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestLoopbackAuthorizerReturnsTheCallbackQuery(t *testing.T) {
	t.Parallel()
	var redirect string
	var wg sync.WaitGroup
	defer wg.Wait()
	z := &LoopbackAuthorizer{Open: func(_ context.Context, u string) error {
		// The browser comes back on its own goroutine, as a real one would.
		wg.Go(func() {
			// Another state is refused, and the sign-in goes on waiting.
			forged, _ := url.Parse(u)
			q := forged.Query()
			q.Set("state", "forged")
			forged.RawQuery = q.Encode()
			if code, body := browserGet(t, forged.String(), url.Values{"code": {"evil"}}); code != http.StatusBadRequest || !strings.Contains(body, "State mismatch") {
				t.Errorf("callback with another state answered %d: %s", code, body)
			}
			code, body := browserGet(t, u, url.Values{"code": {"abc"}})
			if code != http.StatusOK || !strings.Contains(body, "Signed in to Files") {
				t.Errorf("callback answered %d: %s", code, body)
			}
		})
		return nil
	}}
	q, err := z.Authorize(t.Context(), "Files", func(r string) (string, error) {
		redirect = r
		return "https://auth.example/authorize?" + url.Values{"redirect_uri": {r}, "state": {"s1"}}.Encode(), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if q.Get("code") != "abc" || q.Get("state") != "s1" {
		t.Errorf("query = %v, want the code and the state", q)
	}
	ru, _ := url.Parse(redirect)
	if ru.Scheme != "http" || ru.Hostname() != "127.0.0.1" || ru.Path != "/callback" || ru.Port() == "" {
		t.Errorf("redirect URI = %q, want http://127.0.0.1:<port>/callback", redirect)
	}
	// Authorize returned: the listener is closed.
	if _, err := http.Get(redirect); err == nil {
		t.Error("the listener still answers after the sign-in")
	}
}

func TestLoopbackAuthorizerErrorPageAndCancel(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var body string
	z := &LoopbackAuthorizer{Open: func(_ context.Context, u string) error {
		_, b := browserGet(t, u, url.Values{"error": {"access_denied"}})
		mu.Lock()
		body = b
		mu.Unlock()
		return nil
	}}
	q, err := z.Authorize(t.Context(), "Files", func(r string) (string, error) {
		return "https://auth.example/a?" + url.Values{"redirect_uri": {r}, "state": {"s"}}.Encode(), nil
	})
	if err != nil || q.Get("error") != "access_denied" {
		t.Fatalf("Authorize = %v, %v; want the error query handed back", q, err)
	}
	mu.Lock()
	if !strings.Contains(body, "Files sign-in failed") || !strings.Contains(body, "access was denied") {
		t.Errorf("page = %q", body)
	}
	mu.Unlock()

	// Nobody comes back: ctx ends the wait.
	ctx, cancel := context.WithCancel(t.Context())
	z = &LoopbackAuthorizer{Open: func(context.Context, string) error { cancel(); return nil }}
	_, err = z.Authorize(ctx, "Files", func(r string) (string, error) { return "https://auth.example/a", nil })
	if !errors.Is(err, chat.ErrCanceled) {
		t.Errorf("cancelled sign-in: err = %v, want ErrCanceled", err)
	}
	z = &LoopbackAuthorizer{Open: func(context.Context, string) error { return nil }, Timeout: 50 * time.Millisecond}
	_, err = z.Authorize(t.Context(), "Files", func(r string) (string, error) { return "https://auth.example/a", nil })
	if !errors.Is(err, chat.ErrCanceled) || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("timed-out sign-in: err = %v", err)
	}
	if _, err := (&LoopbackAuthorizer{}).Authorize(t.Context(), "Files", nil); !errors.Is(err, chat.ErrUnavailable) {
		t.Errorf("no browser: err = %v", err)
	}
}
