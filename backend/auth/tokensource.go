package auth

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"maestro/backend/chat"
)

// Refresh timing.
const (
	// RefreshEarly is how long before expiry a token is refreshed
	// (google-auth-library's eagerRefreshThresholdMillis,
	// docs/providers/gemini.md §Sign-in: token refresh).
	RefreshEarly = 5 * time.Minute
	// refreshTimeout bounds one refresh, request and keychain save.
	refreshTimeout = 60 * time.Second
)

// RefreshFunc redeems a refresh token for a new token. A result without a
// RefreshToken keeps the old one; an ID token rides in Extra("id_token").
// Errors that wrap chat.ErrAuthRequired are permanent: the source stops
// trying until it is replaced by a new sign-in.
type RefreshFunc func(ctx context.Context, refreshToken string) (*oauth2.Token, error)

// SaveFunc persists a refreshed token (in one keychain Set).
type SaveFunc func(ctx context.Context, t *oauth2.Token) error

// SavingTokenSource is an oauth2.TokenSource that refreshes its token
// RefreshEarly before expiry (or, for a token it received that lives
// shorter than twice that, halfway through its life), or on demand after a
// 401 (RefreshAfter), and saves every refreshed token through its SaveFunc.
//
// At most one refresh is in flight: callers that need a token while one
// runs wait for it and share its result. The refresh runs on a goroutine
// of its own, detached from the callers' contexts, because a refresh the
// server has answered must be saved: a rotated refresh token that is lost
// cannot be used again. A caller whose context ends stops waiting; the
// refresh finishes, bounded by a timeout. Wait blocks until no refresh is
// running.
type SavingTokenSource struct {
	refresh RefreshFunc
	save    SaveFunc
	log     *slog.Logger
	now     func() time.Time
	early   time.Duration
	timeout time.Duration
	wg      sync.WaitGroup

	mu     sync.Mutex // guards the fields below
	tok    *oauth2.Token
	got    time.Time // when tok was received; zero for the initial token
	flight *flight
	dead   error // a permanent refresh failure; every later call returns it
}

// flight is one refresh; done is closed when tok or err is set.
type flight struct {
	done chan struct{}
	tok  *oauth2.Token
	err  error
}

// SourceOption configures a SavingTokenSource.
type SourceOption func(*SavingTokenSource)

// WithClock sets the clock used to judge expiry.
func WithClock(now func() time.Time) SourceOption {
	return func(s *SavingTokenSource) { s.now = now }
}

// WithReceived says the initial token was received at t (a sign-in that
// just happened), so that one living shorter than twice RefreshEarly is
// refreshed halfway through its life, as refreshed ones are, rather than
// at once.
func WithReceived(t time.Time) SourceOption {
	return func(s *SavingTokenSource) { s.got = t }
}

// WithLogger receives refresh and save failures (never a token).
func WithLogger(l *slog.Logger) SourceOption {
	return func(s *SavingTokenSource) { s.log = l }
}

