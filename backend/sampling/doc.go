// Package sampling answers MCP servers' sampling requests
// (sampling/createMessage) with a chat session's model, once the user has
// approved them (asking is the app's job). Runner.Run reads the session's
// provider and model, lets the request's model hints pick another model
// of that provider, renders the request as a chat.Request, and drains the
// model's stream into the text the server gets back.
//
// Concurrency: a Runner holds only its dependencies and may run requests
// concurrently; each Run uses its own context and stream.
package sampling
