package app

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"maestro/backend/providers/fakescript"
)

// TestSentResourceStaysFollowed: a resource attached to a message the chat
// has SENT stays followed (issue 15: "an attached resource the server marks
// as updated shows an 'updated' badge"): the server's update after the
// reply still names the chat; following it again, as the sent message's
// chip does when the chat is shown, asks the server nothing more; a second
// chat that follows it shares the one server subscription and is named
// too; a read gives the fresh version for the next message.
func TestSentResourceStaysFollowed(t *testing.T) {
	t.Parallel()
	var subscribes atomic.Int32
	hooks := &server.Hooks{}
	hooks.AddBeforeAny(func(_ context.Context, _ any, method mcpgo.MCPMethod, _ any) {
		if method == mcpgo.MethodResourcesSubscribe {
			subscribes.Add(1)
		}
	})
	srv := composeServer(server.WithHooks(hooks))
	ca, script, c, sid := composeChat(t, srv)
	a, ev := ca.App, ca.ev

	doc, err := a.Connectors.ReadResource(sid, c.ID, "test://doc")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Connectors.SubscribeResource(sid, c.ID, "test://doc"); err != nil {
		t.Fatal(err)
	}
	script.Push(fakescript.Reply{Text: "Read it."})
	sent, err := a.Chat.SendMessage(sid, "What does it say?", doc)
	if err != nil {
		t.Fatal(err)
	}
	ev.wait(t, EventRunFinished, func(d any) bool { f, ok := d.(FinishedDTO); return ok && f.RunID == sent.RunID })

	notify := func() ResourceUpdatedDTO { // the next resource:updated
		seen := ev.count(EventResourceUpdated)
		srv.SendNotificationToAllClients(string(mcpgo.MethodNotificationResourceUpdated), map[string]any{"uri": "test://doc"})
		return ev.waitFrom(t, seen, EventResourceUpdated, nil).(ResourceUpdatedDTO)
	}
	if up := notify(); up.ConnectorID != c.ID || up.URI != "test://doc" || !slices.Equal(up.SessionIDs, []string{sid}) {
		t.Errorf("resource:updated after sending = %+v; want test://doc for this chat", up)
	}

	if err := a.Connectors.SubscribeResource(sid, c.ID, "test://doc"); err != nil {
		t.Errorf("following a followed resource again: %v; want nil", err)
	}
	other := ca.chatWith(t, c.ID)
	if err := a.Connectors.SubscribeResource(other, c.ID, "test://doc"); err != nil {
		t.Fatal(err)
	}
	if got := subscribes.Load(); got != 1 {
		t.Errorf("resources/subscribe requests = %d; want 1 for two chats following one resource", got)
	}
	up := notify()
	want := []string{sid, other}
	slices.Sort(want) // the followers are named in order
	if !slices.Equal(up.SessionIDs, want) {
		t.Errorf("resource:updated names %v; want both chats %v", up.SessionIDs, want)
	}
	fresh, err := a.Connectors.ReadResource(sid, c.ID, "test://doc")
	if err != nil || len(fresh) != 1 || fresh[0].Text != "the doc's words" || fresh[0].ConnectorID != c.ID {
		t.Errorf("the fresh read = %+v, %v", fresh, err)
	}
}
