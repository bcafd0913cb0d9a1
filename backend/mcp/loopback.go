package mcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"maestro/backend/chat"
)

// DefaultSignInTimeout bounds a LoopbackAuthorizer sign-in.
const DefaultSignInTimeout = 5 * time.Minute

// loopbackPath is the redirect URI's path.
const loopbackPath = "/callback"

// LoopbackAuthorizer is the Authorizer of the desktop app: for each sign-in
// it listens on 127.0.0.1 (a free port), asks for the authorization URL with
// http://127.0.0.1:<port>/callback as the redirect URI, opens that URL in
// the user's browser, and returns the query of the first request that
// reaches the callback path. The supervisor checks its state. The listener
// is closed when the callback came, when ctx ends or after Timeout.
type LoopbackAuthorizer struct {
	// Open opens a URL in the user's browser.
	Open func(ctx context.Context, url string) error
	// Timeout bounds the wait for the browser (DefaultSignInTimeout when 0).
	Timeout time.Duration
	Logger  *slog.Logger
}

// Authorize implements Authorizer.
func (z *LoopbackAuthorizer) Authorize(ctx context.Context, connector string, authURL func(redirectURI string) (string, error)) (url.Values, error) {
	if z.Open == nil {
		return nil, chat.E(chat.ErrUnavailable, "Maestro cannot open a browser to sign in to %s", connector)
	}
	ctx, cancel := context.WithTimeout(ctx, cmp.Or(z.Timeout, DefaultSignInTimeout))
	defer cancel()
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("sign in to %s: listen on 127.0.0.1: %w", connector, err)
	}
	redirect := fmt.Sprintf("http://%s%s", ln.Addr().String(), loopbackPath)

	got := make(chan url.Values, 1)
	var once sync.Once
	logger := z.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	srv := &http.Server{
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelDebug),
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != loopbackPath {
				http.NotFound(w, r)
				return
			}
			q := r.URL.Query()
			delivered := false
			once.Do(func() { got <- q; delivered = true })
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			title, body := "Signed in", "You can close this tab and return to Maestro."
			switch {
			case !delivered:
				title, body = "Already answered", "This sign-in has already been answered. Return to Maestro."
			case q.Get("error") != "":
				title, body = "Sign-in failed", fmt.Sprintf("The server answered %q. Return to Maestro and try again.", q.Get("error"))
			}
			fmt.Fprintf(w, `<!doctype html><meta charset="utf-8"><title>%[1]s</title>`+
				`<body style="font-family:system-ui,sans-serif;margin:4em auto;max-width:32em">`+
				`<h1 style="font-size:1.4em">%[1]s: %[2]s</h1><p>%[3]s</p></body>`,
				html.EscapeString(title), html.EscapeString(connector), html.EscapeString(body))
		}),
	}
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = srv.Serve(ln)
	}()
	defer func() {
		sctx, scancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer scancel()
		if err := srv.Shutdown(sctx); err != nil {
			_ = srv.Close()
		}
		<-served
	}()

	u, err := authURL(redirect)
	if err != nil {
		return nil, err
	}
	if err := z.Open(ctx, u); err != nil {
		return nil, fmt.Errorf("sign in to %s: open the browser: %w", connector, err)
	}
	select {
	case q := <-got:
		return q, nil
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, chat.E(chat.ErrCanceled, "sign-in to %s timed out: the browser did not come back", connector)
		}
		return nil, chat.E(chat.ErrCanceled, "sign-in to %s was cancelled", connector)
	}
}
