package openai

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"maestro/backend/chat"
)

// wireError is an error object as the ChatGPT backend and the API send it
// (docs/providers/openai.md §Errors): {"type","code","message","param"}
// plus the usage-limit fields.
type wireError struct {
	Type            flexString `json:"type"`
	Code            flexString `json:"code"`
	Message         string     `json:"message"`
	PlanType        flexString `json:"plan_type"`
	ResetsAt        float64    `json:"resets_at"`
	ResetsInSeconds float64    `json:"resets_in_seconds"`
}

// flexString reads a string, and takes a number or null as text or "".
type flexString string

func (f *flexString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*f = flexString(s)
		return nil
	}
	if string(b) != "null" && len(b) > 0 && b[0] != '{' && b[0] != '[' {
		*f = flexString(b)
	}
	return nil
}

// code is the most specific of code and type: usage_limit_reached arrives
// as a type, context_length_exceeded as a code.
func (e *wireError) code() string {
	if e.Code != "" {
		return string(e.Code)
	}
	return string(e.Type)
}

// classifyHTTP turns a non-2xx answer into a typed error.
func classifyHTTP(status int, h http.Header, body []byte, now time.Time) *chat.ProviderError {
	if len(bytes.TrimSpace(body)) == 0 {
		// Some answers carry their error only in x-error-json (base64 JSON).
		if v := h.Get("x-error-json"); v != "" {
			if b, err := base64.StdEncoding.DecodeString(v); err == nil {
				body = b
			}
		}
	}
	e := &chat.ProviderError{Provider: chat.ProviderOpenAI, Status: status, RequestID: requestID(h)}
	we := decodeErrorBody(body)
	e.Code, e.Message = we.code(), we.Message
	if we.PlanType != "" {
		e.Message = strings.TrimSpace(e.Message + " (plan: " + string(we.PlanType) + ")")
	}
	effective := status
	if status == http.StatusNotFound && mentionsLimit(body) {
		// §Errors [obs]: usage limits have been seen as 404s.
		effective = http.StatusTooManyRequests
	}
	if kind, code, ok := classifyMessage(status, e.Message); ok {
		e.Kind, e.Code = kind, code
	} else if kind, ok := codeKinds[e.Code]; ok {
		e.Kind = kind
	} else {
		e.Kind = chat.ProviderKindForStatus(effective)
	}
	e.RetryAfter = retryAfter(h, now)
	if e.RetryAfter == 0 {
		e.RetryAfter = tryAgainIn(e.Message)
	}
	if e.Kind == chat.ProviderKindQuota {
		switch {
		case we.ResetsAt > 0:
			e.ResetAt = time.Unix(int64(we.ResetsAt), 0)
		case we.ResetsInSeconds > 0:
			e.ResetAt = now.Add(time.Duration(we.ResetsInSeconds * float64(time.Second)))
		default:
			e.ResetAt = headerResetAt(h)
		}
	}
	return e
}

// codeKinds classifies the error codes and types the services send
// (docs/providers/openai.md §Errors).
var codeKinds = map[string]chat.ProviderKind{
	"usage_limit_reached":     chat.ProviderKindQuota,
	"insufficient_quota":      chat.ProviderKindQuota,
	"usage_not_included":      chat.ProviderKindEntitlement,
	"context_length_exceeded": chat.ProviderKindContextTooLarge,
	"server_is_overloaded":    chat.ProviderKindOverloaded,
	"slow_down":               chat.ProviderKindOverloaded,
	"rate_limit_exceeded":     chat.ProviderKindRateLimit,
	"model_not_found":         chat.ProviderKindModelUnavailable,
}

// messageRules classify the ChatGPT backend's answers that carry only a
// message ({"detail":"…"}), each under a stable code the UI shows a
// specific card for (docs/providers/openai.md §Errors).
var messageRules = []struct {
	code  string
	kind  chat.ProviderKind
	match func(status int, msg string) bool
}{
	{"model_not_supported", chat.ProviderKindModelUnavailable, containsFold("model is not supported when using Codex with a ChatGPT account")},
	{"client_version_too_old", chat.ProviderKindModelUnavailable, containsFold("requires a newer version of Codex")},
	{"instructions_not_valid", chat.ProviderKindInvalidRequest, containsFold("Instructions are not valid")},
	{"system_messages_not_allowed", chat.ProviderKindInvalidRequest, containsFold("System messages are not allowed")},
	// A bare 403: what the originator check answers (earendil-works/pi
	// #1828 reports the status only; Codex shows such an answer as
	// "Unknown error"). A 403 with a body (Cloudflare's page, a JSON
	// error) is not this one.
	{"originator_rejected", chat.ProviderKindForbidden, func(status int, msg string) bool {
		return status == http.StatusForbidden && strings.TrimSpace(msg) == ""
	}},
}

func containsFold(sub string) func(int, string) bool {
	sub = strings.ToLower(sub)
	return func(_ int, msg string) bool { return strings.Contains(strings.ToLower(msg), sub) }
}

