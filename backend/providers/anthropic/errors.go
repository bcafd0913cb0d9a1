package anthropic

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"maestro/backend/chat"
)

// errorBody is the error envelope (docs/providers/anthropic.md, "Errors"):
// {"type":"error","error":{"type":…,"message":…},"request_id":…}.
type errorBody struct {
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
	RequestID string `json:"request_id"`
}

// Messages the API puts in an invalid_request_error that call for
// something other than fixing the request (docs/providers/anthropic.md,
// "Errors"). They are matched in lower case: the gate's wording varies with
// the plan ("your extra usage" for Pro and Max, "extra usage" for Team).
const (
	msgPromptTooLong   = "prompt is too long"
	msgContextLimit    = "exceed context limit"
	msgClaudeCodeOnly  = "only authorized for use with claude code"
	msgCreditTooLow    = "credit balance is too low"
	msgThirdPartyGate  = "third-party apps now draw from"
	msgOutOfExtraUsage = "out of extra usage"
	msgNotAvailable    = " is not available"
	msgModelPrefix     = "model: "
)

// Stable codes Maestro puts in ProviderError.Code for the subscription gates, in
// place of the API's generic invalid_request_error, so the UI can show a
// card for each without matching message text.
const (
	// CodeThirdPartyGate: "Third-party apps now draw from your extra
	// usage, not your plan limits…". The plan does not cover this client;
	// an API key or extra usage on the plan does.
	CodeThirdPartyGate = "third_party_gate"
	// CodeExtraUsageExhausted: "You're out of extra usage…". The same gate,
	// with the plan's extra usage used up or turned off.
	CodeExtraUsageExhausted = "extra_usage_exhausted"
	// CodeClaudeCodeOnly: "This credential is only authorized for use with
	// Claude Code…". The subscription token was refused for this request.
	CodeClaudeCodeOnly = "claude_code_only"
)

// classify turns a non-2xx response into a *chat.ProviderError.
func classify(status int, h http.Header, body []byte) *chat.ProviderError {
	e := &chat.ProviderError{Provider: chat.ProviderAnthropic, Status: status}
	var eb errorBody
	if err := json.Unmarshal(body, &eb); err == nil && eb.Error.Type != "" {
		e.Code, e.Message, e.RequestID = eb.Error.Type, eb.Error.Message, eb.RequestID
	} else {
		e.Message = snippet(body)
	}
	if e.RequestID == "" {
		e.RequestID = h.Get("request-id")
	}
	e.Kind = kindFor(e.Code, e.Message, status)
	if code := gateCode(e.Code, e.Message); code != "" {
		e.Code = code
	}
	if e.Kind == chat.ProviderKindContextTooLarge {
		e.Tokens, e.Window = contextCounts(e.Message)
	}
	e.RetryAfter = retryAfter(h, time.Now())
	e.ResetAt = resetAt(h)
	return e
}

// kindFor classifies an error type and message; status 200 means an error
// event inside a stream.
func kindFor(typ, msg string, status int) chat.ProviderKind {
	switch typ {
	case "authentication_error":
		return chat.ProviderKindAuth
	case "permission_error":
		return chat.ProviderKindForbidden
	case "not_found_error":
		// "model: X" is a model this key or sign-in cannot use (unknown,
		// retired or not offered to it); "Claude Fable 5 is not available.
		// Please use Opus 4.8. …" a model this account is not served.
		// Either way another model works and this one will not.
		if strings.HasPrefix(msg, msgModelPrefix) || strings.Contains(msg, msgNotAvailable) {
			return chat.ProviderKindModelUnavailable
		}
		return chat.ProviderKindNotFound
	case "rate_limit_error":
		return chat.ProviderKindRateLimit
	case "overloaded_error":
		return chat.ProviderKindOverloaded
	case "api_error", "timeout_error":
		return chat.ProviderKindServer
	case "billing_error":
		return chat.ProviderKindQuota
	case "request_too_large":
		return chat.ProviderKindContextTooLarge
	case "invalid_request_error":
		return invalidRequestKind(msg)
	}
	if status == 200 {
		return chat.ProviderKindStream
	}
	return chat.ProviderKindForStatus(status)
}

