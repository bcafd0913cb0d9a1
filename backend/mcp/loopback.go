package mcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"maestro/backend/auth"
	"maestro/backend/chat"
)

// DefaultSignInTimeout bounds a LoopbackAuthorizer sign-in.
const DefaultSignInTimeout = 5 * time.Minute

// loopbackPath is the redirect URI's path.
const loopbackPath = "/callback"

// LoopbackAuthorizer is the Authorizer of the desktop app: for each sign-in
// it listens on 127.0.0.1 (a free port) with backend/auth's loopback
// listener, asks for the authorization URL with
// http://127.0.0.1:<port>/callback as the redirect URI, opens that URL in
// the user's browser, and returns the query of the first request that
// reaches the callback path with the URL's state (one with another state
// gets 400 and the wait goes on; the supervisor checks the state again).
// The listener is closed when the callback came, when ctx ends or after
// Timeout.
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
	ln, err := auth.ListenLoopback("127.0.0.1", []int{0})
	if err != nil {
		return nil, fmt.Errorf("sign in to %s: listen on 127.0.0.1: %w", connector, err)
	}
	redirect := "http://" + ln.Addr().String() + loopbackPath
	u, err := authURL(redirect)
	if err != nil {
		_ = ln.Close()
		return nil, err
	}
	got := make(chan url.Values, 1)
	cb := auth.ServeCallback(ln, auth.CallbackConfig{Path: loopbackPath, State: stateOf(u), Display: connector, Log: z.Logger,
		Deliver: func(_ context.Context, q url.Values) (bool, error) {
			select {
			case got <- q:
				return true, auth.RedirectError(connector, q)
			default:
				return false, nil // already answered
			}
		}})
	defer cb.Close()
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

// stateOf is the state an authorization URL asks to get back.
func stateOf(authURL string) string {
	u, err := url.Parse(authURL)
	if err != nil {
		return ""
	}
	return u.Query().Get("state")
}
