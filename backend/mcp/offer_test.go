package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// promptServer is an in-process server with prompts and subscribable
// resources; it counts the subscribe and unsubscribe requests it gets.
func promptServer(subs, unsubs *atomic.Int32) *server.MCPServer {
	hooks := &server.Hooks{}
	hooks.AddBeforeSubscribe(func(context.Context, any, *mcpgo.SubscribeRequest) { subs.Add(1) })
	hooks.AddBeforeUnsubscribe(func(context.Context, any, *mcpgo.UnsubscribeRequest) { unsubs.Add(1) })
	srv := server.NewMCPServer("prompts", "1.0.0", server.WithPromptCapabilities(true),
		server.WithResourceCapabilities(true, true), server.WithHooks(hooks))
	addPrompt(srv, "one")
	srv.AddResource(mcpgo.NewResource("test://doc", "doc", mcpgo.WithMIMEType("text/plain")),
		func(context.Context, mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: "test://doc", MIMEType: "text/plain", Text: "doc"}}, nil
		})
	return srv
}

func addPrompt(srv *server.MCPServer, name string) {
	srv.AddPrompt(mcpgo.NewPrompt(name, mcpgo.WithPromptDescription("the "+name+" prompt")),
		func(context.Context, mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
			return mcpgo.NewGetPromptResult("", []mcpgo.PromptMessage{
				mcpgo.NewPromptMessage(mcpgo.RoleUser, mcpgo.NewTextContent("this is "+name))}), nil
		})
}

// promptHarness runs srv in process as the "Prompts" connector, with
// feature events recorded.
func promptHarness(t *testing.T, srv *server.MCPServer) (*harness, *featureRec, Connector) {
	t.Helper()
	rec := newFeatureRec()
	h := newHarness(t, WithInProcessServer("prompts", srv), WithFeatureEvents(rec))
	return h, rec, h.add(Connector{Name: "Prompts", Transport: TransportInProcess, Command: "prompts"})
}

func promptNames(t testing.TB, h *harness, sess string) []string {
	t.Helper()
	list, err := h.sup.Prompts(t.Context(), sess)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range list.Prompts {
		names = append(names, p.Name)
	}
	return names
}

// A prompt list is read once, read again after list_changed, and a flood
// of list_changed is one event until the list is read.
func TestPromptsListChanged(t *testing.T) {
	t.Parallel()
	var subs, unsubs atomic.Int32
	srv := promptServer(&subs, &unsubs)
	h, rec, c := promptHarness(t, srv)
	sess := h.session(c.ID)
	if got := promptNames(t, h, sess); !slices.Equal(got, []string{"one"}) {
		t.Fatalf("prompts = %v; want [one]", got)
	}
	addPrompt(srv, "two")
	h.waitFor("PromptsChanged", func() bool { n, _ := rec.counts(c.ID); return n == 1 })
	if got := promptNames(t, h, sess); !slices.Equal(got, []string{"one", "two"}) {
		t.Fatalf("prompts after list_changed = %v; want [one two]", got)
	}
	// A flood: one event, since nobody read the list in between. The
	// followed resource's update, sent last, marks the end of the flood
	// (one connection delivers notifications in order).
	if err := h.sup.Subscribe(t.Context(), sess, c.ID, "test://doc"); err != nil {
		t.Fatal(err)
	}
	for range 90 { // the in-process session queues 100 notifications
		srv.SendNotificationToAllClients(string(mcpgo.MethodNotificationPromptsListChanged), nil)
	}
	srv.SendNotificationToAllClients(string(mcpgo.MethodNotificationResourceUpdated), map[string]any{"uri": "test://doc"})
	h.waitFor("the marker", func() bool { return len(rec.updatesOf("test://doc")) == 1 })
	if n, _ := rec.counts(c.ID); n != 2 {
		t.Errorf("PromptsChanged after a flood of 90 = %d events; want 2 in all", n)
	}
}

// Subscriptions are per connector: one resources/subscribe for any number
// of sessions, renewed when the connector reconnects, dropped with the
// last session; updates for resources nobody follows are ignored.
func TestSubscriptionsAcrossSessionsAndReconnects(t *testing.T) {
	t.Parallel()
	for _, protocol := range []string{ProtocolLegacy, ProtocolModern} {
		t.Run(protocol, func(t *testing.T) {
			t.Parallel()
			testSubscriptions(t, protocol)
		})
	}
}

