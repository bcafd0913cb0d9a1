package mcp

import (
	"slices"
	"strings"
	"testing"
)

func TestQuoteTailFindsTheReason(t *testing.T) {
	t.Parallel()
	// node /missing.js, as its stderr reads.
	node := strings.Split(strings.TrimSpace(`node:internal/modules/cjs/loader:1210
  throw err;
  ^
Error: Cannot find module '/nope/missing.js'
    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)
    at Module._load (node:internal/modules/cjs/loader:1038:27)
    at node:internal/main/run_main_module:28:49 {
  code: 'MODULE_NOT_FOUND',
  requireStack: []
}
Node.js v20.20.2`), "\n")
	cases := []struct {
		in   []string
		want []string
	}{
		{node, []string{"Error: Cannot find module '/nope/missing.js'", "Node.js v20.20.2"}},
		{[]string{"loading config", "boom: missing API_KEY"}, []string{"loading config", "boom: missing API_KEY"}},
		{[]string{"a", "b", "c", "ValueError: bad", "e"}, []string{"c", "ValueError: bad", "e"}},
		{[]string{"a", "b", "c", "d"}, []string{"b", "c", "d"}},
		{[]string{"Traceback (most recent call last):", "  File x", "ModuleNotFoundError: No module named 'mcp'"},
			[]string{"Traceback (most recent call last):", "  File x", "ModuleNotFoundError: No module named 'mcp'"}},
		{nil, nil},
	}
	for _, c := range cases {
		if got := quoteTail(c.in, quoteLines); !slices.Equal(got, c.want) {
			t.Errorf("quoteTail(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if len(node) > tailLines {
		t.Errorf("a Node start-up failure has %d lines; the state keeps only %d", len(node), tailLines)
	}
}
