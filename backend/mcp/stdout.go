package mcp

import (
	"fmt"
	"maestro/backend/tools"
	"sync"
)

// What a link's bounded reader reports: what it cut, and what a stdio
// server wrote to stdout that is not JSON-RPC (a banner: the server then
// never answers, and the error must say why).

// readNote logs what the bounded reader cut or dropped.
func (l *link) readNote(s string) { l.r.log(SourceMaestro, "warning", "", s) }

// stdoutNoise logs a line a stdio server wrote to stdout that is not
// JSON-RPC (mcp-go would skip it silently) and keeps it for the error.
func (l *link) stdoutNoise(excerpt string, size int) {
	l.noise.add(excerpt)
	l.r.log(SourceMaestro, "warning", "", fmt.Sprintf("the server wrote to stdout a line that is not JSON-RPC (%s): %q; MCP servers write only JSON-RPC there, and logs to stderr", tools.HumanSize(size), excerpt))
}

// noiseNote says what a stdio server wrote to stdout instead of JSON-RPC,
// for an error message: a server that prints a banner there never answers.
func (l *link) noiseNote() string {
	if d := l.noise.describe(); d != "" {
		return "; " + d + " (an MCP server on stdio must write only JSON-RPC to stdout, and its logs to stderr)"
	}
	return ""
}

// noise keeps what a stdio server wrote to stdout that is not JSON-RPC:
// how many lines, and the first one (bounded), for the error that says why
// the server did not start. mu guards the rest.
type noise struct {
	mu    sync.Mutex
	lines int
	first string
}

func (n *noise) add(excerpt string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.lines == 0 {
		n.first = excerpt
	}
	n.lines++
}

// describe says what the server wrote, or "" when nothing.
func (n *noise) describe() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch n.lines {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("the server wrote to stdout a line that is not JSON-RPC: %q", n.first)
	}
	return fmt.Sprintf("the server wrote to stdout %d lines that are not JSON-RPC, the first: %q", n.lines, n.first)
}
