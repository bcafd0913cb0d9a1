package agent

import (
	"context"
	"errors"
	"time"

	"maestro/backend/chat"
)

// RetryPolicy decides whether a failed request is tried again. The agent
// owns the loop; adapters only classify (chat.ProviderError).
type RetryPolicy struct {
	// MaxAttempts counts retries after the first try.
	MaxAttempts int
	// Base is the first backoff; each retry doubles it.
	Base time.Duration
	// MaxWait is the longest wait worth taking inside a turn. A longer
	// RetryAfter (or a quota reset) ends the turn and shows the reset time.
	MaxWait time.Duration
}

// DefaultRetry retries rate limits, overloads, 5xx and cut-off streams up to
// 3 times, waiting at most 30 s at a time.
var DefaultRetry = RetryPolicy{MaxAttempts: 3, Base: time.Second, MaxWait: 30 * time.Second}

// Delay reports whether err is worth retrying after attempt earlier retries
// (0 for the first retry), and how long to wait first.
func (p RetryPolicy) Delay(err error, attempt int) (time.Duration, bool) {
	if attempt >= p.MaxAttempts || errors.Is(err, context.Canceled) {
		return 0, false
	}
	pe, ok := chat.AsProviderError(err)
	if !ok || !pe.Retryable() {
		return 0, false
	}
	if !pe.ResetAt.IsZero() && time.Until(pe.ResetAt) > p.MaxWait {
		return 0, false
	}
	wait := p.Base << attempt
	if pe.RetryAfter > 0 {
		if pe.RetryAfter > p.MaxWait {
			return 0, false
		}
		wait = max(wait, pe.RetryAfter)
	}
	return min(wait, p.MaxWait), true
}
