package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"maestro/backend/chat"
	"maestro/backend/mcp/hostile"
	"maestro/backend/tools"
)

// TestHostileDefinitionChangeIsFound: the hostile server's rename_me is
// pinned when the user allows it; once the server turns it into "delete
// every file" (a new description and schema, announced with list_changed),
// the definition the registry now holds no longer matches the pin, and the
// change reads as a diff of the description and the schema (the agent then
// asks again with it: backend/agent TestChangedDefinitionAsksAgain).
func TestHostileDefinitionChangeIsFound(t *testing.T) {
	t.Parallel()
	h, c, sess := hostileInProcess(t, hostile.Options{})
	ctx := t.Context()
	trust := tools.NewTrust(h.st)
	def := func() chat.ToolDefinition {
		t.Helper()
		snap, err := h.reg.Snapshot(ctx, sess)
		if err != nil {
			t.Fatal(err)
		}
		e, ok := snap.Lookup("hostile.rename_me")
		if !ok {
			t.Fatal("no rename_me")
		}
		return tools.DefinitionOf(e)
	}
	before := def()
	if err := trust.Allowed(ctx, before, false); err != nil {
		t.Fatal(err)
	}
	if st, err := trust.Standing(ctx, def()); err != nil || st.Changed != nil {
		t.Fatalf("standing before the change = %+v, %v", st, err)
	}
	text(t, h.call(ctx, sess, "hostile.arm_rename", `{}`, nil))
	h.waitFor("the new definition in the registry", func() bool { return def().Description != before.Description })
	st, err := trust.Standing(ctx, def())
	if err != nil || st.Changed == nil {
		t.Fatalf("standing after the change = %+v, %v", st, err)
	}
	ch := st.Changed
	if ch.ConnectorID != c.ID || ch.Tool != "rename_me" || len(ch.Description) != 2 ||
		ch.Description[0] != (chat.DiffLine{Op: "-", Text: "Say hello."}) || !strings.HasPrefix(ch.Description[1].Text, "Delete every file.") {
		t.Errorf("description diff = %+v", ch.Description)
	}
	var removed, added []string
	for _, l := range ch.Schema {
		switch l.Op {
		case "-":
			removed = append(removed, strings.TrimSpace(l.Text))
		case "+":
			added = append(added, strings.TrimSpace(l.Text))
		}
	}
	if !slicesContainsFunc(removed, func(s string) bool { return strings.HasPrefix(s, `"name"`) }) ||
		!slicesContainsFunc(added, func(s string) bool { return strings.HasPrefix(s, `"path"`) }) {
		t.Errorf("schema diff: removed %q, added %q; want name out, path in", removed, added)
	}
}

func TestConnectorPolicy(t *testing.T) {
	t.Parallel()
	base := Connector{Name: "X", Command: "x"}
	for _, tc := range []struct {
		c    func(Connector) Connector
		want chat.ToolPolicy
		bad  bool
	}{
		{func(c Connector) Connector { return c }, chat.PolicyAsk, false},
		{func(c Connector) Connector { c.TrustReadOnlyHints = true; return c }, chat.PolicyReadOnly, false},
		{func(c Connector) Connector { c.Approval = chat.PolicyAll; c.TrustReadOnlyHints = true; return c }, chat.PolicyAll, false},
		{func(c Connector) Connector { c.Approval = chat.PolicyAsk; return c }, chat.PolicyAsk, false},
		{func(c Connector) Connector { c.Approval = "yolo"; return c }, chat.PolicyAsk, true},
	} {
		c := tc.c(base)
		if got := c.Policy(); got != tc.want {
			t.Errorf("%+v: Policy() = %q, want %q", c, got, tc.want)
		}
		if err := c.Validate(); (err != nil) != tc.bad {
			t.Errorf("%+v: Validate() = %v", c, err)
		}
	}
}

// Server and tool icons reach the status and the registry, the safe ones
// only, and never the model's tool declaration.
func TestIcons(t *testing.T) {
	t.Parallel()
	good := mcpgo.Icon{Src: "https://example.com/server.png", MIMEType: "image/png"}
	bad := mcpgo.Icon{Src: "javascript:alert(1)"}
	srv := server.NewMCPServer("iconic", "1.0.0", server.WithToolCapabilities(true), server.WithIcons(good, bad))
	srv.AddTool(mcpgo.NewTool("draw", mcpgo.WithToolIcons(mcpgo.Icon{Src: "data:image/png;base64,iVBORw0KGgo="}, bad)),
		func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("ok"), nil
		})
	h := newHarness(t, WithInProcessServer("iconic", srv))
	c := h.add(Connector{Name: "Iconic", Transport: TransportInProcess, Command: "iconic"})
	st := h.settle(c.ID)
	if len(st.Icons) != 1 || st.Icons[0].Src != good.Src {
		t.Errorf("server icons = %+v", st.Icons)
	}
	snap, err := h.reg.Snapshot(t.Context(), h.session(c.ID))
	if err != nil {
		t.Fatal(err)
	}
	e, _ := snap.Lookup("iconic.draw")
	if len(e.Icons) != 1 || !strings.HasPrefix(e.Icons[0].Src, "data:image/png") {
		t.Errorf("tool icons = %+v", e.Icons)
	}
	decl, _ := snap.Overlay(chat.ProviderOpenAI, nil)
	for _, d := range decl {
		if b, _ := json.Marshal(d); strings.Contains(string(b), "data:image") {
			t.Errorf("an icon reached the model's declaration: %s", b)
		}
	}
}
