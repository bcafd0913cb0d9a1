package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// TestURLCredentials: a remote connector added with https://user:pw@host
// reaches a server that demands exactly that Basic auth, while its stored
// config and status carry the URL without the password (the header value
// is in the keychain). A URL with credentials and an Authorization header
// of its own is refused with the reason.
func TestURLCredentials(t *testing.T) {
	t.Parallel()
	srv := server.NewMCPServer("guarded", "1.0.0", server.WithToolCapabilities(true))
	srv.AddTool(mcpgo.NewTool("hello"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return mcpgo.NewToolResultText("hi"), nil
	})
	mcpHandler := server.NewStreamableHTTPServer(srv)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "me" || p != "hunter22" {
			http.Error(w, "who are you", http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	withCreds := strings.Replace(ts.URL, "http://", "http://me:hunter22@", 1) + "/mcp"

	h := newHarness(t)
	if _, err := h.sup.Add(t.Context(), Connector{Name: "Both", Transport: TransportHTTP, URL: withCreds,
		Headers: map[string]string{"authorization": "Bearer x"}}); err == nil || !strings.Contains(err.Error(), "keep one of them") {
		t.Errorf("Add with credentials and an Authorization header = %v; want a refusal saying to keep one", err)
	}
	c := h.add(Connector{Name: "Guarded", Transport: TransportHTTP, URL: withCreds})
	if st := h.settle(c.ID); st.State != StateReady {
		t.Fatalf("state = %s (%s); want ready with the credentials sent", st.State, st.Error)
	}
	if strings.Contains(c.URL, "hunter22") || c.URL != ts.URL+"/mcp" {
		t.Errorf("URL = %q; want %q, without the password", c.URL, ts.URL+"/mcp")
	}
	raw, err := h.st.Connectors(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range raw {
		if strings.Contains(string(r), "hunter22") || strings.Contains(string(r), "bWU6aHVudGVyMjI") {
			t.Errorf("the stored config carries the password: %s", r)
		}
	}
	sess := h.session(c.ID)
	if got := text(t, h.call(t.Context(), sess, "guarded.hello", `{}`, nil)); got != "hi" {
		t.Errorf("hello = %q; want hi", got)
	}
}
