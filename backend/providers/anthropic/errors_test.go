package anthropic

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"maestro/backend/chat"
)

func TestClassify(t *testing.T) {
	t.Parallel()
	reset := time.Date(2026, 8, 22, 15, 0, 0, 0, time.UTC)
	tests := []struct {
		name      string
		status    int
		header    http.Header
		body      string
		wantKind  chat.ProviderKind
		wantCode  string
		wantMsg   string
		wantRetry time.Duration
		wantReset time.Time
		wantReqID string
		wantChat  error
	}{
		{name: "expired oauth token", status: 401,
			body:     `{"type":"error","error":{"type":"authentication_error","message":"OAuth token has expired. Please obtain a new token or refresh your existing token."},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}`,
			wantKind: chat.ProviderKindAuth, wantCode: "authentication_error", wantMsg: "OAuth token has expired. Please obtain a new token or refresh your existing token.",
			wantReqID: "req_011CSHoEeqs5C35K2UUqR7Fy", wantChat: chat.ErrAuthRequired},
		{name: "claude code only", status: 400,
			body:     `{"type":"error","error":{"type":"invalid_request_error","message":"This credential is only authorized for use with Claude Code and cannot be used for other API requests."},"request_id":"req_1"}`,
			wantKind: chat.ProviderKindForbidden, wantCode: CodeClaudeCodeOnly, wantMsg: "This credential is only authorized for use with Claude Code and cannot be used for other API requests.", wantReqID: "req_1"},
		// The 2026 third-party gate, with the bodies quoted in
		// NousResearch/hermes-agent#46675, leohenon/pi-anthropic-oauth#24,
		// ianjwhite99/opencode-with-claude#91 and lehdqlsl/opencode-claude-auth#11.
		{name: "third-party gate", status: 400,
			body:     `{"type":"error","error":{"type":"invalid_request_error","message":"Third-party apps now draw from your extra usage, not your plan limits. Add more at claude.ai/settings/usage and keep going."},"request_id":"req_011CdbVUwuZnmcCgRDJivc63"}`,
			wantKind: chat.ProviderKindEntitlement, wantCode: CodeThirdPartyGate, wantReqID: "req_011CdbVUwuZnmcCgRDJivc63",
			wantMsg: "Third-party apps now draw from your extra usage, not your plan limits. Add more at claude.ai/settings/usage and keep going.", wantChat: chat.ErrUnavailable},
		{name: "third-party gate with a credit", status: 400,
			body:     `{"type":"error","error":{"type":"invalid_request_error","message":"Third-party apps now draw from your extra usage, not your plan limits. We've added a $200 credit to get you started. Claim it at claude.ai/settings/usage and keep going."},"request_id":"req_011CZqh4woGUoytNUERuMS3X"}`,
			wantKind: chat.ProviderKindEntitlement, wantCode: CodeThirdPartyGate, wantReqID: "req_011CZqh4woGUoytNUERuMS3X",
			wantMsg: "Third-party apps now draw from your extra usage, not your plan limits. We've added a $200 credit to get you started. Claim it at claude.ai/settings/usage and keep going."},
		{name: "third-party gate on a team plan", status: 400,
			body:     `{"type":"error","error":{"type":"invalid_request_error","message":"Third-party apps now draw from extra usage, not plan limits. We've added a credit to your organization to get you started. Ask your workspace admin to claim it and keep going."}}`,
			wantKind: chat.ProviderKindEntitlement, wantCode: CodeThirdPartyGate,
			wantMsg: "Third-party apps now draw from extra usage, not plan limits. We've added a credit to your organization to get you started. Ask your workspace admin to claim it and keep going."},
		// anthropics/claude-code#45046, #45276; NousResearch/hermes-agent#32243.
		{name: "out of extra usage", status: 400,
			body:     `{"type":"error","error":{"type":"invalid_request_error","message":"You're out of extra usage. Add more at claude.ai/settings/usage and keep going."},"request_id":"req_011CZqpKrzn59RBAo9o9ck3C"}`,
			wantKind: chat.ProviderKindEntitlement, wantCode: CodeExtraUsageExhausted, wantReqID: "req_011CZqpKrzn59RBAo9o9ck3C",
			wantMsg: "You're out of extra usage. Add more at claude.ai/settings/usage and keep going."},
		{name: "out of extra usage on a team plan", status: 400,
			body:     `{"type":"error","error":{"type":"invalid_request_error","message":"You're out of extra usage. Ask your workspace admin to add more so you can keep going."},"request_id":"req_011CZrWR57q8xrTLGGGUAk3q"}`,
			wantKind: chat.ProviderKindEntitlement, wantCode: CodeExtraUsageExhausted, wantReqID: "req_011CZrWR57q8xrTLGGGUAk3q",
			wantMsg: "You're out of extra usage. Ask your workspace admin to add more so you can keep going."},
		{name: "prompt too long", status: 400,
			body:     `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 215000 tokens > 200000 maximum"}}`,
			wantKind: chat.ProviderKindContextTooLarge, wantCode: "invalid_request_error", wantMsg: "prompt is too long: 215000 tokens > 200000 maximum", wantChat: chat.ErrInvalid},
		{name: "pairing", status: 400,
			body:     "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01EgkyMSUE7kWq9aPLHycqgz. Each `tool_use` block must have a corresponding `tool_result` block in the next message.\"},\"request_id\":\"req_011CSVr7aBmVBX3fycHTLhQf\"}",
			wantKind: chat.ProviderKindInvalidRequest, wantCode: "invalid_request_error",
			wantMsg:   "messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01EgkyMSUE7kWq9aPLHycqgz. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
			wantReqID: "req_011CSVr7aBmVBX3fycHTLhQf", wantChat: chat.ErrInvalid},
		{name: "permission", status: 403, body: `{"type":"error","error":{"type":"permission_error","message":"Your API key does not have permission to use the specified resource."}}`,
			wantKind: chat.ProviderKindForbidden, wantCode: "permission_error", wantMsg: "Your API key does not have permission to use the specified resource."},
		{name: "model not found", status: 404, body: `{"type":"error","error":{"type":"not_found_error","message":"model: claude-nope"}}`,
			wantKind: chat.ProviderKindModelUnavailable, wantCode: "not_found_error", wantMsg: "model: claude-nope", wantChat: chat.ErrNotFound},
		{name: "other not found", status: 404, body: `{"type":"error","error":{"type":"not_found_error","message":"File not found: file_011"}}`,
			wantKind: chat.ProviderKindNotFound, wantCode: "not_found_error", wantMsg: "File not found: file_011", wantChat: chat.ErrNotFound},
		// anthropics/claude-code#68120: a model the account is not served.
		{name: "model not available", status: 404,
			body:     `{"type":"error","error":{"type":"not_found_error","message":"Claude Fable 5 is not available. Please use Opus 4.8. Learn more: https://www.anthropic.com/news/fable-mythos-access"},"request_id":"req_011CbzRugheav4hCSLt618Z7"}`,
			wantKind: chat.ProviderKindModelUnavailable, wantCode: "not_found_error", wantReqID: "req_011CbzRugheav4hCSLt618Z7",
			wantMsg: "Claude Fable 5 is not available. Please use Opus 4.8. Learn more: https://www.anthropic.com/news/fable-mythos-access", wantChat: chat.ErrNotFound},
		{name: "rate limit with retry-after", status: 429, header: http.Header{"Retry-After": {"17"}, "Request-Id": {"req_hdr"}},
			body:     `{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed your account's rate limit. Please try again later."}}`,
			wantKind: chat.ProviderKindRateLimit, wantCode: "rate_limit_error", wantMsg: "This request would exceed your account's rate limit. Please try again later.",
			wantRetry: 17 * time.Second, wantReqID: "req_hdr", wantChat: chat.ErrUnavailable},
		{name: "subscription window rejected", status: 429, header: http.Header{
			"Retry-After":                             {"3600"},
			"Anthropic-Ratelimit-Unified-Status":      {"rejected"},
			"Anthropic-Ratelimit-Unified-Reset":       {"1787410800"},
			"Anthropic-Ratelimit-Unified-5h-Status":   {"rejected"},
			"Anthropic-Ratelimit-Unified-5h-Reset":    {"1787410800"},
			"Anthropic-Ratelimit-Unified-7d-Status":   {"allowed"},
			"Anthropic-Ratelimit-Unified-7d-Reset":    {"1787900000"},
			"Anthropic-Ratelimit-Unified-7d_oi-Reset": {"2026-09-01T00:00:00Z"},
		}, body: `{"type":"error","error":{"type":"rate_limit_error","message":"Rate limited."}}`,
			wantKind: chat.ProviderKindRateLimit, wantCode: "rate_limit_error", wantMsg: "Rate limited.", wantRetry: time.Hour, wantReset: reset},
		{name: "rfc3339 reset", status: 429, header: http.Header{
			"Anthropic-Ratelimit-Unified-7d_oi-Status": {"rejected"},
			"Anthropic-Ratelimit-Unified-7d_oi-Reset":  {"2026-08-22T15:00:00Z"},
		}, body: `{"type":"error","error":{"type":"rate_limit_error","message":"x"}}`,
			wantKind: chat.ProviderKindRateLimit, wantCode: "rate_limit_error", wantMsg: "x", wantReset: reset},
		{name: "overloaded", status: 529, body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			wantKind: chat.ProviderKindOverloaded, wantCode: "overloaded_error", wantMsg: "Overloaded"},
		{name: "api error", status: 500, body: `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`,
			wantKind: chat.ProviderKindServer, wantCode: "api_error", wantMsg: "Internal server error"},
		{name: "credit too low", status: 400, body: `{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."}}`,
			wantKind: chat.ProviderKindQuota, wantCode: "invalid_request_error", wantMsg: "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."},
		{name: "missing api key", status: 401, body: `{"type":"error","error":{"type":"authentication_error","message":"x-api-key header is required"}}`,
			wantKind: chat.ProviderKindAuth, wantCode: "authentication_error", wantMsg: "x-api-key header is required"},
		{name: "html from a proxy", status: 502, body: "<html><body>Bad Gateway</body></html>",
			wantKind: chat.ProviderKindServer, wantMsg: "<html><body>Bad Gateway</body></html>"},
		{name: "empty body", status: 503, wantKind: chat.ProviderKindOverloaded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := tt.header
			if h == nil {
				h = http.Header{}
			}
			got := classify(tt.status, h, []byte(tt.body))
			if got.Provider != chat.ProviderAnthropic || got.Status != tt.status || got.Kind != tt.wantKind || got.Code != tt.wantCode ||
				got.Message != tt.wantMsg || got.RetryAfter != tt.wantRetry || !got.ResetAt.Equal(tt.wantReset) || got.RequestID != tt.wantReqID {
				t.Errorf("got %+v\nwant kind %s code %q msg %q retry %v reset %v request %q",
					got, tt.wantKind, tt.wantCode, tt.wantMsg, tt.wantRetry, tt.wantReset, tt.wantReqID)
			}
			if tt.wantChat != nil && !errors.Is(got, tt.wantChat) {
				t.Errorf("errors.Is(%v, %v) = false; want true", got, tt.wantChat)
			}
		})
	}
}

