// Package openai is Maestro's adapter for OpenAI's Responses API, in its two
// forms (docs/providers/openai.md has the facts it relies on, with their
// sources):
//
//   - ChatGPT sign-in, the default: POST {base}/backend-api/codex/responses,
//     base https://chatgpt.com. The injected *http.Client is an oauth2
//     client that adds the bearer; the adapter adds ChatGPT-Account-ID,
//     originator, session_id and the other Codex headers.
//   - API key (WithAPIKey): POST {base}/v1/responses, base
//     https://api.openai.com, with Authorization: Bearer <key>.
//
// The base URL is always the host root (scheme://host[:port]); a trailing
// /backend-api, /backend-api/codex or /v1 is tolerated and not doubled, so
// the same httptest server URL serves both modes.
//
// Rendering is the pure function toRequest: canonical history in, the
// Responses body out (golden-tested), with what the model allows (req.Info,
// else Lookup): reasoning and encrypted reasoning for reasoning models,
// temperature only for the others, parallel_tool_calls per model. Fields
// that change per request come last, so the steps of a turn share a cached
// prefix. Requests are stateless (store:false), so reasoning items travel
// with their encrypted_content, replayed only when a reasoning part carries
// ProviderData["openai"]. parseStream turns the Responses SSE grammar into
// chat events; a stream that ends before response.completed is an error.
//
// Before rendering, newRequest (Stream) fits the history to AttachmentRules (this
// provider's types and sizes, attachments.go): an attachment of the latest
// user message the service would refuse is a chat.AttachmentError and
// nothing is sent; one of an earlier message becomes a note. Files,
// resources and tool results' links are rendered as the docs' §Attachments
// says.
//
// Models lists the models the account or key can use: the ChatGPT
// backend's Codex list (by client_version, DefaultClientVersion or
// $MAESTRO_CODEX_CLIENT_VERSION) or the API's /v1/models, filled from the
// built-in table (Lookup); Builtin is the fallback list.
//
// Concurrency: a *Model is immutable after New and safe for concurrent
// Stream and Models calls. Each Stream call owns its response body. The
// returned sequence is single-use and must be ranged by one goroutine; it
// closes the body when the range ends, including on an early break; a
// sequence that is never ranged holds the connection until ctx ends. The only other
// goroutine is the idle timer's callback, which just closes that body.
package openai
