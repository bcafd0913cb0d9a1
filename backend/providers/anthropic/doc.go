// Package anthropic is Maestro's adapter for Anthropic's Messages API
// (POST {base}/v1/messages, streamed as server-sent events).
//
// It has two modes. By default it talks as a Claude subscription (OAuth)
// client: the *http.Client given with WithHTTPClient already adds the
// "Authorization: Bearer" header, the URL carries ?beta=true, anthropic-beta
// carries oauth-2025-04-20, and the system prompt starts with the Claude Code
// line the endpoint requires. WithAPIKey switches to the supported API-key
// mode (x-api-key). Tool names go out as exposed; nothing here tries to hide
// what the client is. The facts this package relies on, with their public
// sources, are in docs/providers/anthropic.md.
//
// Rendering is a pure function, toRequest, from a chat.Request to the wire
// body: roles are merged so they alternate, every tool_use is followed by a
// user message that starts with its tool_result, orphaned results are
// dropped, thinking blocks are replayed only when this provider signed them,
// max_tokens and thinking are bounded by the model's limits (Lookup, or the
// catalog's chat.ModelInfo), and at most four cache_control breakpoints
// mark the stable prefix. The body puts messages last, so consecutive steps
// of a turn share a byte-identical prefix. Parsing turns the Messages SSE
// grammar into chat events. Models reads the account's model list.
//
// Before rendering, Stream fits the history to AttachmentRules (this
// provider's types and sizes, attachments.go): an attachment of the latest
// user message the service would refuse is a chat.AttachmentError and
// nothing is sent; one of an earlier message becomes a note. Files,
// resources and tool results' links are rendered as the docs' §Attachments
// says.
//
// Concurrency: a Model holds only configuration and is safe for concurrent
// use. Each Stream call owns its HTTP response; the returned sequence must be
// ranged at most once, by one goroutine. Stopping the range (or finishing it)
// closes the response body, so no goroutine outlives the iteration.
package anthropic
