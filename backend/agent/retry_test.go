package agent

import (
	"errors"
	"testing"
	"time"

	"maestro/backend/chat"
)

func TestRetryPolicy(t *testing.T) {
	t.Parallel()
	p := RetryPolicy{MaxAttempts: 3, Base: time.Second, MaxWait: 30 * time.Second}
	tests := []struct {
		name    string
		err     error
		attempt int
		want    time.Duration
		ok      bool
	}{
		{"rate limit honours short retry-after", &chat.ProviderError{Kind: chat.ProviderKindRateLimit, RetryAfter: 5 * time.Second}, 0, 5 * time.Second, true},
		{"overloaded backs off", &chat.ProviderError{Kind: chat.ProviderKindOverloaded}, 2, 4 * time.Second, true},
		{"long retry-after ends the turn", &chat.ProviderError{Kind: chat.ProviderKindRateLimit, RetryAfter: time.Hour}, 0, 0, false},
		{"quota reset far away", &chat.ProviderError{Kind: chat.ProviderKindRateLimit, ResetAt: time.Now().Add(time.Hour)}, 0, 0, false},
		{"quota is not retried", &chat.ProviderError{Kind: chat.ProviderKindQuota}, 0, 0, false},
		{"auth is not retried here", &chat.ProviderError{Kind: chat.ProviderKindAuth}, 0, 0, false},
		{"attempts run out", &chat.ProviderError{Kind: chat.ProviderKindServer}, 3, 0, false},
		{"plain errors are not retried", errors.New("x"), 0, 0, false},
	}
	for _, tt := range tests {
		got, ok := p.Delay(tt.err, tt.attempt)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: Delay = %v, %v; want %v, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}
