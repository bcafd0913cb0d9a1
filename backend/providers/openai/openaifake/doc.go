// Package openaifake is a fake of the ChatGPT Codex backend
// (POST /backend-api/codex/responses) and of the public Responses API
// (POST /v1/responses) for tests and the end-to-end harness.
//
// It enforces the rules a real request must pass (providers.md C6–C11):
// bearer and chatgpt-account-id, store:false and stream:true, required
// instructions, input as a list without system messages, no item ids under
// store:false, message content types per role, reasoning items with their
// encrypted_content, function_call arguments as a string, at most 128 tools
// with names matching ^[a-zA-Z0-9_-]{1,64}$, and the call/output pairing
// invariant. A request that breaks one gets the real status and error body
// and is recorded with the rule as its Rejection. A valid request is
// answered from Script: a scripted HTTP error, or a Responses SSE stream
// (reasoning with a fake encrypted_content, text deltas, function calls
// with arguments in fragments, x-codex-* headers, sequence numbers) that
// may fail in-stream or be cut before response.completed.
//
// Concurrency: a Server is safe for concurrent requests. Script guards the
// replies and the log; the id counter is atomic; everything else is fixed
// by New. Each request is served by the goroutine net/http gives it.
package openaifake
