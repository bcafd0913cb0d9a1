// Package toolbox is the agent's view of the sessions' MCP tools: a
// Toolbox implements agent.Tools on a tools.Registry (which tools a
// session has, under which names, at which revision) and an
// mcp.Supervisor (which runs them). Overlay declares the session's current
// snapshot to the provider; Call runs search_tools in the registry and
// every other tool on its server, looked up by canonical name in the
// session's current snapshot, so a tool switched off since the request
// was built is not run. The server's progress notifications and log
// messages reach the call's report function: progress by its token, log
// messages (which MCP does not tie to a request) by connector, to the
// newest call running on it (ServerLog).
//
// Concurrency: a Toolbox is safe for concurrent use. mu guards the calls
// in flight by connector; report functions are called without it held.
package toolbox
