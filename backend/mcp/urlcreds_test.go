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

// TestStartMovesOldURLCredentials: a connector stored with a password in
// its URL (before it was moved on save) has it moved to the keychain at
// start, once.
func TestStartMovesOldURLCredentials(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	ctx := t.Context()
	old := Connector{ID: "old", Name: "Old", Transport: TransportHTTP, URL: "http://me:hunter22@127.0.0.1:1/mcp"}
	if err := h.st.PutConnector(ctx, old.ID, storedConnector{Connector: old}); err != nil {
		t.Fatal(err)
	}
	if err := h.sup.Start(ctx); err != nil {
		t.Fatal(err)
	}
	raws, _ := h.st.Connectors(ctx)
	if len(raws) != 1 || strings.Contains(string(raws[0]), "hunter22") {
		t.Errorf("stored = %s; want one connector without the password", raws)
	}
	got, _ := h.sup.Connector("old")
	if got.URL != "http://127.0.0.1:1/mcp" || got.Headers["Authorization"] != "Basic bWU6aHVudGVyMjI=" {
		t.Errorf("after start: URL %q, headers %v; want the credentials as a Basic header", got.URL, got.Headers)
	}
}
