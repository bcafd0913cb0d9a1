package auth

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"time"

	"github.com/zalando/go-keyring"

	"maestro/backend/chat"
)

// ErrNotFound reports that the keychain has no entry for the account.
var ErrNotFound = fmt.Errorf("keychain entry %w", chat.ErrNotFound)

const (
	defaultTimeout = 5 * time.Second

	// probeAccount is looked up by Probe. It is never written, so a healthy
	// keychain answers "not found".
	probeAccount = "maestro-keychain-probe"
)

// Hints shown to the user when the keychain is unavailable.
const (
	hintNoBus = "no D-Bus session bus is reachable; install and start a user session bus " +
		"(e.g. apt install dbus-user-session, then log in again) and check DBUS_SESSION_BUS_ADDRESS"
	hintNoService = "no Secret Service is running; install one such as GNOME Keyring " +
		"(apt install gnome-keyring) or enable KeePassXC's Secret Service integration"
	hintLocked = "the login keyring is locked; unlock it in Passwords and Keys (Seahorse) and try again"
	// hintTimeout takes the configured timeout.
	hintTimeout = "the keychain did not answer within %s; it may be locked and waiting for a password prompt"
)

// backend is the part of go-keyring the Keychain uses; tests replace it.
type backend interface {
	Get(service, user string) (string, error)
	Set(service, user, password string) error
	Delete(service, user string) error
}

// goKeyring is the OS keychain as go-keyring exposes it.
type goKeyring struct{}

func (goKeyring) Get(service, user string) (string, error) {
	return keyring.Get(service, user)
}

func (goKeyring) Set(service, user, password string) error {
	return keyring.Set(service, user, password)
}

func (goKeyring) Delete(service, user string) error {
	return keyring.Delete(service, user)
}

// Keychain stores secrets for one service name in the OS keychain. Build it
// with New; see the package doc for its concurrency contract.
type Keychain struct {
	service string
	timeout time.Duration
	backend backend
}

// Option configures a Keychain.
type Option func(*Keychain)

// WithTimeout bounds each keychain call. A non-positive d keeps the default
// of 5s.
func WithTimeout(d time.Duration) Option {
	return func(k *Keychain) {
		if d > 0 {
			k.timeout = d
		}
	}
}

// withBackend replaces go-keyring, for tests.
func withBackend(b backend) Option {
	return func(k *Keychain) { k.backend = b }
}

// New returns a Keychain whose entries are filed under service, e.g. "maestro".
func New(service string, opts ...Option) *Keychain {
	k := &Keychain{service: service, timeout: defaultTimeout, backend: goKeyring{}}
	for _, opt := range opts {
		opt(k)
	}
	return k
}

// Get returns the secret stored for account, or an error wrapping ErrNotFound
// if there is none.
func (k *Keychain) Get(ctx context.Context, account string) (string, error) {
	if err := k.validate("get", account); err != nil {
		return "", err
	}
	return call(ctx, k, "get", account, func() (string, error) {
		return k.backend.Get(k.service, account)
	})
}

// Set stores secret for account, replacing any previous value.
func (k *Keychain) Set(ctx context.Context, account, secret string) error {
	if err := k.validate("set", account); err != nil {
		return err
	}
	_, err := call(ctx, k, "set", account, func() (struct{}, error) {
		return struct{}{}, k.backend.Set(k.service, account, secret)
	})
	return err
}

// Delete removes the entry for account. A missing entry yields an error
// wrapping ErrNotFound, which callers that only want it gone may ignore.
func (k *Keychain) Delete(ctx context.Context, account string) error {
	if err := k.validate("delete", account); err != nil {
		return err
	}
	_, err := call(ctx, k, "delete", account, func() (struct{}, error) {
		return struct{}{}, k.backend.Delete(k.service, account)
	})
	return err
}

// Probe reports whether the keychain can be used: nil if a lookup gets an
// answer (found or not), otherwise the error, usually an *UnavailableError
// whose message tells the user what to fix.
func (k *Keychain) Probe(ctx context.Context) error {
	if err := k.validate("probe", probeAccount); err != nil {
		return err
	}
	_, err := call(ctx, k, "probe", probeAccount, func() (string, error) {
		return k.backend.Get(k.service, probeAccount)
	})
	if err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	return nil
}