// classifyMessage applies messageRules.
func classifyMessage(status int, msg string) (chat.ProviderKind, string, bool) {
	for _, r := range messageRules {
		if r.match(status, msg) {
			return r.kind, r.code, true
		}
	}
	return "", "", false
}

// decodeErrorBody reads {"error":{…}}, {"error":"…"}, {"detail":"…"} and
// anything else as text.
func decodeErrorBody(body []byte) *wireError {
	var b struct {
		Error            json.RawMessage `json:"error"`
		Detail           json.RawMessage `json:"detail"`
		ErrorDescription string          `json:"error_description"`
		Message          string          `json:"message"`
	}
	we := &wireError{}
	if err := json.Unmarshal(body, &b); err != nil {
		we.Message = snippet(body)
		return we
	}
	switch {
	case len(b.Error) > 0 && b.Error[0] == '{':
		if err := json.Unmarshal(b.Error, we); err != nil {
			we.Message = snippet(b.Error)
		}
	case len(b.Error) > 0 && b.Error[0] == '"':
		_ = json.Unmarshal(b.Error, &we.Code)
		we.Message = b.ErrorDescription
	}
	if we.Message == "" && len(b.Detail) > 0 {
		var s string
		if json.Unmarshal(b.Detail, &s) == nil {
			we.Message = s
		} else {
			we.Message = snippet(b.Detail)
		}
	}
	if we.Message == "" {
		we.Message = b.Message
	}
	return we
}

// snippet is a short single-line excerpt of an unparsable body.
func snippet(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > 200 {
		s = s[:200]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		s += "…"
	}
	return s
}

func mentionsLimit(body []byte) bool {
	for _, s := range []string{"usage_limit_reached", "usage_not_included", "rate_limit_exceeded"} {
		if bytes.Contains(body, []byte(s)) {
			return true
		}
	}
	return false
}

func requestID(h http.Header) string {
	for _, k := range []string{"x-request-id", "x-oai-request-id", "cf-ray"} {
		if v := h.Get(k); v != "" {
			return v
		}
	}
	return ""
}

// retryAfter reads retry-after-ms, then retry-after (seconds or a date).
func retryAfter(h http.Header, now time.Time) time.Duration {
	if v := h.Get("retry-after-ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := h.Get("retry-after")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// headerResetAt is when the exhausted x-codex window resets: the secondary
// window if it is the full one, else the primary.
func headerResetAt(h http.Header) time.Time {
	window := "primary"
	if p, _ := strconv.ParseFloat(h.Get("x-codex-secondary-used-percent"), 64); p >= 100 {
		if q, _ := strconv.ParseFloat(h.Get("x-codex-primary-used-percent"), 64); q < 100 {
			window = "secondary"
		}
	}
	if s, err := strconv.ParseInt(h.Get("x-codex-"+window+"-reset-at"), 10, 64); err == nil && s > 0 {
		return time.Unix(s, 0)
	}
	return time.Time{}
}

// tryAgainIn parses "… try again in 1.5s", "in 20ms" or "in 35 seconds"
// from a rate-limit message (docs/providers/openai.md §Errors); 0 when
// there is none.
func tryAgainIn(msg string) time.Duration {
	const marker = "try again in"
	i := strings.Index(strings.ToLower(msg), marker)
	if i < 0 {
		return 0
	}
	rest := strings.TrimLeft(msg[i+len(marker):], " ")
	n := 0
	for n < len(rest) && (rest[n] >= '0' && rest[n] <= '9' || rest[n] == '.') {
		n++
	}
	v, err := strconv.ParseFloat(rest[:n], 64)
	if err != nil || v <= 0 {
		return 0
	}
	unit := strings.ToLower(strings.TrimLeft(rest[n:], " "))
	switch {
	case strings.HasPrefix(unit, "ms"), strings.HasPrefix(unit, "millisecond"):
		return time.Duration(v * float64(time.Millisecond))
	case strings.HasPrefix(unit, "s"):
		return time.Duration(v * float64(time.Second))
	case strings.HasPrefix(unit, "m"):
		return time.Duration(v * float64(time.Minute))
	}
	return 0
}

// streamFailure is the error for response.failed and "error" events
// (docs/providers/openai.md §Errors). An unknown code stays a server error,
// which is retried.
func streamFailure(we *wireError, fallback string) *chat.ProviderError {
	e := &chat.ProviderError{Provider: chat.ProviderOpenAI, Status: 200, Kind: chat.ProviderKindServer, Message: fallback}
	if we == nil {
		return e
	}
	e.Code = we.code()
	if we.Message != "" {
		e.Message = we.Message
	}
	if kind, code, ok := classifyMessage(200, we.Message); ok && we.Message != "" {
		e.Kind, e.Code = kind, code
		return e
	}
	if kind, ok := codeKinds[e.Code]; ok {
		e.Kind = kind
	}
	switch e.Kind {
	case chat.ProviderKindQuota:
		if we.ResetsAt > 0 {
			e.ResetAt = time.Unix(int64(we.ResetsAt), 0)
		}
	case chat.ProviderKindRateLimit:
		e.RetryAfter = tryAgainIn(we.Message)
	}
	return e
}
