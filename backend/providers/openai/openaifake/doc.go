// Package openaifake is a fake of the ChatGPT Codex backend
// (POST /backend-api/codex/responses, GET /backend-api/codex/models) and of
// the public API (POST /v1/responses, GET /v1/models) for tests and the
// end-to-end harness.
//
// It enforces the rules a real request must pass (docs/providers/openai.md
// §What the fake enforces): bearer and chatgpt-account-id, a model on the
// served list (Script.SetModels; DefaultChatGPTModels and DefaultAPIModels
// otherwise) and, on the ChatGPT backend, not newer than the version
// header allows, store:false and stream:true, required instructions, input as
// a list without system messages, no max_output_tokens, temperature or
// top_p on the ChatGPT backend, no temperature or top_p for reasoning
// models and no reasoning for the others on the API, no item ids under
// store:false, message content types per role, reasoning items with their
// encrypted_content, function_call arguments as a string, at most 128 tools
// with names matching ^[a-zA-Z0-9_-]{1,64}$ and parameters the services
// accept (an object root with properties, arrays with items), and the
// call/output pairing invariant. A request that breaks one gets the real
// status and error body and is recorded with the rule as its Rejection.
//
// A valid request is answered from Script: a scripted HTTP error, or a
// Responses SSE stream (reasoning with a fake encrypted_content, text
// deltas, function calls with arguments in fragments, x-codex-* headers,
// sequence numbers) that may fail in-stream or be cut before
// response.completed. Besides the shared Reply.Error values it scripts
// "usage_not_included", "instructions_not_valid" and "originator_rejected"
// with the real bodies, so the UI's cards for them can be driven end to end.
//
// The model lists are served in each endpoint's real shape: codex_protocol's
// {"models":[ModelInfo…]} filtered by client_version, and the API's
// {"object":"list","data":[…]}.
//
// Concurrency: a Server is safe for concurrent requests. Script guards the
// replies, the log and the served models; the id counter is atomic;
// everything else is fixed by New. Each request is served by the goroutine
// net/http gives it.
package openaifake
