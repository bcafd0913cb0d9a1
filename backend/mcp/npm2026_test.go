package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sdk2Server is a stdio connector running testdata/sdk2-server.mjs, a
// server on the official TypeScript SDK 2.0 that serves 2026-07-28 and the
// old era.
func sdk2Server(t *testing.T) Connector {
	t.Helper()
	npmPackage(t, "server-basic-vanillajs") // the npm servers are installed, or skip (or fail under MAESTRO_REQUIRE_MCP)
	if _, err := os.Stat(filepath.Join(os.Getenv(nodeModulesEnv), "@modelcontextprotocol", "server", "dist", "index.mjs")); err != nil {
		t.Fatalf("the TypeScript SDK's server package is not installed: %v", err)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "sdk2-server.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	return Connector{Name: "SDK2", Command: "node", Args: []string{script, os.Getenv(nodeModulesEnv)}}
}

// TestTypeScriptSDK2Server: the TypeScript SDK's own 2026-07-28 server
// negotiates the new era with Maestro's probe, and its Multi Round-Trip
// elicitation is answered through the Elicitor; pinned to 2025-11-25, the
// same tool asks with the old era's server request.
func TestTypeScriptSDK2Server(t *testing.T) {
	t.Parallel()
	for _, era := range []string{ProtocolModern, ProtocolLegacy} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			eli := &fakeElicitor{answer: ElicitationAnswer{Action: ActionAccept, Content: map[string]any{"name": "Ada"}},
				got: make(chan ElicitationRequest, 4)}
			h := newHarness(t, WithElicitor(eli, nil))
			cfg := sdk2Server(t)
			if era == ProtocolLegacy {
				cfg.ProtocolVersion = era
			}
			c := h.add(cfg)
			st := h.settle(c.ID)
			if st.State != StateReady || st.Protocol != era || !strings.HasPrefix(st.Server, "sdk2-test") {
				t.Fatalf("status = %+v, want ready on %s", st, era)
			}
			sess := h.session(c.ID)
			if got := text(t, h.call(t.Context(), sess, "sdk2.greet", `{}`, nil)); got != "Hello, Ada!" {
				t.Fatalf("greet = %q", got)
			}
			req := <-eli.got
			if req.Message != "What is your name?" || req.CallID != "call-1" || req.ConnectorName != "SDK2" {
				t.Errorf("elicitation = %+v", req)
			}
		})
	}
}

// TestMCPAppsExampleServer: the MCP Apps example server on npm
// (server-basic-vanillajs 2.0.3, built on the TypeScript SDK 2.0) does not
// turn on 2026-07-28 (its SDK serves it only when asked to): it answers
// server/discover with "method not found", and the connector falls back to
// initialize and works.
func TestMCPAppsExampleServer(t *testing.T) {
	t.Parallel()
	entry := npmPackage(t, "server-basic-vanillajs")
	h := newHarness(t)
	c := h.add(Connector{Name: "Basic", Command: "node", Args: []string{entry, "--stdio"}})
	st := h.settle(c.ID)
	if st.State != StateReady || st.Protocol != ProtocolLegacy {
		t.Fatalf("status = %+v, want ready on %s", st, ProtocolLegacy)
	}
	res := h.call(t.Context(), h.session(c.ID), "basic.get-time", `{}`, nil)
	if !res.Successful || !strings.Contains(string(res.Data), `"time"`) {
		t.Fatalf("get-time = %+v", res)
	}
}
