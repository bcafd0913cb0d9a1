// Package providers holds what the three provider adapters share: an SSE
// reader, JSON helpers for the request bodies (a compact-JSON check, a
// string writer), the reading of a tool call's arguments, and the mapping of
// canonical tool-call ids and names to ones each provider accepts. The
// adapters live in the gemini, anthropic and openai subpackages and report
// every failure as a *chat.ProviderError; the interface they satisfy is
// defined by backend/agent.
//
// Concurrency: everything here is stateless or per-call; an SSE reader
// belongs to the goroutine ranging over it.
package providers
