package mcp

import (
	"testing"
)

// TestNegotiatedProtocols: the protocol revision each test server of the
// suites negotiates with Maestro's probe (server/discover, then initialize),
// as docs/CONFORMANCE.md lists them. Run with -v for the table.
func TestNegotiatedProtocols(t *testing.T) {
	t.Parallel()
	everything := npmPackage(t, "server-everything")
	files := npmPackage(t, "server-filesystem")
	apps := npmPackage(t, "server-basic-vanillajs")
	for _, tc := range []struct {
		name string
		conn func(t *testing.T) Connector
		want string
	}{
		{"mcp-go test server (stdio)", func(t *testing.T) Connector { return selfServer(t, "Eras", "serve") }, ProtocolModern},
		{"mcp-go test server (streamable HTTP)", func(t *testing.T) Connector {
			return Connector{Name: "Eras", Transport: TransportHTTP, URL: "http://" + serveRemote(t, "", "http", "a").addr + "/mcp"}
		}, ProtocolModern},
		{"mcp-go test server, old era only (streamable HTTP)", func(t *testing.T) Connector {
			return Connector{Name: "Eras", Transport: TransportHTTP, URL: "http://" + serveRemote(t, "", "http-legacy", "a").addr + "/mcp"}
		}, ProtocolLegacy},
		{"mcp-go test server (SSE)", func(t *testing.T) Connector {
			return Connector{Name: "Eras", Transport: TransportSSE, URL: "http://" + serveRemote(t, "", "sse", "a").addr + "/sse"}
		}, ProtocolLegacy},
		{"hostile server (stdio)", func(t *testing.T) Connector { return selfServer(t, "Hostile", "hostile") }, ProtocolModern},
		{"TypeScript SDK 2.0 server (testdata/sdk2-server.mjs)", sdk2Server, ProtocolModern},
		{"server-basic-vanillajs (MCP Apps example)", func(*testing.T) Connector {
			return Connector{Name: "Basic", Command: "node", Args: []string{apps, "--stdio"}}
		}, ProtocolLegacy},
		{"server-everything (stdio)", func(*testing.T) Connector {
			return Connector{Name: "Everything", Command: "node", Args: []string{everything, "stdio"}}
		}, ProtocolLegacy},
		{"server-everything (streamable HTTP)", func(t *testing.T) Connector {
			return Connector{Name: "Everything", Transport: TransportHTTP, URL: startEverythingHTTP(t, everything)}
		}, ProtocolLegacy},
		{"server-filesystem (stdio)", func(t *testing.T) Connector {
			return Connector{Name: "Files", Command: "node", Args: []string{files, t.TempDir()}}
		}, ProtocolLegacy},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			c := h.add(tc.conn(t))
			st := h.settle(c.ID)
			t.Logf("%s: %s (%s)", tc.name, st.Protocol, st.Server)
			if st.State != StateReady || st.Protocol != tc.want {
				t.Fatalf("state %s (%s), protocol %q; want ready with %q", st.State, st.Error, st.Protocol, tc.want)
			}
		})
	}
}
