package geminifake

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// apiError is a Google API error ("error" member of the body).
type apiError struct {
	Code    int           `json:"code"`
	Message string        `json:"message"`
	Errors  []legacyError `json:"errors,omitempty"`
	Status  string        `json:"status"`
	Details []detail      `json:"details,omitempty"`
}

// detail is a google.rpc detail (ErrorInfo, RetryInfo or QuotaFailure),
// fields in the order the service writes them.
type detail struct {
	Type       string              `json:"@type"`
	Reason     string              `json:"reason,omitempty"`
	Domain     string              `json:"domain,omitempty"`
	Metadata   map[string]string   `json:"metadata,omitempty"`
	RetryDelay string              `json:"retryDelay,omitempty"`
	Violations []map[string]string `json:"violations,omitempty"`
}

// legacyError is the v1 "errors" list Code Assist still includes on 400s.
type legacyError struct {
	Message string `json:"message"`
	Domain  string `json:"domain"`
	Reason  string `json:"reason"`
}

// rejection is an error answer: the status, the body's error, whether the
// body is wrapped in a one-element array (errors raised by the Code Assist
// service itself come that way; the front end's auth errors do not), and
// the rule, for the request log.
type rejection struct {
	err     apiError
	wrapped bool
	rule    string
	header  http.Header
}

func (rj *rejection) write(w http.ResponseWriter) {
	for k, v := range rj.header {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(rj.err.Code)
	var body any = map[string]any{"error": rj.err}
	if rj.wrapped {
		body = []any{body}
	}
	b, _ := json.MarshalIndent(body, "", "  ")
	_, _ = w.Write(append(b, '\n'))
}

// invalid is a 400 INVALID_ARGUMENT from the service.
func invalid(rule, format string, args ...any) *rejection {
	msg := fmt.Sprintf(format, args...)
	return &rejection{rule: rule, err: apiError{Code: 400, Message: msg, Status: "INVALID_ARGUMENT",
		Errors: []legacyError{{Message: msg, Domain: "global", Reason: "badRequest"}}}}
}

// notFound is a 404 NOT_FOUND from the service.
func notFound(rule, msg string) *rejection {
	return &rejection{rule: rule, err: apiError{Code: 404, Message: msg, Status: "NOT_FOUND",
		Errors: []legacyError{{Message: msg, Domain: "global", Reason: "notFound"}}}}
}

// protoInvalid is the 400 for a field-level validation failure.
func protoInvalid(rule, field, problem string) *rejection {
	return invalid(rule, "The GenerateContentRequest proto is invalid:\n  * %s: %s", field, problem)
}

const (
	msgBadName = "[FIELD_INVALID] Invalid function name. Must start with a letter or an underscore. " +
		"Must be a-z, A-Z, 0-9, or contain underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64."
	msgCallTurn         = "Please ensure that function call turn comes immediately after a user turn or after a function response turn."
	msgResponseTurn     = "Please ensure that function response turn comes immediately after a function call turn."
	msgResponseCount    = "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn."
	msgAlternate        = "Please ensure that multiturn requests alternate between user and model."
	msgBudgetAndLevel   = "You can only set only one of thinking budget and thinking level."
	msgBudgetInvalidFmt = "The thinking budget (%d) is invalid."
	msgBudgetRangeFmt   = "Unable to submit request because thinking_budget is out of range; supported values are integers from %d to %d. " +
		"Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/gemini"
	msgMissingSigFmt  = "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:%s` , position %d. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details."
	msgCredsMissing   = "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."
	msgCredsInvalid   = "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."
	msgUnregistered   = "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API."
	msgKeyInvalid     = "API key not valid. Please pass a valid API key."
	msgKeyExpired     = "API key expired. Please renew the API key."
	msgInternal       = "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting"
	msgOverloaded     = "The model is overloaded. Please try again later."
	msgInvalidArg     = "Request contains an invalid argument."
	msgEntityNotFound = "Requested entity was not found."
	msgTooManyTokens  = "The input token count (1048577) exceeds the maximum number of tokens allowed (1048576)."
	// msgTooManyTokensFormat is the same with the prompt's count and the
	// window.
	msgTooManyTokensFormat = "The input token count (%d) exceeds the maximum number of tokens allowed (%d)."
	codeAssistService      = "cloudcode-pa.googleapis.com"
	publicService          = "generativelanguage.googleapis.com"
)

func errorInfo(reason, domain string, md map[string]string) detail {
	return detail{Type: "type.googleapis.com/google.rpc.ErrorInfo", Reason: reason, Domain: domain, Metadata: md}
}

func retryInfo(delay string) detail {
	return detail{Type: "type.googleapis.com/google.rpc.RetryInfo", RetryDelay: delay}
}

func quotaFailure(quotaID string) detail {
	return detail{Type: "type.googleapis.com/google.rpc.QuotaFailure", Violations: []map[string]string{{"quotaId": quotaID}}}
}

// unauthenticated is the front end's 401 (plain body, WWW-Authenticate).
func unauthenticated(rule, msg, reason string) *rejection {
	return &rejection{rule: rule,
		header: http.Header{"Www-Authenticate": {`Bearer realm="https://accounts.google.com/", error="invalid_token"`}},
		err: apiError{Code: 401, Message: msg, Status: "UNAUTHENTICATED", Details: []detail{
			errorInfo(reason, "googleapis.com", map[string]string{"service": codeAssistService,
				"method": "google.internal.cloud.code.v1internal.CloudCode.StreamGenerateContent"}),
		}}}
}

func apiKeyInvalid(rule, msg string) *rejection {
	return &rejection{rule: rule, err: apiError{Code: 400, Message: msg, Status: "INVALID_ARGUMENT",
		Details: []detail{errorInfo("API_KEY_INVALID", "googleapis.com", map[string]string{"service": publicService})}}}
}
