package gemini

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"maestro/backend/chat"
)

// Google error detail types and ErrorInfo reasons (docs/providers/gemini.md
// §Errors).
const (
	typeErrorInfo    = "type.googleapis.com/google.rpc.ErrorInfo"
	typeRetryInfo    = "type.googleapis.com/google.rpc.RetryInfo"
	typeQuotaFailure = "type.googleapis.com/google.rpc.QuotaFailure"
	typeHelp         = "type.googleapis.com/google.rpc.Help"

	reasonRateLimitExceeded  = "RATE_LIMIT_EXCEEDED"
	reasonValidationRequired = "VALIDATION_REQUIRED"
	reasonAPIKeyInvalid      = "API_KEY_INVALID"
)

// terminalReason reports ErrorInfo reasons that end the turn: retrying
// soon does not help.
func terminalReason(reason string) bool {
	switch reason {
	case "QUOTA_EXHAUSTED", "MODEL_CAPACITY_EXHAUSTED", "MODEL_CAPACITY_EXCEEDED", "INSUFFICIENT_G1_CREDITS_BALANCE":
		return true
	}
	return false
}

const (
	// maxRetryableDelay: a cloudcode RATE_LIMIT_EXCEEDED asking for a longer
	// wait is treated as a quota, as gemini-cli does.
	maxRetryableDelay = 300 * time.Second
	perMinuteDelay    = 60 * time.Second
	maxErrorBody      = 1 << 20
)

// classify turns a non-2xx response into a *chat.ProviderError. The body is Google's
// error JSON, possibly wrapped in a one-element array (Code Assist).
func classify(status int, header http.Header, body []byte) *chat.ProviderError {
	if ge := decodeGoogleError(body); ge != nil {
		return fromGoogle(status, ge, header, false)
	}
	he := &chat.ProviderError{Provider: chat.ProviderGemini, Status: status, Kind: chat.ProviderKindForStatus(status),
		Message: strings.TrimSpace(string(truncate(body, 512)))}
	he.RetryAfter = retryAfterHeader(header)
	return he
}

// Messages of the 404 the service answers a model request with when the
// model is not served to this key or account (docs/providers/gemini.md
// §Errors): the Gemini API names the model, Code Assist does not.
const (
	notFoundAPIKeySuffix = " is not found for API version v1beta"
	notFoundCodeAssist   = "Requested entity was not found."
)

// classifyModelCall classifies the answer to a generate request: as
// classify does, and a 404 for the model as KindModelUnavailable (the
// endpoint itself is fixed, so the model is what was not found).
func classifyModelCall(status int, header http.Header, body []byte) *chat.ProviderError {
	he := classify(status, header, body)
	if status == http.StatusNotFound && (strings.HasPrefix(he.Message, "models/") &&
		strings.Contains(he.Message, notFoundAPIKeySuffix) || he.Message == notFoundCodeAssist) {
		he.Kind = chat.ProviderKindModelUnavailable
	}
	return he
}

func decodeGoogleError(body []byte) *googleError {
	body = bytes.TrimSpace(body)
	var one struct {
		Error *googleError `json:"error"`
	}
	if len(body) > 0 && body[0] == '[' {
		var arr []struct {
			Error *googleError `json:"error"`
		}
		if json.Unmarshal(body, &arr) != nil || len(arr) == 0 {
			return nil
		}
		one = arr[0]
	} else if json.Unmarshal(body, &one) != nil {
		return nil
	}
	return one.Error
}

// errorFacts is what the details of one error say.
type errorFacts struct {
	reason, domain string
	metadata       map[string]string
	delay          time.Duration
	quotaIDs       []string
	helpURL        string
}

func facts(ge *googleError) errorFacts {
	var f errorFacts
	for _, raw := range ge.Details {
		var d errorDetail
		if json.Unmarshal(raw, &d) != nil {
			continue
		}
		switch d.Type {
		case typeErrorInfo:
			f.reason, f.domain, f.metadata = d.Reason, d.Domain, d.Metadata
		case typeRetryInfo:
			if dur, err := time.ParseDuration(d.RetryDelay); err == nil && dur > 0 {
				f.delay = dur
			}
		case typeQuotaFailure:
			for _, v := range d.Violations {
				f.quotaIDs = append(f.quotaIDs, v.QuotaID)
			}
		case typeHelp:
			if len(d.Links) > 0 && f.helpURL == "" {
				f.helpURL = d.Links[0].URL
			}
		}
	}
	if f.delay == 0 {
		f.delay = retryInMessage(ge.Message)
	}
	return f
}

