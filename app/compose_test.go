package app

import (
	"context"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/providers/fakescript"
)

// composeServer offers a prompt with a required argument, a text resource
// that can be followed, and a tool whose result links to it.
func composeServer(opts ...server.ServerOption) *server.MCPServer {
	opts = append([]server.ServerOption{server.WithPromptCapabilities(true), server.WithResourceCapabilities(true, true)}, opts...)
	srv := server.NewMCPServer("compose", "1.0.0", opts...)
	srv.AddPrompt(mcpgo.NewPrompt("greet", mcpgo.WithArgument("name", mcpgo.RequiredArgument())),
		func(_ context.Context, r mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
			return mcpgo.NewGetPromptResult("", []mcpgo.PromptMessage{
				mcpgo.NewPromptMessage(mcpgo.RoleUser, mcpgo.NewTextContent("Say hello to "+r.Params.Arguments["name"]))}), nil
		})
	srv.AddResource(mcpgo.NewResource("test://doc", "doc", mcpgo.WithMIMEType("text/plain")),
		func(context.Context, mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: "test://doc", MIMEType: "text/plain", Text: "the doc's words"}}, nil
		})
	srv.AddTool(mcpgo.NewTool("link", mcpgo.WithReadOnlyHintAnnotation(true)), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return &mcpgo.CallToolResult{Content: []mcpgo.Content{mcpgo.NewResourceLink("test://doc", "doc", "", "text/plain")}}, nil
	})
	return srv
}

// composeChat runs srv in process as the ready "Compose" connector of an
// app on Gemini's fake, and makes a chat with it on.
func composeChat(t *testing.T, srv *server.MCPServer) (*connApp, *fakescript.Script, mcp.Connector, string) {
	t.Helper()
	ca, script := startToolChat(t, Runtime{}, mcp.WithInProcessServer("compose", srv))
	run, ctx := ca.running(t)
	c := mcp.Connector{ID: chat.NewID(), Name: "Compose", Transport: mcp.TransportInProcess, Command: "compose", ProtocolVersion: mcp.ProtocolLegacy}
	ca.Connectors.remember(c)
	c, err := run.sup.Add(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	ca.ev.wait(t, EventConnectorState, stateIs(c.ID, "ready"))
	return ca, script, c, ca.chatWith(t, c.ID)
}

// TestComposePromptsResourcesAndAttachments: through the bound methods, a
// chat lists and runs a prompt, reads and follows a resource, sends it
// with a file to the provider's fake, reads a tool result's link, and an
// attachment the model refuses is said before sending.
func TestComposePromptsResourcesAndAttachments(t *testing.T) {
	t.Parallel()
	srv := composeServer()
	ca, script, c, sid := composeChat(t, srv)
	a, ev := ca.App, ca.ev

	list, err := a.Connectors.Prompts(sid)
	if err != nil || len(list.Prompts) != 1 || list.Prompts[0].Name != "greet" || !list.Prompts[0].Arguments[0].Required {
		t.Fatalf("Prompts = %+v, %v; want greet with its required argument", list, err)
	}
	if _, err := a.Connectors.GetPrompt(sid, c.ID, "greet", nil); chat.Kind(err) != chat.KindInvalid || !strings.Contains(err.Error(), "name") {
		t.Errorf("GetPrompt without its argument: %v; want invalid, naming it", err)
	}
	parts, err := a.Connectors.GetPrompt(sid, c.ID, "greet", map[string]string{"name": "Ada"})
	if err != nil || len(parts) != 1 || parts[0].Text != "Say hello to Ada" {
		t.Fatalf("GetPrompt = %+v, %v", parts, err)
	}

	page, err := a.Connectors.Resources(sid, c.ID, "")
	if err != nil || len(page.Resources) != 1 || page.Resources[0].URI != "test://doc" {
		t.Fatalf("Resources = %+v, %v", page, err)
	}
	doc, err := a.Connectors.ReadResource(sid, c.ID, "test://doc")
	if err != nil || len(doc) != 1 || doc[0].Text != "the doc's words" || doc[0].ConnectorID != c.ID {
		t.Fatalf("ReadResource = %+v, %v", doc, err)
	}
	if err := a.Connectors.SubscribeResource(sid, c.ID, "test://doc"); err != nil {
		t.Fatal(err)
	}
	srv.SendNotificationToAllClients(string(mcpgo.MethodNotificationResourceUpdated), map[string]any{"uri": "test://doc"})
	up := ev.wait(t, EventResourceUpdated, nil).(ResourceUpdatedDTO)
	if up.URI != "test://doc" || len(up.SessionIDs) != 1 || up.SessionIDs[0] != sid {
		t.Errorf("resource:updated = %+v; want test://doc for this chat", up)
	}

	refused, err := a.Chat.CheckAttachments(sid, []DraftPartDTO{{Type: "file", Name: "a.zip", MIMEType: "application/zip", Data: "UEsDBA=="}})
	if err != nil || len(refused) != 1 || !strings.Contains(refused[0], "a.zip") {
		t.Errorf("CheckAttachments(zip) = %v, %v; want the refusal naming a.zip", refused, err)
	}
	attach := append(doc, DraftPartDTO{Type: "file", Name: "notes.md", MIMEType: "text/markdown", Data: "IyBub3RlczogYnV5IG1pbGs="})
	if ok, err := a.Chat.CheckAttachments(sid, attach); err != nil || len(ok) != 0 {
		t.Errorf("CheckAttachments(doc, notes) = %v, %v; want none", ok, err)
	}
	script.Push(fakescript.Reply{Text: "Read them."})
	sent, body := ca.sendAndWait(t, script, sid, "Summarise these", attach)
	for _, want := range []string{"the doc's words", "test://doc", "buy milk"} {
		if !strings.Contains(body, want) {
			t.Errorf("the provider's request lacks %q", want)
		}
	}
	kinds := map[string]bool{}
	for _, p := range sent.Message.Parts {
		kinds[p.Type] = true
	}
	if !kinds["file"] || !kinds["resource"] {
		t.Errorf("stored message parts = %+v; want a file and a resource", sent.Message.Parts)
	}

	link, err := a.Connectors.ReadToolResource(sid, "compose.link", "test://doc")
	if err != nil || len(link) != 1 || link[0].Text != "the doc's words" {
		t.Errorf("ReadToolResource = %+v, %v", link, err)
	}
	if _, err := a.Connectors.ReadToolResource(sid, "other.tool", "test://doc"); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("ReadToolResource of a tool not in the chat: %v; want not found", err)
	}
	off, err := a.Connectors.Offering(c.ID)
	if err != nil || len(off.Prompts) != 1 || len(off.Resources) != 1 {
		t.Errorf("Offering = %+v, %v", off, err)
	}
	if _, err := a.Connectors.SetSessionConnector(sid, c.ID, false); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Connectors.Prompts(sid); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Connectors.ReadResource(sid, c.ID, "test://doc"); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("ReadResource after the chat turned the connector off: %v; want not found", err)
	}
}
