package chat

import (
	"errors"
	"fmt"
	"time"
)

// ProviderKind classifies a provider failure by what the caller should do
// about it. A ProviderError's Kind is also the Reason of the Failure stored
// with the reply it ended.
type ProviderKind string

const (
	// ProviderKindAuth: the token or key is missing, expired or revoked.
	// backend/auth's transport has already refreshed once; the user must
	// sign in again.
	ProviderKindAuth ProviderKind = "auth"
	// ProviderKindRateLimit: too many requests; RetryAfter says when to try
	// again.
	ProviderKindRateLimit ProviderKind = "rate_limit"
	// ProviderKindOverloaded: the service is overloaded (Anthropic 529, 503).
	ProviderKindOverloaded ProviderKind = "overloaded"
	// ProviderKindQuota: a quota or plan limit is used up until ResetAt;
	// retrying sooner does not help.
	ProviderKindQuota ProviderKind = "quota"
	// ProviderKindContextTooLarge: the request does not fit the model's
	// context.
	ProviderKindContextTooLarge ProviderKind = "context_too_large"
	// ProviderKindInvalidRequest: the request was rejected as malformed.
	ProviderKindInvalidRequest ProviderKind = "invalid_request"
	// ProviderKindForbidden: the account may not do this (permission,
	// policy, validation required).
	ProviderKindForbidden ProviderKind = "forbidden"
	// ProviderKindEntitlement: the account's plan does not cover this use,
	// and retrying will not change that (Anthropic's third-party-app gate,
	// ChatGPT's usage_not_included). The user needs another way in: an API
	// key, or a change to their plan.
	ProviderKindEntitlement ProviderKind = "entitlement"
	// ProviderKindModelUnavailable: the model exists but is not served to
	// this account or plan ("model is not supported when using Codex with a
	// ChatGPT account"). Another model will work; this one will not.
	ProviderKindModelUnavailable ProviderKind = "model_unavailable"
	// ProviderKindNotFound: unknown model or endpoint.
	ProviderKindNotFound ProviderKind = "not_found"
	// ProviderKindServer: a 5xx or transport failure worth retrying.
	ProviderKindServer ProviderKind = "server"
	// ProviderKindStream: the stream was malformed, cut short, or ended with
	// a failure the model reported (e.g. Gemini UNEXPECTED_TOOL_CALL).
	ProviderKindStream ProviderKind = "stream"
)

// ProviderError is every failure a provider reports: an HTTP error status,
// or an error event inside a 200 stream (Status then stays 200). Adapters
// classify; the agent decides, with errors.As, whether to retry, shorten
// the context or end the turn.
type ProviderError struct {
	Provider string
	Status   int
	Kind     ProviderKind
	// Code is the provider's own error code or type
	// (rate_limit_error, usage_limit_reached, RESOURCE_EXHAUSTED, …).
	Code    string
	Message string
	// RetryAfter is how long the provider asked us to wait; zero if unsaid.
	RetryAfter time.Duration
	// ResetAt is when a quota or usage limit resets; zero if unknown.
	ResetAt   time.Time
	RequestID string
	// Tokens and Window are set on a ProviderKindContextTooLarge refusal
	// whose message gives them: the prompt's size as the provider counted
	// it, and the model's context window. Zero when the provider did not
	// say (OpenAI does not).
	Tokens, Window int64
	// Err is an underlying cause (a transport or decode error), if any.
	Err error
}

func (e *ProviderError) Error() string {
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

// Unwrap exposes the cause and the error kind, so errors.Is(err,
// ErrAuthRequired) works for an expired token.
func (e *ProviderError) Unwrap() []error {
	errs := []error{e.errKind()}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}

func (e *ProviderError) errKind() error {
	switch e.Kind {
	case ProviderKindAuth:
		return ErrAuthRequired
	case ProviderKindInvalidRequest, ProviderKindContextTooLarge:
		return ErrInvalid
	case ProviderKindNotFound, ProviderKindModelUnavailable:
		return ErrNotFound
	default:
		return ErrUnavailable
	}
}

// Retryable reports whether the same request may succeed if sent again
// soon: a rate limit, an overload, a server error or a cut-off stream. A
// quota, an entitlement or an auth failure does not pass by waiting. The
// agent's retry policy decides whether the wait is worth taking.
func (e *ProviderError) Retryable() bool {
	switch e.Kind {
	case ProviderKindRateLimit, ProviderKindOverloaded, ProviderKindServer, ProviderKindStream:
		return true
	}
	return false
}

// AsProviderError returns the *ProviderError inside err, if any.
func AsProviderError(err error) (*ProviderError, bool) {
	var pe *ProviderError
	ok := errors.As(err, &pe)
	return pe, ok
}

// ProviderKindForStatus is the default classification of a bare HTTP
// status, for bodies that say nothing more specific.
func ProviderKindForStatus(status int) ProviderKind {
	switch {
	case status == 401:
		return ProviderKindAuth
	case status == 403:
		return ProviderKindForbidden
	case status == 404:
		return ProviderKindNotFound
	case status == 408 || status == 409 || status == 425:
		return ProviderKindServer
	case status == 413:
		return ProviderKindContextTooLarge
	case status == 429:
		return ProviderKindRateLimit
	case status == 529 || status == 503:
		return ProviderKindOverloaded
	case status >= 500:
		return ProviderKindServer
	case status >= 400:
		return ProviderKindInvalidRequest
	}
	return ProviderKindServer
}
