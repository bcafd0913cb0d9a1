// Package providers holds what the three provider adapters share: the typed
// HTTPError with its kinds, the retry policy the agent applies to it, an SSE
// reader, and the mapping of canonical tool-call ids to ids each provider
// accepts. The adapters live in the gemini, anthropic and openai
// subpackages; the interface they satisfy is defined by backend/agent.
//
// Concurrency: everything here is stateless or per-call; an SSE reader
// belongs to the goroutine ranging over it.
package providers
