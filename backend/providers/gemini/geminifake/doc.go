// Package geminifake is an in-process stand-in for the two Gemini endpoints
// Maestro talks to: Code Assist (POST /v1internal:streamGenerateContent,
// Bearer auth, the {model, project, request} envelope, {"response":…,
// "traceId":…} SSE payloads) and the public Generative Language API
// (POST /v1beta/models/{model}:streamGenerateContent, x-goog-api-key, bare
// request and payloads). Both stream CRLF-delimited SSE.
//
// It enforces the rules the real service enforces (docs/providers/gemini.md
// §What the fake enforces, with the source of each message):
// authentication, unknown JSON fields, roles and empty parts, alternating
// user and model contents, the function-name pattern, declarations under
// both spellings, function-response adjacency and count, thought signatures
// in the active loop, tools entries without a tool type, thinking budgets
// and levels per model, and the served model list; and, stricter than
// proven, no thought parts and no audio or video beside a function
// response. A request the service would reject gets the service's status
// and Google error body and is recorded with a Rejection. It also serves
// the model list (GET /v1beta/models) and the Code Assist quota
// (POST /v1internal:retrieveUserQuota) from Script.Models. Valid requests are
// answered from the shared fake.Script: thinking, text, tool calls (a call
// to an undeclared function ends the stream with UNEXPECTED_TOOL_CALL, as
// the service does), scripted failures, delays and cut-off streams.
//
// Concurrency: a Server is safe for concurrent use; its only mutable state
// is the Script (which locks) and an atomic trace counter. Handlers return
// when the reply is written, the client goes away, or the script cuts the
// stream.
package geminifake
