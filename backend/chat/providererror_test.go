package chat

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestProviderErrorKinds(t *testing.T) {
	t.Parallel()
	err := error(&ProviderError{Provider: "anthropic", Status: 401, Kind: ProviderKindAuth, Code: "authentication_error", Message: "OAuth token has expired."})
	if !errors.Is(err, ErrAuthRequired) || Kind(err) != KindAuthRequired {
		t.Errorf("expired token should be auth_required, got %q", Kind(err))
	}
	if !strings.Contains(err.Error(), "HTTP 401") || !strings.Contains(err.Error(), "expired") {
		t.Errorf("message %q", err)
	}
	reset := time.Date(2026, 5, 4, 0, 0, 0, 0, time.UTC)
	q := &ProviderError{Provider: "openai", Status: 429, Kind: ProviderKindQuota, Code: "usage_limit_reached", ResetAt: reset}
	if !strings.Contains(q.Error(), "resets at 2026-05-04T00:00:00Z") || Kind(q) != KindUnavailable {
		t.Errorf("quota error %q kind %q", q, Kind(q))
	}
	if pe, ok := AsProviderError(errors.Join(errors.New("x"), q)); !ok || pe != q {
		t.Error("AsProviderError did not find the error")
	}
	for status, want := range map[int]ProviderKind{401: ProviderKindAuth, 403: ProviderKindForbidden, 404: ProviderKindNotFound,
		429: ProviderKindRateLimit, 529: ProviderKindOverloaded, 500: ProviderKindServer, 400: ProviderKindInvalidRequest} {
		if got := ProviderKindForStatus(status); got != want {
			t.Errorf("ProviderKindForStatus(%d) = %s, want %s", status, got, want)
		}
	}
}

func TestProviderErrorRetryable(t *testing.T) {
	t.Parallel()
	retry := map[ProviderKind]bool{ProviderKindRateLimit: true, ProviderKindOverloaded: true, ProviderKindServer: true, ProviderKindStream: true}
	for _, k := range []ProviderKind{ProviderKindAuth, ProviderKindRateLimit, ProviderKindOverloaded, ProviderKindQuota,
		ProviderKindContextTooLarge, ProviderKindInvalidRequest, ProviderKindForbidden, ProviderKindEntitlement,
		ProviderKindModelUnavailable, ProviderKindNotFound, ProviderKindServer, ProviderKindStream} {
		if got := (&ProviderError{Kind: k}).Retryable(); got != retry[k] {
			t.Errorf("%s: Retryable = %v, want %v", k, got, retry[k])
		}
	}
}