// retryInMessage reads "Please retry in 12.5s" / "retry in 250ms".
func retryInMessage(msg string) time.Duration {
	const marker = "retry in "
	i := strings.Index(strings.ToLower(msg), marker)
	if i < 0 {
		return 0
	}
	rest := msg[i+len(marker):]
	n := 0
	for n < len(rest) && (rest[n] >= '0' && rest[n] <= '9' || rest[n] == '.') {
		n++
	}
	v, err := strconv.ParseFloat(rest[:n], 64)
	if err != nil || v <= 0 {
		return 0
	}
	switch unit := strings.TrimSpace(rest[n:]); {
	case strings.HasPrefix(unit, "ms"):
		return time.Duration(v * float64(time.Millisecond))
	case strings.HasPrefix(unit, "s"):
		return time.Duration(v * float64(time.Second))
	}
	return 0
}

// fromGoogle classifies a decoded Google error. inStream marks an error
// object received inside a 200 stream: its code picks the kind, Status
// stays 200.
func fromGoogle(status int, ge *googleError, header http.Header, inStream bool) *chat.ProviderError {
	f := facts(ge)
	he := &chat.ProviderError{Provider: chat.ProviderGemini, Status: status,
		Kind: chat.ProviderKindForStatus(status), Code: ge.Status, Message: ge.Message}
	if inStream {
		he.Status = 200
		if status < 400 { // an error object without a usable code
			he.Kind = chat.ProviderKindStream
		}
	}
	if f.reason != "" {
		he.Code = f.reason
	}
	if f.delay == 0 {
		f.delay = retryAfterHeader(header)
	}
	lower := strings.ToLower(ge.Message)
	switch {
	case status == 400:
		switch {
		case f.reason == reasonAPIKeyInvalid:
			he.Kind = chat.ProviderKindAuth
		case strings.Contains(lower, "exceeds the maximum number of tokens") || strings.Contains(lower, "token count"):
			he.Kind = chat.ProviderKindContextTooLarge
			he.Tokens, he.Window = contextCounts(ge.Message)
		}
	case status == 403 && f.reason == reasonValidationRequired:
		link := f.metadata["validation_link"]
		if link == "" {
			link = f.helpURL
		}
		if link != "" {
			he.Message = strings.TrimSpace(he.Message + " Verify your account at " + link)
		}
	case status == 429 || status == 499 || status == 503:
		classifyLimit(he, status, f, lower)
	}
	return he
}

// classifyLimit sorts a 429/499/503 into a retryable rate limit, an
// overload, or a terminal quota (googleQuotaErrors.ts).
func classifyLimit(he *chat.ProviderError, status int, f errorFacts, lowerMsg string) {
	he.RetryAfter = f.delay
	resetAt := quotaReset(f.metadata)
	terminal := func() {
		he.Kind = chat.ProviderKindQuota
		he.ResetAt = resetAt
	}
	for _, q := range f.quotaIDs {
		if strings.Contains(q, "PerDay") || strings.Contains(q, "Daily") {
			terminal()
			return
		}
	}
	switch {
	case terminalReason(f.reason), strings.Contains(lowerMsg, "limit: 0"):
		terminal()
		return
	case f.reason == reasonRateLimitExceeded:
		if f.delay > 0 && f.delay <= maxRetryableDelay {
			he.Kind = chat.ProviderKindRateLimit
		} else {
			terminal()
		}
		return
	}
	for _, q := range f.quotaIDs {
		if strings.Contains(q, "PerMinute") {
			// RetryInfo, when sent, is more precise than gemini-cli's flat 60 s.
			he.Kind = chat.ProviderKindRateLimit
			if he.RetryAfter == 0 {
				he.RetryAfter = perMinuteDelay
			}
			return
		}
	}
	switch status {
	case 429:
		he.Kind = chat.ProviderKindRateLimit
	case 503:
		he.Kind = chat.ProviderKindOverloaded
	default:
		he.Kind = chat.ProviderKindServer
	}
}

func quotaReset(md map[string]string) time.Time {
	if ts := md["quotaResetTimeStamp"]; ts != "" {
		if t, err := time.Parse(time.RFC3339, ts); err == nil {
			return t
		}
	}
	return time.Time{}
}

func retryAfterHeader(h http.Header) time.Duration {
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	return 0
}

func truncate(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

// tooManyTokens is the refusal of a prompt over the window
// (docs/providers/gemini.md §Errors).
var tooManyTokens = regexp.MustCompile(`input token count \((\d+)\) exceeds the maximum number of tokens allowed \((\d+)\)`)

// contextCounts reads the prompt's tokens and the window from that
// refusal, or zeros.
func contextCounts(msg string) (tokens, window int64) {
	m := tooManyTokens.FindStringSubmatch(msg)
	if m == nil {
		return 0, 0
	}
	tokens, _ = strconv.ParseInt(m[1], 10, 64)
	window, _ = strconv.ParseInt(m[2], 10, 64)
	return tokens, window
}
