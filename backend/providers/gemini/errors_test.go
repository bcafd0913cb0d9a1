package gemini

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"maestro/backend/chat"
)

func TestClassify(t *testing.T) {
	t.Parallel()
	fixture429, err := os.ReadFile(filepath.Join("testdata", "fixtures", "google-429-retry-info.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The body from gemini-cli's googleQuotaErrors.test.ts (docs/providers/gemini.md §Errors).
	rateLimit := `{"error":{"code":429,"message":"You have exhausted your capacity on this model.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMIT_EXCEEDED","domain":"cloudcode-pa.googleapis.com","metadata":{"uiMessage":"true","model":"gemini-2.5-pro","quotaResetDelay":"539.477544ms","quotaResetTimeStamp":"2025-10-20T19:14:08Z"}},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"0.539477544s"}]}}`
	tests := []struct {
		name       string
		status     int
		header     http.Header
		body       string
		wantKind   chat.ProviderKind
		wantCode   string
		wantRetry  time.Duration
		wantReset  time.Time
		wantInMsg  string
		wantChatIs error
	}{
		{name: "vercel 429 per-minute with retry info", status: 429, body: string(fixture429),
			wantKind: chat.ProviderKindRateLimit, wantCode: "RESOURCE_EXHAUSTED", wantRetry: 34400 * time.Millisecond},
		{name: "cloudcode rate limit", status: 429, body: rateLimit,
			wantKind: chat.ProviderKindRateLimit, wantCode: "RATE_LIMIT_EXCEEDED", wantRetry: 539477544 * time.Nanosecond},
		{name: "cloudcode rate limit in an array", status: 429, body: "[" + rateLimit + "]\n",
			wantKind: chat.ProviderKindRateLimit, wantCode: "RATE_LIMIT_EXCEEDED", wantRetry: 539477544 * time.Nanosecond},
		{name: "rate limit longer than 300 s is terminal", status: 429,
			body:     strings.Replace(rateLimit, `"retryDelay":"0.539477544s"`, `"retryDelay":"900s"`, 1),
			wantKind: chat.ProviderKindQuota, wantCode: "RATE_LIMIT_EXCEEDED", wantRetry: 900 * time.Second,
			wantReset: time.Date(2025, 10, 20, 19, 14, 8, 0, time.UTC)},
		{name: "quota exhausted", status: 429,
			body:     `{"error":{"code":429,"message":"You have exhausted your daily quota on this model.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"QUOTA_EXHAUSTED","domain":"cloudcode-pa.googleapis.com","metadata":{"quotaResetTimeStamp":"2026-11-22T00:00:00Z"}}]}}`,
			wantKind: chat.ProviderKindQuota, wantCode: "QUOTA_EXHAUSTED", wantReset: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)},
		{name: "per-day quota", status: 429,
			body:     `{"error":{"code":429,"message":"Quota exceeded.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaId":"GenerateRequestsPerDayPerProjectPerModel-FreeTier"}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"20s"}]}}`,
			wantKind: chat.ProviderKindQuota, wantCode: "RESOURCE_EXHAUSTED", wantRetry: 20 * time.Second},
		{name: "per-minute quota without delay", status: 429,
			body:     `{"error":{"code":429,"message":"Quota exceeded.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaId":"GenerateRequestsPerMinutePerProject"}]}]}}`,
			wantKind: chat.ProviderKindRateLimit, wantCode: "RESOURCE_EXHAUSTED", wantRetry: time.Minute},
		{name: "limit 0", status: 429,
			body:     `{"error":{"code":429,"message":"Quota exceeded for metric: generate_content_free_tier_requests, limit: 0","status":"RESOURCE_EXHAUSTED"}}`,
			wantKind: chat.ProviderKindQuota, wantCode: "RESOURCE_EXHAUSTED"},
		{name: "retry delay in the message", status: 429,
			body:     `{"error":{"code":429,"message":"Resource exhausted. Please retry in 12.5s.","status":"RESOURCE_EXHAUSTED"}}`,
			wantKind: chat.ProviderKindRateLimit, wantCode: "RESOURCE_EXHAUSTED", wantRetry: 12500 * time.Millisecond},
		{name: "retry-after header", status: 429, header: http.Header{"Retry-After": {"7"}},
			body:     `{"error":{"code":429,"message":"Too many requests.","status":"RESOURCE_EXHAUSTED"}}`,
			wantKind: chat.ProviderKindRateLimit, wantRetry: 7 * time.Second, wantCode: "RESOURCE_EXHAUSTED"},
		{name: "capacity exhausted", status: 503,
			body:     `{"error":{"code":503,"message":"No capacity available for model gemini-2.5-pro on the server","status":"UNAVAILABLE","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"MODEL_CAPACITY_EXHAUSTED","domain":"cloudcode-pa.googleapis.com"}]}}`,
			wantKind: chat.ProviderKindQuota, wantCode: "MODEL_CAPACITY_EXHAUSTED"},
		{name: "overloaded", status: 503,
			body:     `{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}`,
			wantKind: chat.ProviderKindOverloaded, wantCode: "UNAVAILABLE"},
		{name: "cancelled 499", status: 499, body: `{"error":{"code":499,"message":"The operation was cancelled.","status":"CANCELLED"}}`,
			wantKind: chat.ProviderKindServer, wantCode: "CANCELLED"},
		{name: "internal", status: 500,
			body:     `[{"error":{"code":500,"message":"An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting","status":"INTERNAL"}}]`,
			wantKind: chat.ProviderKindServer, wantCode: "INTERNAL"},
		{name: "expired token", status: 401,
			body:     `{"error":{"code":401,"message":"Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.","status":"UNAUTHENTICATED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"ACCESS_TOKEN_EXPIRED","domain":"googleapis.com","metadata":{"service":"cloudcode-pa.googleapis.com"}}]}}`,
			wantKind: chat.ProviderKindAuth, wantCode: "ACCESS_TOKEN_EXPIRED", wantChatIs: chat.ErrAuthRequired},
		{name: "invalid api key", status: 400,
			body:     `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"generativelanguage.googleapis.com"}}]}}`,
			wantKind: chat.ProviderKindAuth, wantCode: "API_KEY_INVALID", wantChatIs: chat.ErrAuthRequired},
		{name: "validation required", status: 403,
			body:     `{"error":{"code":403,"message":"Verify your account to continue.","status":"PERMISSION_DENIED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"VALIDATION_REQUIRED","domain":"cloudcode-pa.googleapis.com","metadata":{"validation_link":"https://accounts.google.com/signin/continue?x=1"}},{"@type":"type.googleapis.com/google.rpc.Help","links":[{"description":"Verify","url":"https://example.com/help"}]}]}}`,
			wantKind: chat.ProviderKindForbidden, wantCode: "VALIDATION_REQUIRED", wantInMsg: "https://accounts.google.com/signin/continue?x=1"},
		{name: "validation link from help", status: 403,
			body:     `{"error":{"code":403,"message":"Verify your account.","status":"PERMISSION_DENIED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"VALIDATION_REQUIRED","domain":"cloudcode-pa.googleapis.com"},{"@type":"type.googleapis.com/google.rpc.Help","links":[{"description":"Verify","url":"https://example.com/verify"}]}]}}`,
			wantKind: chat.ProviderKindForbidden, wantCode: "VALIDATION_REQUIRED", wantInMsg: "https://example.com/verify"},
		{name: "model not found", status: 404,
			body:     `{"error":{"code":404,"message":"models/gemini-9 is not found for API version v1beta, or is not supported for generateContent.","status":"NOT_FOUND"}}`,
			wantKind: chat.ProviderKindNotFound, wantCode: "NOT_FOUND", wantChatIs: chat.ErrNotFound},
		{name: "context too large", status: 400,
			body:     `{"error":{"code":400,"message":"The input token count (1048577) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}`,
			wantKind: chat.ProviderKindContextTooLarge, wantCode: "INVALID_ARGUMENT"},
		{name: "missing thought signature", status: 400,
			body:     `[{"error":{"code":400,"message":"Function call is missing a thought_signature in functionCall parts.","errors":[{"message":"x","domain":"global","reason":"badRequest"}],"status":"INVALID_ARGUMENT"}}]`,
			wantKind: chat.ProviderKindInvalidRequest, wantCode: "INVALID_ARGUMENT", wantChatIs: chat.ErrInvalid},
		{name: "html gateway error", status: 502, body: "<html><body>Bad Gateway</body></html>",
			wantKind: chat.ProviderKindServer, wantInMsg: "Bad Gateway"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			he := classify(tt.status, tt.header, []byte(tt.body))
			if he.Provider != chat.ProviderGemini || he.Status != tt.status {
				t.Errorf("got provider %q status %d; want gemini %d", he.Provider, he.Status, tt.status)
			}
			if he.Kind != tt.wantKind || he.Code != tt.wantCode {
				t.Errorf("got kind %s code %q; want kind %s code %q", he.Kind, he.Code, tt.wantKind, tt.wantCode)
			}
			if he.RetryAfter != tt.wantRetry {
				t.Errorf("got RetryAfter %v; want %v", he.RetryAfter, tt.wantRetry)
			}
			if !he.ResetAt.Equal(tt.wantReset) {
				t.Errorf("got ResetAt %v; want %v", he.ResetAt, tt.wantReset)
			}
			if !strings.Contains(he.Message, tt.wantInMsg) {
				t.Errorf("got message %q; want it to contain %q", he.Message, tt.wantInMsg)
			}
			if tt.wantChatIs != nil && !errors.Is(he, tt.wantChatIs) {
				t.Errorf("errors.Is(%v, %v) = false; want true", he, tt.wantChatIs)
			}
		})
	}
}

