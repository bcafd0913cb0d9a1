package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/providers/fakescript"
)

// TestSetAppContext: what an MCP App's view said with
// ui/update-model-context rides the chat's next message to the model as a
// resource naming the app, once; a bad one is refused with the reason.
func TestSetAppContext(t *testing.T) {
	t.Parallel()
	ca, script := startToolChat(t, Runtime{}, mcp.WithInProcessServer("files", filesServer()))
	a := ca.App
	c := addFiles(t, ca)
	sid := ca.chatWith(t, c.ID)
	app := ToolAppDTO{ConnectorID: c.ID, ResourceURI: "ui://files/browser.html", Tool: "browse"}

	for _, tc := range []struct {
		name, sid, call string
		app             ToolAppDTO
		want            string
	}{
		{"unknown chat", "nope", "call-1", app, "not found"},
		{"unknown connector", sid, "call-1", ToolAppDTO{ConnectorID: "gone", ResourceURI: app.ResourceURI, Tool: "t"}, "no connector"},
		{"not a ui:// resource", sid, "call-1", ToolAppDTO{ConnectorID: c.ID, ResourceURI: "https://evil.example/", Tool: "t"}, "ui:// resource"},
	} {
		if err := a.Chat.SetAppContext(tc.sid, tc.call, tc.app, "x", ""); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: SetAppContext = %v; want an error saying %q", tc.name, err, tc.want)
		}
	}
	if err := a.Chat.SetAppContext(sid, "call-1", app, "the user opened notes.txt", `{"open":"notes.txt"}`); err != nil {
		t.Fatal(err)
	}
	send := func(text string) string {
		t.Helper()
		script.Push(fakescript.Reply{Text: "ok"}) // not the echo, which would repeat the context
		_, body := ca.sendAndWait(t, script, sid, text, nil)
		return body
	}
	body := send("What did I open?")
	for _, want := range []string{"the user opened notes.txt", `{\"open\":\"notes.txt\"}`, "State of the browse app", "ui://files/browser.html from Files", "not a request from the user"} {
		if !strings.Contains(body, want) {
			t.Errorf("the request lacks %q: %s", want, body)
		}
	}
	if body := send("And now?"); strings.Count(body, "the user opened notes.txt") != 1 {
		t.Errorf("the next request carries the context %d times; want once (in the first message's history)",
			strings.Count(body, "the user opened notes.txt"))
	}
}

// TestToolRunningCarriesApp: tool:running names the MCP App of a tool that
// has one, so its card draws the view while the call runs; a tool without
// a UI carries none.
func TestToolRunningCarriesApp(t *testing.T) {
	t.Parallel()
	srv := server.NewMCPServer("clock", "1.0.0", server.WithToolCapabilities(true), server.WithResourceCapabilities(false, false))
	shown := mcpgo.NewTool("show", mcpgo.WithReadOnlyHintAnnotation(true))
	shown.Meta = &mcpgo.Meta{AdditionalFields: map[string]any{"ui": map[string]any{"resourceUri": "ui://clock/show.html"}}}
	for _, tool := range []mcpgo.Tool{shown, mcpgo.NewTool("plain", mcpgo.WithReadOnlyHintAnnotation(true))} {
		srv.AddTool(tool, func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("12:00"), nil
		})
	}
	ca, script := startToolChat(t, Runtime{}, mcp.WithInProcessServer("clock", srv))
	run, ctx := ca.running(t)
	c, err := run.sup.Add(ctx, mcp.Connector{ID: chat.NewID(), Name: "Clock", Transport: mcp.TransportInProcess, Command: "clock",
		Approval: chat.PolicyAll})
	if err != nil {
		t.Fatal(err)
	}
	ca.Connectors.remember(c)
	ca.ev.wait(t, EventConnectorState, stateIs(c.ID, "ready"))
	sid := ca.chatWith(t, c.ID)
	script.Push(
		fakescript.Reply{ToolCalls: []fakescript.ToolCall{{Name: "clock__show", Args: json.RawMessage(`{}`)}, {Name: "clock__plain", Args: json.RawMessage(`{}`)}}},
		fakescript.Reply{Text: "Noon."},
	)
	ca.sendAndWait(t, script, sid, "What time is it?", nil)
	apps := map[string]*ToolAppDTO{}
	for _, d := range ca.ev.all(EventToolRunning) {
		e := d.(ToolEventDTO)
		apps[e.Name] = e.App
	}
	want := ToolAppDTO{ConnectorID: c.ID, ResourceURI: "ui://clock/show.html", Tool: "show"}
	if got := apps["clock.show"]; got == nil || *got != want {
		t.Errorf("tool:running of clock.show carries %+v; want %+v", got, want)
	}
	if got, ok := apps["clock.plain"]; !ok || got != nil {
		t.Errorf("tool:running of clock.plain carries %+v (seen %v); want none", got, ok)
	}
}
