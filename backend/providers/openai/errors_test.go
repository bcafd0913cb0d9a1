package openai

import (
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"maestro/backend/chat"
)

func TestClassifyHTTP(t *testing.T) {
	t.Parallel()
	now := time.Unix(1777922696, 0)
	hdr := func(kv ...string) http.Header {
		h := http.Header{}
		for i := 0; i+1 < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	usageLimit := `{"error":{"type":"usage_limit_reached","message":"The usage limit has been reached","plan_type":"plus","resets_at":1777936568,"eligible_promo":null,"resets_in_seconds":13872}}`
	tests := []struct {
		name       string
		status     int
		header     http.Header
		body       string
		kind       chat.ProviderKind
		code       string
		msg        string
		retryAfter time.Duration
		resetAt    time.Time
	}{
		{"usage limit (pi#4172 body)", 429, hdr("x-codex-primary-reset-at", "1"), usageLimit,
			chat.ProviderKindQuota, "usage_limit_reached", "The usage limit has been reached (plan: plus)", 0, time.Unix(1777936568, 0)},
		{"usage limit, reset only in seconds", 429, nil, `{"error":{"type":"usage_limit_reached","message":"limit","resets_in_seconds":60}}`,
			chat.ProviderKindQuota, "usage_limit_reached", "limit", 0, now.Add(time.Minute)},
		{"usage limit, reset only in the headers", 429, hdr("x-codex-primary-used-percent", "100", "x-codex-primary-reset-at", "1777940000"),
			`{"error":{"type":"usage_limit_reached","message":"limit"}}`, chat.ProviderKindQuota, "usage_limit_reached", "limit", 0, time.Unix(1777940000, 0)},
		{"secondary window exhausted", 429, hdr("x-codex-primary-used-percent", "40", "x-codex-primary-reset-at", "1777940000",
			"x-codex-secondary-used-percent", "100", "x-codex-secondary-reset-at", "1778400000"),
			`{"error":{"type":"usage_limit_reached","message":"limit"}}`, chat.ProviderKindQuota, "usage_limit_reached", "limit", 0, time.Unix(1778400000, 0)},
		{"usage not included", 429, nil, `{"error":{"type":"usage_not_included","message":"Codex is not included in your plan","plan_type":"free"}}`,
			chat.ProviderKindEntitlement, "usage_not_included", "(plan: free)", 0, time.Time{}},
		{"other 429 with retry-after", 429, hdr("retry-after", "7"),
			`{"error":{"message":"Rate limit reached for requests","type":"requests","param":null,"code":"rate_limit_exceeded"}}`,
			chat.ProviderKindRateLimit, "rate_limit_exceeded", "Rate limit reached", 7 * time.Second, time.Time{}},
		{"429 with retry-after-ms", 429, hdr("retry-after-ms", "250", "retry-after", "1"), `{"error":{"message":"slow down"}}`,
			chat.ProviderKindRateLimit, "", "slow down", 250 * time.Millisecond, time.Time{}},
		{"429 with the delay in the message", 429, nil, `{"error":{"message":"Please try again in 35 seconds.","code":"rate_limit_exceeded"}}`,
			chat.ProviderKindRateLimit, "rate_limit_exceeded", "try again", 35 * time.Second, time.Time{}},
		{"api insufficient quota", 429, nil,
			`{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`,
			chat.ProviderKindQuota, "insufficient_quota", "exceeded your current quota", 0, time.Time{}},
		{"404 carrying a usage limit", 404, nil, usageLimit, chat.ProviderKindQuota, "usage_limit_reached", "usage limit", 0, time.Unix(1777936568, 0)},
		{"404 carrying a rate limit", 404, nil, `{"error":{"code":"rate_limit_exceeded","message":"rate limited"}}`,
			chat.ProviderKindRateLimit, "rate_limit_exceeded", "rate limited", 0, time.Time{}},
		{"plain 404", 404, nil, `{"detail":"Not Found"}`, chat.ProviderKindNotFound, "", "Not Found", 0, time.Time{}},
		{"503 overloaded", 503, nil, `{"error":{"message":"The server is overloaded.","type":"server_error","code":"server_is_overloaded"}}`,
			chat.ProviderKindOverloaded, "server_is_overloaded", "overloaded", 0, time.Time{}},
		{"503 slow down", 503, nil, `{"error":{"message":"Slow down","code":"slow_down"}}`, chat.ProviderKindOverloaded, "slow_down", "Slow down", 0, time.Time{}},
		{"500", 500, hdr("x-request-id", "req_123"),
			`{"error":{"message":"An error occurred while processing your request.","type":"server_error","param":null,"code":null}}`,
			chat.ProviderKindServer, "server_error", "An error occurred", 0, time.Time{}},
		{"401 expired token", 401, nil,
			`{"error":{"message":"Provided authentication token is expired. Please try signing in again.","type":"invalid_request_error","param":null,"code":"token_expired"},"status":401}`,
			chat.ProviderKindAuth, "token_expired", "expired", 0, time.Time{}},
		{"401 oauth form", 401, nil, `{"error":"invalid_token","error_description":"The token is invalid"}`,
			chat.ProviderKindAuth, "invalid_token", "The token is invalid", 0, time.Time{}},
		{"400 instructions required", 400, nil, `{"detail":"Instructions are required"}`,
			chat.ProviderKindInvalidRequest, "", "Instructions are required", 0, time.Time{}},
		// The cards' cases, with the bodies the issue threads quote
		// (docs/providers/openai.md §Errors).
		{"model retired for chatgpt (openai/codex#26053)", 400, nil,
			`{"detail":"The 'gpt-5.3-codex' model is not supported when using Codex with a ChatGPT account."}`,
			chat.ProviderKindModelUnavailable, "model_not_supported", "The 'gpt-5.3-codex' model is not supported when using Codex with a ChatGPT account.", 0, time.Time{}},
		{"model not supported, error object (Ivy-Tendril#1403)", 400, nil,
			`{"type":"error","status":400,"error":{"type":"invalid_request_error","message":"The 'gpt-5' model is not supported when using Codex with a ChatGPT account."}}`,
			chat.ProviderKindModelUnavailable, "model_not_supported", "The 'gpt-5' model", 0, time.Time{}},
		{"model needs a newer client (OmniRoute#12827)", 400, nil,
			`{"detail":"The 'gpt-6-astra' model requires a newer version of Codex. Please upgrade to the latest app or CLI and try again."}`,
			chat.ProviderKindModelUnavailable, "client_version_too_old", "requires a newer version of Codex", 0, time.Time{}},
		{"api model not found", 404, nil,
			"{\"error\":{\"message\":\"The model `gpt-9` does not exist or you do not have access to it.\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"model_not_found\"}}",
			chat.ProviderKindModelUnavailable, "model_not_found", "does not exist or you do not have access", 0, time.Time{}},
		{"instructions not valid (openai/codex#3202)", 400, nil, `{"detail":"Instructions are not valid"}`,
			chat.ProviderKindInvalidRequest, "instructions_not_valid", "Instructions are not valid", 0, time.Time{}},
		{"system messages not allowed", 400, nil, `{"detail":"System messages are not allowed"}`,
			chat.ProviderKindInvalidRequest, "system_messages_not_allowed", "System messages are not allowed", 0, time.Time{}},
		{"bare 403 from the originator check (pi#1828)", 403, nil, "",
			chat.ProviderKindForbidden, "originator_rejected", "", 0, time.Time{}},
		{"403 with a reason is not the originator check", 403, nil, `{"detail":"Forbidden"}`,
			chat.ProviderKindForbidden, "", "Forbidden", 0, time.Time{}},
		{"temperature to a reasoning model (software-agent-sdk#1837)", 400, nil,
			`{"error":{"message":"Unsupported parameter: 'temperature' is not supported with this model.","type":"invalid_request_error","param":"temperature","code":null}}`,
			chat.ProviderKindInvalidRequest, "invalid_request_error", "'temperature' is not supported", 0, time.Time{}},
		{"400 store", 400, nil, `{"detail":"Store must be set to false"}`, chat.ProviderKindInvalidRequest, "", "Store must be set to false", 0, time.Time{}},
		{"400 invalid value (codex#6945)", 400, nil,
			`{"error":{"message":"Invalid value: 'input_text'. Supported values are: 'output_text' and 'refusal'.","type":"invalid_request_error","param":"input[1].content[0]","code":"invalid_value"}}`,
			chat.ProviderKindInvalidRequest, "invalid_value", "Supported values", 0, time.Time{}},
		{"400 context too large", 400, nil,
			`{"error":{"message":"Your input exceeds the context window of this model.","type":"invalid_request_error","param":"input","code":"context_length_exceeded"}}`,
			chat.ProviderKindContextTooLarge, "context_length_exceeded", "context window", 0, time.Time{}},
		{"400 cyber policy", 400, nil, `{"error":{"message":"flagged","code":"cyber_policy"}}`,
			chat.ProviderKindInvalidRequest, "cyber_policy", "flagged", 0, time.Time{}},
		{"400 validation detail list", 400, nil, `{"detail":[{"loc":["body","input"],"msg":"field required"}]}`,
			chat.ProviderKindInvalidRequest, "", "field required", 0, time.Time{}},
		{"403 html", 403, nil, "<html>\n<body>Enable JavaScript and cookies to continue</body></html>",
			chat.ProviderKindForbidden, "", "Enable JavaScript", 0, time.Time{}},
		{"error only in x-error-json", 401, hdr("x-error-json", base64.StdEncoding.EncodeToString([]byte(`{"error":{"code":"token_invalidated","message":"Your authentication token has been invalidated."}}`))), "",
			chat.ProviderKindAuth, "token_invalidated", "invalidated", 0, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := tt.header
			if h == nil {
				h = http.Header{}
			}
			e := classifyHTTP(tt.status, h, []byte(tt.body), now)
			if e.Kind != tt.kind || e.Code != tt.code ||
				!strings.Contains(e.Message, tt.msg) || e.RetryAfter != tt.retryAfter || !e.ResetAt.Equal(tt.resetAt) || e.Status != tt.status {
				t.Errorf("classifyHTTP = %+v;\nwant kind %s, code %q, message containing %q, retry %s, reset %s, status %d",
					e, tt.kind, tt.code, tt.msg, tt.retryAfter, tt.resetAt, tt.status)
			}
		})
	}
}

