package app

import (
	"strings"
	"testing"

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