// testSubscriptions runs the subscription story in one era. In 2025-11-25
// the server counts resources/subscribe and resources/unsubscribe; in
// 2026-07-28 they are gone (the subscriptions ride the listen stream), so
// only the updates reaching both sessions are checked.
func testSubscriptions(t *testing.T, protocol string) {
	legacy := protocol == ProtocolLegacy
	var subs, unsubs atomic.Int32
	srv := promptServer(&subs, &unsubs)
	rec := newFeatureRec()
	h := newHarness(t, WithInProcessServer("prompts", srv), WithFeatureEvents(rec))
	c := h.add(Connector{Name: "Prompts", Transport: TransportInProcess, Command: "prompts", ProtocolVersion: protocol})
	a, b := h.session(c.ID), h.session(c.ID)
	ctx := t.Context()
	for _, s := range []string{a, b, a} {
		if err := h.sup.Subscribe(ctx, s, c.ID, "test://doc"); err != nil {
			t.Fatal(err)
		}
	}
	if got := subs.Load(); legacy && got != 1 {
		t.Errorf("resources/subscribe sent %d times for two sessions; want 1", got)
	}
	r := h.sup.mustRunner(t, c.ID)
	old := r.current()
	if err := h.sup.Restart(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	// Restart only kicks the runner: the old link may still look ready.
	// The new link is visible once its subscriptions are renewed (in
	// 2026-07-28, on the listen stream opened before it is ready).
	h.waitFor("the new link", func() bool { l := r.current(); return l != nil && l != old })
	if legacy {
		h.waitFor("the subscription renewed on the new link", func() bool { return subs.Load() == 2 })
	}
	h.settle(c.ID)
	srv.SendNotificationToAllClients(string(mcpgo.MethodNotificationResourceUpdated), map[string]any{"uri": "test://other"})
	srv.SendNotificationToAllClients(string(mcpgo.MethodNotificationResourceUpdated), map[string]any{"uri": "test://doc"})
	h.waitFor("the update", func() bool { return len(rec.updatesOf("test://doc")) > 0 })
	if u := rec.updatesOf("test://doc")[0]; !slices.Equal(u.sessions, sortedPair(a, b)) {
		t.Errorf("update sessions = %v; want both", u.sessions)
	}
	if got := rec.updatesOf("test://other"); len(got) != 0 {
		t.Errorf("an update nobody follows reached the events: %+v", got)
	}
	for i, s := range []string{a, b} {
		if err := h.sup.Unsubscribe(ctx, s, c.ID, "test://doc"); err != nil {
			t.Fatal(err)
		}
		if got, want := unsubs.Load(), int32(i); legacy && got != want {
			t.Errorf("after %d unsubscribes the server got %d; want %d", i+1, got, want)
		}
	}
}

func sortedPair(a, b string) []string {
	s := []string{a, b}
	slices.Sort(s)
	return s
}

// A server that subscribes nothing is told so; a session cannot follow
// the resources of a connector it does not enable.
func TestSubscribeRefusals(t *testing.T) {
	t.Parallel()
	h := newHarness(t, WithInProcessServer("test", newServer("test")))
	c := h.add(Connector{Name: "Test", Transport: TransportInProcess, Command: "test"})
	err := h.sup.Subscribe(t.Context(), h.session(c.ID), c.ID, "x://y")
	if err == nil || !errContains(err, "does not offer resource subscriptions") {
		t.Errorf("err = %v; want the server's lack of subscriptions", err)
	}
	if err := h.sup.Subscribe(t.Context(), h.session(), c.ID, "x://y"); err == nil || !errContains(err, "not on in this chat") {
		t.Errorf("err = %v; want the connector not on in the chat", err)
	}
}

func errContains(err error, s string) bool { return err != nil && strings.Contains(err.Error(), s) }

// pages stops a server that pages forever, or repeats a cursor.
func TestPagesBounded(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		next      func(n int) mcpgo.Cursor
		wantPages int
	}{
		{"forever", func(n int) mcpgo.Cursor { return mcpgo.Cursor(fmt.Sprint(n + 1)) }, maxListPages},
		{"a repeated cursor", func(n int) mcpgo.Cursor { return mcpgo.Cursor(fmt.Sprint(min(n+1, 3))) }, 3},
		{"the end", func(n int) mcpgo.Cursor { return "" }, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			n := 0
			items, err := pages(t.Context(), func(mcpgo.Cursor) ([]int, mcpgo.Cursor, error) {
				n++
				return []int{n}, tt.next(n), nil
			})
			if err != nil || n != tt.wantPages || len(items) != n {
				t.Errorf("read %d pages (%d items, %v); want %d", n, len(items), err, tt.wantPages)
			}
		})
	}
	n := 0
	items, _ := pages(t.Context(), func(mcpgo.Cursor) ([]int, mcpgo.Cursor, error) {
		n++
		return make([]int, 1500), mcpgo.Cursor(fmt.Sprint(n)), nil
	})
	if len(items) != maxListed {
		t.Errorf("kept %d items; want at most %d", len(items), maxListed)
	}
	boom := errors.New("boom")
	if _, err := pages(t.Context(), func(mcpgo.Cursor) ([]int, mcpgo.Cursor, error) { return nil, "", boom }); !errors.Is(err, boom) {
		t.Errorf("err = %v; want the page's error", err)
	}
}
