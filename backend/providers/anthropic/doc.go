// Package anthropic is Maestro's adapter for Anthropic's Messages API
// (POST {base}/v1/messages, streamed as server-sent events).
//
// It has two modes. By default it talks as a Claude subscription (OAuth)
// client: the *http.Client given with WithHTTPClient already adds the
// "Authorization: Bearer" header, the URL carries ?beta=true, anthropic-beta
// carries oauth-2025-04-20, and the system prompt starts with the Claude Code
// line the endpoint requires (providers.md §B4). WithAPIKey switches to the
// supported API-key mode (x-api-key, plain system prompt). Nothing here
// tries to hide what the client is (providers.md §0).
//
// Rendering is a pure function, toRequest, from a chat.Request to the wire
// body: roles are merged so they alternate, every tool_use is followed by a
// user message that starts with its tool_result, orphaned results are
// dropped, and thinking blocks are replayed only when this provider signed
// them. Parsing turns the SSE grammar of §B5 into chat events.
//
// Concurrency: a Model holds only configuration and is safe for concurrent
// use. Each Stream call owns its HTTP response; the returned sequence must be
// ranged at most once, by one goroutine. Stopping the range (or finishing it)
// closes the response body, so no goroutine outlives the iteration.
package anthropic