// NewSavingTokenSource returns a source starting from tok.
func NewSavingTokenSource(tok *oauth2.Token, refresh RefreshFunc, save SaveFunc, opts ...SourceOption) *SavingTokenSource {
	s := &SavingTokenSource{refresh: refresh, save: save, tok: tok, now: time.Now,
		early: RefreshEarly, timeout: refreshTimeout, log: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Token implements oauth2.TokenSource. Prefer TokenContext, which stops
// waiting when ctx ends.
func (s *SavingTokenSource) Token() (*oauth2.Token, error) {
	return s.TokenContext(context.Background())
}

// TokenContext returns a token valid for at least RefreshEarly, refreshing
// first if needed. A token without a refresh token (an MCP server may
// grant one) is returned until it expires, then is a chat.ErrAuthRequired.
func (s *SavingTokenSource) TokenContext(ctx context.Context) (*oauth2.Token, error) {
	s.mu.Lock()
	if s.dead != nil {
		s.mu.Unlock()
		return nil, s.dead
	}
	if s.freshLocked() {
		t := s.tok
		s.mu.Unlock()
		return t, nil
	}
	old := s.tok
	f, err := s.startLocked()
	s.mu.Unlock()
	if err != nil {
		if old != nil && old.AccessToken != "" && s.now().Before(old.Expiry) {
			// It cannot be renewed (no refresh token), but it still
			// works: use it until it expires.
			return old, nil
		}
		return nil, err
	}
	t, err := s.wait(ctx, f)
	if err != nil && !errors.Is(err, chat.ErrAuthRequired) && old != nil && s.now().Before(old.Expiry) {
		// A refresh ahead of time failed for a passing reason, but the
		// current token still works: use it, and try again next time.
		return old, nil
	}
	return t, err
}

// RefreshAfter is for a request that was refused with 401 while carrying
// rejected: it returns a newer token, refreshing unless someone already
// has.
func (s *SavingTokenSource) RefreshAfter(ctx context.Context, rejected *oauth2.Token) (*oauth2.Token, error) {
	s.mu.Lock()
	if s.dead != nil {
		s.mu.Unlock()
		return nil, s.dead
	}
	if s.flight == nil && s.tok != nil && rejected != nil && s.tok.AccessToken != rejected.AccessToken && s.freshLocked() {
		t := s.tok
		s.mu.Unlock()
		return t, nil
	}
	f, err := s.startLocked()
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return s.wait(ctx, f)
}

// Wait blocks until no refresh is running.
func (s *SavingTokenSource) Wait() { s.wg.Wait() }

// freshLocked reports whether tok is good for the early window. The window
// is RefreshEarly, or half the lifetime of a token this source received
// if that is shorter, so that short-lived tokens are not refreshed on
// every call.
func (s *SavingTokenSource) freshLocked() bool {
	t := s.tok
	if t == nil || t.AccessToken == "" {
		return false
	}
	if t.Expiry.IsZero() {
		return true
	}
	early := s.early
	if !s.got.IsZero() {
		early = min(early, t.Expiry.Sub(s.got)/2)
	}
	return s.now().Add(early).Before(t.Expiry)
}

// startLocked joins the refresh in flight or starts one.
func (s *SavingTokenSource) startLocked() (*flight, error) {
	if s.flight != nil {
		return s.flight, nil
	}
	if s.tok == nil || s.tok.RefreshToken == "" {
		return nil, chat.E(chat.ErrAuthRequired, "the sign-in has expired and cannot be renewed; sign in again")
	}
	f := &flight{done: make(chan struct{})}
	s.flight = f
	old := s.tok
	s.wg.Add(1)
	go s.run(f, old)
	return f, nil
}

func (s *SavingTokenSource) run(f *flight, old *oauth2.Token) {
	defer s.wg.Done()
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	t, err := s.refresh(ctx, old.RefreshToken)
	if err == nil {
		nt := *t
		if nt.RefreshToken == "" {
			nt.RefreshToken = old.RefreshToken
		}
		if nt.TokenType == "" {
			nt.TokenType = old.TokenType
		}
		t = &nt
		// The new tokens are in memory either way; a failed save costs a
		// sign-in after the next restart if the refresh token rotated.
		if serr := s.save(ctx, t); serr != nil {
			s.log.Warn("auth: save refreshed sign-in", "err", serr)
		}
	} else {
		s.log.Warn("auth: refresh sign-in", "err", err)
	}
	s.mu.Lock()
	switch {
	case err == nil:
		s.tok, s.got = t, s.now()
	case errors.Is(err, chat.ErrAuthRequired):
		s.dead = err
	}
	s.flight = nil
	f.tok, f.err = t, err
	s.mu.Unlock()
	close(f.done)
}

func (s *SavingTokenSource) wait(ctx context.Context, f *flight) (*oauth2.Token, error) {
	select {
	case <-f.done:
		return f.tok, f.err
	case <-ctx.Done():
		return nil, chat.E(chat.ErrCanceled, "wait for the sign-in to refresh: %w", context.Cause(ctx))
	}
}
