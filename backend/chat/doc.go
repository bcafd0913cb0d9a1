// Package chat is Maestro's canonical vocabulary: sessions, messages with
// ordered parts, tool calls and their results, usage, and the small set of
// error kinds that every other package classifies its failures into.
//
// Canonical state is the source of truth. Provider payloads are never stored:
// each adapter renders a request just in time from these types, and opaque
// provider state (Gemini thought signatures, OpenAI encrypted reasoning items,
// Anthropic thinking signatures) rides on the part that carries it, keyed by
// provider name, so it is replayed only to the provider that produced it.
//
// Attachments (files, MCP resources, tool results' images) are canonical
// too: each adapter declares AttachmentRules, the types and sizes its
// provider takes, and fits a history to them with Fit before it renders,
// so what the provider would refuse is refused (or, in older messages,
// noted) before anything is sent.
//
// Concurrency: the types here are plain values. They hold maps and slices, so
// a value shared between goroutines must be copied or guarded by its owner;
// nothing in this package locks.
package chat
