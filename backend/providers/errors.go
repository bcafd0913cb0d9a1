package providers

import (
	"errors"
	"fmt"
	"time"

	"maestro/backend/chat"
)

// Kind classifies a provider failure by what the caller should do about it.
type Kind string

const (
	// KindAuth: the token or key is missing, expired or revoked. Refresh
	// once, then ask the user to sign in again.
	KindAuth Kind = "auth"
	// KindRateLimit: too many requests; RetryAfter says when to try again.
	KindRateLimit Kind = "rate_limit"
	// KindOverloaded: the service is overloaded (Anthropic 529, 503).
	KindOverloaded Kind = "overloaded"
	// KindQuota: a quota or plan limit is used up until ResetAt; retrying
	// sooner does not help.
	KindQuota Kind = "quota"
	// KindContextTooLarge: the request does not fit the model's context.
	KindContextTooLarge Kind = "context_too_large"
	// KindInvalidRequest: the request was rejected as malformed.
	KindInvalidRequest Kind = "invalid_request"
	// KindForbidden: the account may not do this (permission, policy,
	// validation required).
	KindForbidden Kind = "forbidden"
	// KindEntitlement: the account's plan does not cover this use, and
	// retrying will not change that (Anthropic's third-party-app gate,
	// ChatGPT's usage_not_included). The user needs another way in: an API
	// key, or a change to their plan.
	KindEntitlement Kind = "entitlement"
	// KindModelUnavailable: the model exists but is not served to this
	// account or plan ("model is not supported when using Codex with a
	// ChatGPT account"). Another model will work; this one will not.
	KindModelUnavailable Kind = "model_unavailable"
	// KindNotFound: unknown model or endpoint.
	KindNotFound Kind = "not_found"
	// KindServer: a 5xx or transport failure worth retrying.
	KindServer Kind = "server"
	// KindStream: the stream was malformed, cut short, or ended with a
	// failure the model reported (e.g. Gemini UNEXPECTED_TOOL_CALL).
	KindStream Kind = "stream"
)

// HTTPError is every failure a provider reports: an HTTP error status, or an
// error event inside a 200 stream (Status then stays 200).
type HTTPError struct {
	Provider string
	Status   int
	Kind     Kind
	// Code is the provider's own error code or type
	// (rate_limit_error, usage_limit_reached, RESOURCE_EXHAUSTED, …).
	Code    string
	Message string
	// RetryAfter is how long the provider asked us to wait; zero if unsaid.
	RetryAfter time.Duration
	// ResetAt is when a quota or usage limit resets; zero if unknown.
	ResetAt   time.Time
	RequestID string
	// Err is an underlying cause (a transport or decode error), if any.
	Err error
}

func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("%s: %s", e.Provider, e.Kind)
	if e.Status != 0 && e.Status != 200 {
		msg += fmt.Sprintf(" (HTTP %d)", e.Status)
	}
	if e.Code != "" {
		msg += " " + e.Code
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	if !e.ResetAt.IsZero() {
		msg += "; resets at " + e.ResetAt.UTC().Format(time.RFC3339)
	} else if e.RetryAfter > 0 {
		msg += fmt.Sprintf("; retry after %s", e.RetryAfter.Round(time.Millisecond))
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap exposes the cause and the chat kind, so errors.Is(err,
// chat.ErrAuthRequired) works for an expired token.
func (e *HTTPError) Unwrap() []error {
	errs := []error{e.chatKind()}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}

func (e *HTTPError) chatKind() error {
	switch e.Kind {
	case KindAuth:
		return chat.ErrAuthRequired
	case KindInvalidRequest, KindContextTooLarge:
		return chat.ErrInvalid
	case KindNotFound, KindModelUnavailable:
		return chat.ErrNotFound
	default:
		return chat.ErrUnavailable
	}
}

// AsHTTPError returns the *HTTPError inside err, if any.
func AsHTTPError(err error) (*HTTPError, bool) {
	var he *HTTPError
	ok := errors.As(err, &he)
	return he, ok
}

// KindForStatus is the default classification of a bare HTTP status, for
// bodies that say nothing more specific.
func KindForStatus(status int) Kind {
	switch {
	case status == 401:
		return KindAuth
	case status == 403:
		return KindForbidden
	case status == 404:
		return KindNotFound
	case status == 408 || status == 409 || status == 425:
		return KindServer
	case status == 413:
		return KindContextTooLarge
	case status == 429:
		return KindRateLimit
	case status == 529 || status == 503:
		return KindOverloaded
	case status >= 500:
		return KindServer
	case status >= 400:
		return KindInvalidRequest
	}
	return KindServer
}