func (k *Keychain) validate(op, account string) error {
	if k.service == "" {
		return fmt.Errorf("keychain: %s %q: empty service name: %w", op, account, chat.ErrInvalid)
	}
	if account == "" {
		return fmt.Errorf("keychain: %s: empty account: %w", op, chat.ErrInvalid)
	}
	return nil
}

// call runs f on its own goroutine and returns at the first of: f's answer,
// the Keychain's timeout, or the end of ctx. f cannot be interrupted (see the
// package doc), so on timeout or cancellation its goroutine is left to finish
// on its own and its answer is dropped.
func call[T any](ctx context.Context, k *Keychain, op, account string, f func() (T, error)) (T, error) {
	var zero T
	if ctx.Err() != nil {
		// Do not start a keychain write the caller no longer wants.
		return zero, canceled(ctx, op, account)
	}

	type result struct {
		v   T
		err error
	}
	// Buffered so that an answer arriving after we gave up does not block
	// the goroutine forever.
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{err: fmt.Errorf("backend panicked: %v", p)}
			}
		}()
		v, err := f()
		done <- result{v, err}
	}()

	timer := time.NewTimer(k.timeout)
	defer timer.Stop()
	select {
	case r := <-done:
		if r.err != nil {
			return zero, classify(op, account, r.err)
		}
		return r.v, nil
	case <-timer.C:
		return zero, &UnavailableError{
			Op:    op,
			Cause: context.DeadlineExceeded,
			Hint:  fmt.Sprintf(hintTimeout, k.timeout),
		}
	case <-ctx.Done():
		return zero, canceled(ctx, op, account)
	}
}

func canceled(ctx context.Context, op, account string) error {
	return fmt.Errorf("keychain: %s %q: %w: %w", op, account, chat.ErrCanceled, ctx.Err())
}

// classify maps a go-keyring error to ErrNotFound, an *UnavailableError with
// a hint, or a plain wrapped error.
func classify(op, account string, err error) error {
	if errors.Is(err, keyring.ErrNotFound) {
		return fmt.Errorf("%s %q: %w", op, account, ErrNotFound)
	}
	if hint := unavailableHint(err); hint != "" {
		return &UnavailableError{Op: op, Cause: err, Hint: hint}
	}
	return fmt.Errorf("keychain: %s %q: %w", op, account, err)
}

// unavailableHint returns what the user should do about err, or "" if err
// does not say the keychain is unusable. Only keyring.ErrNotFound is a
// sentinel in go-keyring; the Secret Service failures are plain strings built
// by go-keyring or sent by the D-Bus daemon, so they are matched by text.
func unavailableHint(err error) string {
	var execErr *exec.Error
	var opErr *net.OpError
	switch msg := err.Error(); {
	case errors.As(err, &execErr), // dbus-launch could not be run
		errors.As(err, &opErr) && opErr.Op == "dial", // dead or refused bus socket
		strings.Contains(msg, `"dbus-launch"`),
		strings.Contains(msg, "DBUS_SESSION_BUS_ADDRESS"),
		strings.Contains(msg, "address of session bus"), // godbus: couldn't determine address
		strings.Contains(msg, "invalid bus address"),
		strings.Contains(msg, "connect: no such file or directory"),
		strings.Contains(msg, "connect: connection refused"):
		return hintNoBus
	case strings.Contains(msg, "was not provided by any .service files"):
		return hintNoService
	case strings.Contains(msg, "failed to unlock correct collection"):
		return hintLocked
	}
	return ""
}

// UnavailableError reports that the keychain cannot be used right now. It is
// a chat.ErrUnavailable, and Hint tells the user what to install or unlock.
type UnavailableError struct {
	Op    string // "get", "set", "delete" or "probe"
	Cause error  // the go-keyring error, or context.DeadlineExceeded on timeout
	Hint  string
}

func (e *UnavailableError) Error() string {
	if e.Cause == nil {
		return "keychain unavailable: " + e.Hint
	}
	return fmt.Sprintf("keychain unavailable: %s (%v)", e.Hint, e.Cause)
}

// Is makes errors.Is(err, chat.ErrUnavailable) true.
func (e *UnavailableError) Is(target error) bool { return target == chat.ErrUnavailable }

func (e *UnavailableError) Unwrap() error { return e.Cause }
