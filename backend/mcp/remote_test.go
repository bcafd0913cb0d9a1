package mcp

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// remoteServer serves an mcp-go server over HTTP on addr ("" picks a
// port) until stop is called.
type remoteServer struct {
	addr string
	srv  *http.Server
	done chan struct{}
}

func serveRemote(t *testing.T, addr, kind string, tools ...string) *remoteServer {
	t.Helper()
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	var ln net.Listener
	var err error
	for i := 0; i < 50; i++ { // the port may linger a moment after a stop
		if ln, err = net.Listen("tcp", addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	mcpSrv := server.NewMCPServer("remote", "1.0.0", server.WithToolCapabilities(true), server.WithTaskCapabilities(true, true, true))
	addTaskTools(mcpSrv)
	for _, name := range tools {
		mcpSrv.AddTool(mcpgo.NewTool(name), func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			if name == "grow" { // adds a tool: list_changed
				mcpSrv.AddTool(mcpgo.NewTool("grown"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
					return mcpgo.NewToolResultText("grown"), nil
				})
			}
			return mcpgo.NewToolResultText("remote " + req.Params.Name), nil
		})
	}
	rs := &remoteServer{addr: ln.Addr().String(), done: make(chan struct{})}
	var h http.Handler
	switch kind {
	case "sse":
		h = server.NewSSEServer(mcpSrv, server.WithBaseURL("http://"+rs.addr))
	case "http-legacy": // a server that serves the old era only
		h = server.NewStreamableHTTPServer(mcpSrv, server.WithStreamableHTTPProtocolVersions(mcpgo.LegacyProtocolVersions()...))
	default:
		h = server.NewStreamableHTTPServer(mcpSrv)
	}
	rs.srv = &http.Server{Handler: h}
	go func() {
		defer close(rs.done)
		_ = rs.srv.Serve(ln)
	}()
	t.Cleanup(rs.stop)
	return rs
}

func (rs *remoteServer) stop() {
	_ = rs.srv.Close()
	<-rs.done
}

func TestRemoteTransports(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		kind TransportKind
		path string
	}{{TransportHTTP, "/mcp"}, {TransportSSE, "/sse"}} {
		t.Run(string(tt.kind), func(t *testing.T) {
			t.Parallel()
			rs := serveRemote(t, "", string(tt.kind), "hello")
			h := newHarness(t)
			c := h.add(Connector{Name: "Remote", Transport: tt.kind, URL: "http://" + rs.addr + tt.path,
				Headers: map[string]string{"X-Test": "1"}})
			sess := h.session(c.ID)
			if got := text(t, h.call(t.Context(), sess, "remote.hello", `{}`, nil)); got != "remote hello" {
				t.Fatalf("hello = %q", got)
			}
		})
	}
}

// TestRemoteServerRestartIsNoticed: a streamable HTTP server goes away and
// comes back with another tool list; the supervisor notices (ping),
// reconnects with backoff and re-lists the tools.
func TestRemoteServerRestartIsNoticed(t *testing.T) {
	t.Parallel()
	rs := serveRemote(t, "", "http", "a")
	h := newHarness(t, WithPingInterval(100*time.Millisecond))
	c := h.add(Connector{Name: "Remote", Transport: TransportHTTP, URL: "http://" + rs.addr + "/mcp"})
	sess := h.session(c.ID)
	ctx := t.Context()
	text(t, h.call(ctx, sess, "remote.a", `{}`, nil))

	rs.stop()
	st := h.waitState(c.ID, StateRestarting)
	if !strings.Contains(st.Error, "connection was lost") {
		t.Errorf("restarting because %q", st.Error)
	}
	serveRemote(t, rs.addr, "http", "a", "b")
	h.waitState(c.ID, StateReady)
	h.waitFor("the new tool in the registry", func() bool {
		snap, _ := h.reg.Snapshot(ctx, sess)
		_, ok := snap.Lookup("remote.b")
		return ok
	})
	if got := text(t, h.call(ctx, sess, "remote.b", `{}`, nil)); got != "remote b" {
		t.Fatalf("b = %q", got)
	}
}