// TestClassifyModelCall: on a generate call, a 404 for the model means
// the account is not served it; any other 404 stays KindNotFound.
func TestClassifyModelCall(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
		want chat.ProviderKind
	}{
		{"api key", `{"error":{"code":404,"message":"models/gemini-9 is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.","status":"NOT_FOUND"}}`,
			chat.ProviderKindModelUnavailable},
		{"code assist", `[{"error":{"code":404,"message":"Requested entity was not found.","errors":[{"message":"Requested entity was not found.","domain":"global","reason":"notFound"}],"status":"NOT_FOUND"}}]`,
			chat.ProviderKindModelUnavailable},
		{"wrong path", `{"error":{"code":404,"message":"The requested URL /v1beta/x was not found on this server.","status":"NOT_FOUND"}}`,
			chat.ProviderKindNotFound},
		{"html", `<html>404</html>`, chat.ProviderKindNotFound},
	}
	for _, tt := range tests {
		he := classifyModelCall(404, nil, []byte(tt.body))
		if he.Kind != tt.want || !errors.Is(he, chat.ErrNotFound) {
			t.Errorf("%s: got kind %s (%v); want %s, and chat.ErrNotFound", tt.name, he.Kind, he, tt.want)
		}
	}
}

func TestRetryInMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		msg  string
		want time.Duration
	}{
		{"Please retry in 1.5s.", 1500 * time.Millisecond},
		{"please RETRY IN 250ms", 250 * time.Millisecond},
		{"retry in soon", 0},
		{"nothing here", 0},
		{"retry in 3 hours", 0},
	}
	for _, tt := range tests {
		if got := retryInMessage(tt.msg); got != tt.want {
			t.Errorf("retryInMessage(%q) = %v; want %v", tt.msg, got, tt.want)
		}
	}
}

// TestContextRefusalCounts: the refusal of a prompt over the window gives
// the prompt's count and the window, in both wire forms.
func TestContextRefusalCounts(t *testing.T) {
	t.Parallel()
	const msg = "The input token count (1048577) exceeds the maximum number of tokens allowed (1048576)."
	for _, body := range []string{
		`{"error":{"code":400,"message":"` + msg + `","status":"INVALID_ARGUMENT"}}`,
		`[{"error":{"code":400,"message":"` + msg + `","errors":[{"message":"` + msg + `","domain":"global","reason":"badRequest"}],"status":"INVALID_ARGUMENT"}}]`,
	} {
		got := classify(400, http.Header{}, []byte(body))
		if got.Kind != chat.ProviderKindContextTooLarge || got.Tokens != 1048577 || got.Window != 1048576 {
			t.Errorf("%s: got kind %s, %d tokens, window %d; want context_too_large, 1048577, 1048576", body, got.Kind, got.Tokens, got.Window)
		}
	}
}
