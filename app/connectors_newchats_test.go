package app

import (
	"slices"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
)

// Settings' "Connectors for new chats": the flag decides what a new chat
// starts with, is stored, and keeps the connector's secrets and process.
func TestSetNewChats(t *testing.T) {
	t.Parallel()
	a := startConnApp(t, Runtime{})
	hs := newHTTPServer(t, mcpgo.NewTool("read"))
	const token = "Bearer sk-live-newchats-0123456789"
	c, err := a.Connectors.Save(ConnectorInputDTO{Name: "Files", Transport: "http", URL: hs.URL + "/mcp",
		Headers: []KeyValueInputDTO{{Key: "Authorization", Value: token}}})
	if err != nil {
		t.Fatal(err)
	}
	a.ev.wait(t, EventConnectorState, stateIs(c.ID, "ready"))
	run, ctx := a.running(t)
	startsWith := func() []string {
		t.Helper()
		s, err := a.Sessions.Create("")
		if err != nil {
			t.Fatal(err)
		}
		stored, err := run.store.Session(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		return stored.EnabledConnectors
	}

	for _, on := range []bool{false, true, true} {
		got, err := a.Connectors.SetNewChats(c.ID, on)
		if err != nil || got.NewChats != on || got.State != "ready" {
			t.Fatalf("SetNewChats(%v) = newChats %v, state %q, %v; want %v and still ready", on, got.NewChats, got.State, err, on)
		}
		if in := slices.Contains(startsWith(), c.ID); in != on {
			t.Errorf("after SetNewChats(%v) a new chat starts with the connector: %v", on, in)
		}
		var stored struct {
			NewChats bool `json:"newChats"`
		}
		if err := run.store.Connector(ctx, c.ID, &stored); err != nil || stored.NewChats != on {
			t.Errorf("stored newChats after SetNewChats(%v) = %v, %v", on, stored.NewChats, err)
		}
	}
	if raw, _ := a.secrets.Get(t.Context(), "mcp-connector:"+c.ID); !strings.Contains(raw, token) {
		t.Errorf("keychain entry = %q; want the header kept", raw)
	}
	if _, err := a.Connectors.SetNewChats("nope", true); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("unknown connector: kind %q (%v); want not_found", chat.Kind(err), err)
	}
}