// invalidRequestKind classifies an invalid_request_error by its message.
// The subscription gates are entitlement errors: the plan does not cover
// this use, so retrying never helps and the user needs an API key or extra
// usage (docs/providers/anthropic.md, "Errors").
func invalidRequestKind(msg string) chat.ProviderKind {
	switch gateCode("invalid_request_error", msg) {
	case CodeThirdPartyGate, CodeExtraUsageExhausted:
		return chat.ProviderKindEntitlement
	case CodeClaudeCodeOnly:
		return chat.ProviderKindForbidden
	}
	lower := strings.ToLower(msg)
	switch {
	case strings.Contains(lower, msgPromptTooLong), strings.Contains(lower, msgContextLimit):
		return chat.ProviderKindContextTooLarge
	case strings.Contains(lower, msgCreditTooLow):
		return chat.ProviderKindQuota
	}
	return chat.ProviderKindInvalidRequest
}

// The two refusals of a prompt that does not fit (docs/providers/anthropic.md,
// "Errors"): "prompt is too long: N tokens > M maximum", and "input length
// and `max_tokens` exceed context limit: N + K > M, …".
var (
	tooLongCounts      = regexp.MustCompile(`prompt is too long: (\d+) tokens > (\d+) maximum`)
	contextLimitCounts = regexp.MustCompile(`exceed context limit: (\d+) \+ \d+ > (\d+)`)
)

// contextCounts reads the prompt's tokens and the window from a refusal,
// or zeros.
func contextCounts(msg string) (tokens, window int64) {
	for _, re := range []*regexp.Regexp{tooLongCounts, contextLimitCounts} {
		if m := re.FindStringSubmatch(msg); m != nil {
			tokens, _ = strconv.ParseInt(m[1], 10, 64)
			window, _ = strconv.ParseInt(m[2], 10, 64)
			return tokens, window
		}
	}
	return 0, 0
}

// gateCode is the stable code of a subscription gate message, or "".
func gateCode(typ, msg string) string {
	if typ != "invalid_request_error" {
		return ""
	}
	lower := strings.ToLower(msg)
	switch {
	case strings.Contains(lower, msgThirdPartyGate):
		return CodeThirdPartyGate
	case strings.Contains(lower, msgOutOfExtraUsage):
		return CodeExtraUsageExhausted
	case strings.Contains(lower, msgClaudeCodeOnly):
		return CodeClaudeCodeOnly
	}
	return ""
}

// retryAfter reads retry-after-ms, then retry-after (seconds or an HTTP
// date).
func retryAfter(h http.Header, now time.Time) time.Duration {
	if v := h.Get("retry-after-ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("retry-after"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// unifiedWindows are the subscription rate-limit windows
// (docs/providers/anthropic.md, "Errors"): the overall
// one and the 5-hour, 7-day and 7-day Opus windows.
var unifiedWindows = []string{"", "5h-", "7d-", "7d_oi-"}

// resetAt is the latest reset of a subscription window whose status is
// "rejected", or zero when none is.
func resetAt(h http.Header) time.Time {
	var at time.Time
	for _, w := range unifiedWindows {
		prefix := "anthropic-ratelimit-unified-" + w
		if !strings.EqualFold(strings.TrimSpace(h.Get(prefix+"status")), "rejected") {
			continue
		}
		if t := parseReset(h.Get(prefix + "reset")); t.After(at) {
			at = t
		}
	}
	return at
}

// parseReset reads a reset value: unix seconds (or milliseconds), or an
// RFC 3339 timestamp.
func parseReset(v string) time.Time {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
		if n > 1e12 {
			return time.UnixMilli(n).UTC()
		}
		return time.Unix(n, 0).UTC()
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t.UTC()
	}
	return time.Time{}
}

// snippet is the start of a body that is not an error envelope.
func snippet(body []byte) string {
	const limit = 300
	s := strings.TrimSpace(string(body))
	if len(s) <= limit {
		return s
	}
	s = s[:limit]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}
