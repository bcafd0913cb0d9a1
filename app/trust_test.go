package app

import (
	"encoding/json"
	"slices"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/providers/fakescript"
	"maestro/backend/tools"
)

// TestChatApprovalOverride: the Tools panel carries the connector's policy,
// the chat's override and each tool's annotations; "allow read-only" set
// for one chat runs a read-only tool there without asking, while another
// chat still asks.
func TestChatApprovalOverride(t *testing.T) {
	t.Parallel()
	ca, srv := startToolChat(t, Runtime{}, mcp.WithInProcessServer("files", filesServer()))
	a, ev := ca.App, ca.ev
	c := addFiles(t, ca)
	here, other := ca.chatWith(t, c.ID), ca.chatWith(t, c.ID)

	if err := a.Connectors.SetSessionApproval(here, c.ID, "maybe"); err == nil {
		t.Errorf("SetSessionApproval(maybe) = nil, want an error")
	}
	if err := a.Connectors.SetSessionApproval(here, c.ID, chat.PolicyReadOnly); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		session, chatApproval string
	}{{here, "read_only"}, {other, ""}} {
		panel, err := a.Connectors.SessionTools(tc.session)
		if err != nil {
			t.Fatal(err)
		}
		pc := panel.Connectors[0]
		if pc.Approval != "ask" || pc.ChatApproval != tc.chatApproval {
			t.Errorf("approval = %q, chat's %q; want ask, %q", pc.Approval, pc.ChatApproval, tc.chatApproval)
		}
		read := pc.Tools[slices.IndexFunc(pc.Tools, func(x SessionToolDTO) bool { return x.Name == "read" })]
		if read.Hints == nil || read.Hints.ReadOnly == nil || !*read.Hints.ReadOnly {
			t.Errorf("read's hints = %+v, want the server's readOnlyHint", read.Hints)
		}
	}

	readCall := func(session string) {
		t.Helper()
		srv.Push(
			fakescript.Reply{ToolCalls: []fakescript.ToolCall{{Name: "files__read", Args: json.RawMessage(`{"path":"a.txt"}`)}}},
			fakescript.Reply{Text: "read it"},
		)
		sent, err := a.Chat.SendMessage(session, "Read a.txt", nil)
		if err != nil {
			t.Fatal(err)
		}
		if session == other {
			q := ev.wait(t, EventApproval, nil).(ApprovalDTO)
			if q.RunID != sent.RunID || q.Name != "files.read" {
				t.Errorf("approval:needed = %+v, want files.read in the other chat's run", q)
			}
			if err := a.Chat.AnswerApproval(q.RequestID, DecisionAllowOnce); err != nil {
				t.Fatal(err)
			}
		}
		fin := ev.wait(t, EventRunFinished, func(d any) bool { f, ok := d.(FinishedDTO); return ok && f.RunID == sent.RunID }).(FinishedDTO)
		if fin.Error != nil {
			t.Fatalf("run failed: %+v", fin.Error)
		}
	}
	readCall(here)
	if n := ev.count(EventApproval); n != 0 {
		t.Fatalf("the chat that allows read-only asked %d times, want 0", n)
	}
	readCall(other)
	if n := ev.count(EventApproval); n != 1 {
		t.Errorf("approval:needed sent %d times in all, want 1 (the other chat's)", n)
	}

	// Back to the connector's policy.
	if err := a.Connectors.SetSessionApproval(here, c.ID, ""); err != nil {
		t.Fatal(err)
	}
	panel, _ := a.Connectors.SessionTools(here)
	if got := panel.Connectors[0].ChatApproval; got != "" {
		t.Errorf("after reset chat's approval = %q, want none", got)
	}
}

// TestShownIcons: the window draws data: icons, and https: icons only from
// the remote connector's own host; nothing else reaches it.
func TestShownIcons(t *testing.T) {
	t.Parallel()
	png := "data:image/png;base64,iVBORw0KGgo="
	for _, tc := range []struct {
		name string
		cfg  mcp.Connector
		src  string
		want bool
	}{
		{"data on stdio", mcp.Connector{Command: "srv"}, png, true},
		{"data on remote", mcp.Connector{URL: "https://mcp.example.com/mcp"}, png, true},
		{"https on stdio", mcp.Connector{Command: "srv"}, "https://cdn.example.com/i.png", false},
		{"https from its own host", mcp.Connector{URL: "https://mcp.example.com/mcp"}, "https://MCP.example.com/icon.png", true},
		{"https from another host", mcp.Connector{URL: "https://mcp.example.com/mcp"}, "https://tracker.example.net/i.png?u=1", false},
		{"https from a look-alike", mcp.Connector{URL: "https://mcp.example.com/mcp"}, "https://mcp.example.com.evil.io/i.png", false},
		{"http from its own host", mcp.Connector{URL: "http://localhost:3000/mcp"}, "http://localhost:3000/i.png", false},
		{"javascript", mcp.Connector{URL: "https://mcp.example.com/mcp"}, "javascript:alert(1)", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := shownIcons(tc.cfg, []tools.Icon{{Src: tc.src}})
			if shown := len(got) == 1; shown != tc.want {
				t.Errorf("shownIcons(%s) = %v; want shown %v", tc.src, got, tc.want)
			}
		})
	}
}