func TestProviderErrorKinds(t *testing.T) {
	t.Parallel()
	e := classifyHTTP(401, http.Header{"X-Request-Id": {"req_9"}}, []byte(`{"error":{"code":"token_expired"}}`), time.Now())
	if !errors.Is(e, chat.ErrAuthRequired) || e.RequestID != "req_9" {
		t.Errorf("401 = %+v; want chat.ErrAuthRequired and request id req_9", e)
	}
	far := classifyHTTP(429, http.Header{}, []byte(`{"error":{"type":"usage_limit_reached","resets_in_seconds":13872}}`), time.Now())
	if far.Retryable() {
		t.Errorf("a usage limit hours away is retried; want the turn to end")
	}
}

func TestTryAgainIn(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]time.Duration{
		"Please try again in 1.5s.":        1500 * time.Millisecond,
		"try again in 20ms":                20 * time.Millisecond,
		"Please Try Again In 35 seconds":   35 * time.Second,
		"try again in 2m":                  2 * time.Minute,
		"try again later":                  0,
		"try again in s":                   0,
		"no hint":                          0,
		"try again in 1.2.3s":              0,
		"try again in 3 milliseconds ok":   3 * time.Millisecond,
		"try again in 4 hours (unhandled)": 0,
	} {
		if got := tryAgainIn(in); got != want {
			t.Errorf("tryAgainIn(%q) = %s; want %s", in, got, want)
		}
	}
}
