package chat

import (
	"context"
	"errors"
	"fmt"
)

// Error kinds. Packages wrap these with %w and context; callers classify with
// errors.Is, and the app turns them into {kind, message} for the UI.
var (
	// ErrNotFound: the thing asked for does not exist.
	ErrNotFound = errors.New("not found")
	// ErrInvalid: the caller's input is malformed or breaks a rule.
	ErrInvalid = errors.New("invalid")
	// ErrUnavailable: a dependency (data file, keychain, server) cannot be used
	// right now; the message says what to install, unlock or fix.
	ErrUnavailable = errors.New("unavailable")
	// ErrAuthRequired: a sign-in is missing or has expired.
	ErrAuthRequired = errors.New("sign-in required")
	// ErrCanceled: the user or the app stopped the work.
	ErrCanceled = errors.New("canceled")
	// ErrConflict: the state changed underneath, or another instance holds it.
	ErrConflict = errors.New("conflict")
)

// Kind names for the UI. The zero kind is "internal".
const (
	KindNotFound     = "not_found"
	KindInvalid      = "invalid"
	KindUnavailable  = "unavailable"
	KindAuthRequired = "auth_required"
	KindCanceled     = "canceled"
	KindConflict     = "conflict"
	KindInternal     = "internal"
)

var kinds = []struct {
	err  error
	kind string
}{
	{ErrNotFound, KindNotFound},
	{ErrInvalid, KindInvalid},
	{ErrUnavailable, KindUnavailable},
	{ErrAuthRequired, KindAuthRequired},
	{ErrCanceled, KindCanceled},
	{context.Canceled, KindCanceled},
	{ErrConflict, KindConflict},
}

// Kind classifies err into one of the Kind* names. The first matching kind in
// declaration order wins, so an error that wraps several reports the most
// specific one the caller can act on.
func Kind(err error) string {
	if err == nil {
		return ""
	}
	for _, k := range kinds {
		if errors.Is(err, k.err) {
			return k.kind
		}
	}
	return KindInternal
}

// E returns an error of the given kind whose message is exactly the
// formatted text: unlike fmt.Errorf("…: %w", kind), the kind's own word is
// not appended, so messages meant for the user read cleanly. %w in format
// wraps causes as usual.
func E(kind error, format string, args ...any) error {
	return &kindError{kind: kind, err: fmt.Errorf(format, args...)}
}

type kindError struct {
	kind error
	err  error
}

func (e *kindError) Error() string   { return e.err.Error() }
func (e *kindError) Unwrap() []error { return []error{e.kind, e.err} }