// TestGateNeverRetried checks that both gate messages, like the Claude Code
// refusal, are failures no retry can pass (so the agent's retry policy
// gives up at once).
func TestGateNeverRetried(t *testing.T) {
	t.Parallel()
	for _, msg := range []string{
		"Third-party apps now draw from your extra usage, not your plan limits. Add more at claude.ai/settings/usage and keep going.",
		"You're out of extra usage. Add more at claude.ai/settings/usage and keep going.",
		"This credential is only authorized for use with Claude Code and cannot be used for other API requests.",
	} {
		body := `{"type":"error","error":{"type":"invalid_request_error","message":"` + msg + `"}}`
		err := classify(400, http.Header{"Retry-After": {"1"}}, []byte(body))
		if err.Retryable() {
			t.Errorf("%s: kind %s is retryable; want no retry", err.Code, err.Kind)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 8, 22, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		h    http.Header
		want time.Duration
	}{
		{http.Header{}, 0},
		{http.Header{"Retry-After": {"2"}}, 2 * time.Second},
		{http.Header{"Retry-After": {"0.5"}}, 500 * time.Millisecond},
		{http.Header{"Retry-After-Ms": {"1500"}, "Retry-After": {"9"}}, 1500 * time.Millisecond},
		{http.Header{"Retry-After": {"Sat, 22 Aug 2026 12:00:30 GMT"}}, 30 * time.Second},
		{http.Header{"Retry-After": {"soon"}}, 0},
		{http.Header{"Retry-After": {"-4"}}, 0},
	}
	for _, tt := range tests {
		if got := retryAfter(tt.h, now); got != tt.want {
			t.Errorf("retryAfter(%v) = %v; want %v", tt.h, got, tt.want)
		}
	}
}

// TestContextRefusalCounts: both refusals of a prompt that does not fit are
// "context too large", with the provider's count and window read from the
// message (docker/docker-agent#569, earendil-works/pi#102).
func TestContextRefusalCounts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		msg            string
		tokens, window int64
	}{
		{"prompt is too long: 219898 tokens > 200000 maximum", 219898, 200000},
		{"input length and `max_tokens` exceed context limit: 178959 + 64000 > 200000, decrease input length or `max_tokens` and try again", 178959, 200000},
	}
	for _, tt := range tests {
		body := `{"type":"error","error":{"type":"invalid_request_error","message":"` + tt.msg + `"},"request_id":"req_1"}`
		got := classify(400, http.Header{}, []byte(body))
		if got.Kind != chat.ProviderKindContextTooLarge || got.Tokens != tt.tokens || got.Window != tt.window {
			t.Errorf("%q: got kind %s, %d tokens, window %d; want context_too_large, %d, %d", tt.msg, got.Kind, got.Tokens, got.Window, tt.tokens, tt.window)
		}
	}
}
