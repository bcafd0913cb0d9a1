// Package agent runs a chat turn: it persists the user's message, renders
// each request from canonical history and the session's current tool
// overlay, streams the model's reply, executes tool calls, and loops until a
// step has no tool calls or the step cap is reached.
//
// The agent works against small interfaces it defines itself (Model here;
// tools, store and event sink alongside the turn loop), so the provider
// adapters, the MCP registry and the bbolt store never depend on it.
package agent
