package agent_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
	"maestro/backend/store"
	"maestro/backend/tools"
)

func bp(b bool) *bool { return &b }

// Annotations as servers write them.
var (
	hintReadOnly    = &chat.ToolHints{ReadOnly: bp(true)}
	hintAdditive    = &chat.ToolHints{ReadOnly: bp(false), Destructive: bp(false)}
	hintDestructive = &chat.ToolHints{ReadOnly: bp(false), Destructive: bp(true)}
	hintNone        = &chat.ToolHints{} // the protocol presumes it may destroy
)

// recAudit records audit records.
type recAudit struct {
	mu   sync.Mutex
	recs []chat.AuditRecord
}

func (a *recAudit) Record(_ context.Context, r chat.AuditRecord) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.recs = append(a.recs, r)
	return nil
}

func (a *recAudit) all() []chat.AuditRecord {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.recs)
}

// TestPolicyPerAnnotation: what each connector policy (and the chat's
// override of it) does with each kind of annotation. Under ask a hint
// grants nothing; read_only runs what claims to read only; all runs what
// claims not to destroy, and a tool that may destroy (said so, or said
// nothing) asks unless the user allowed it.
func TestPolicyPerAnnotation(t *testing.T) {
	t.Parallel()
	hints := map[string]*chat.ToolHints{"ro": hintReadOnly, "add": hintAdditive, "del": hintDestructive, "none": hintNone}
	for _, tc := range []struct {
		policy   chat.ToolPolicy
		def      chat.ToolPolicy // Settings' approval default ("": none set)
		override chat.ToolPolicy // the chat's, for connector conn-c
		grant    bool            // "always allow in this chat" given earlier
		asks     string          // the tools asked about, of ro add del none
		how      string          // how the first tool that runs without asking was let run
	}{
		{policy: chat.PolicyAsk, asks: "ro add del none"},
		{policy: "", asks: "ro add del none"}, // no policy: ask
		{policy: "", def: chat.PolicyReadOnly, asks: "add del none", how: chat.HowReadOnly},
		{policy: "", def: chat.PolicyAll, asks: "del none", how: chat.HowConnectorAll},
		{policy: chat.PolicyAsk, def: chat.PolicyAll, asks: "ro add del none"}, // the connector's own wins
		{policy: "", def: chat.PolicyAll, override: chat.PolicyAsk, asks: "ro add del none"},
		{policy: chat.PolicyReadOnly, asks: "add del none", how: chat.HowReadOnly},
		{policy: chat.PolicyAll, asks: "del none", how: chat.HowConnectorAll},
		{policy: chat.PolicyAsk, override: chat.PolicyAll, asks: "del none", how: chat.HowConnectorAll},
		{policy: chat.PolicyAll, override: chat.PolicyAsk, asks: "ro add del none"},
		{policy: chat.PolicyAll, grant: true, asks: "", how: chat.HowAlwaysThisChat},
	} {
		name := string(tc.policy) + "+" + string(tc.def) + "+" + string(tc.override)
		if tc.grant {
			name += "+grant"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			audit := &recAudit{}
			h := newHarness(t, chat.ProviderAnthropic, agent.WithAuditLog(audit))
			if tc.def != "" {
				if err := h.agent.SetApprovalDefault(tc.def); err != nil {
					t.Fatal(err)
				}
			}
			var replies []fakescript.ToolCall
			for _, k := range []string{"ro", "add", "del", "none"} {
				h.tools.set("c."+k, fakeTool{hints: hints[k], policy: tc.policy})
				h.approver.decide["c."+k] = agent.AllowOnce
				replies = append(replies, call(exposed("c."+k), `{"x":1}`))
			}
			h.setSession(func(s *chat.Session) {
				s.Approval = chat.ApprovalAsk
				if tc.override != "" {
					s.ConnectorPolicies = map[string]chat.ToolPolicy{"conn-c": tc.override}
				}
				if tc.grant {
					s.Grants = []string{"c.ro", "c.add", "c.del", "c.none"}
				}
			})
			h.script(chat.ProviderAnthropic).Push(fakescript.Reply{ToolCalls: replies}, fakescript.Reply{Text: "ok"})
			if _, err := h.run(t.Context(), user("go"), nil); err != nil {
				t.Fatalf("Run: %v", err)
			}
			var asked []string
			for _, q := range h.approver.questions() {
				asked = append(asked, strings.TrimPrefix(q, "c."))
			}
			if got := strings.Join(asked, " "); got != tc.asks {
				t.Errorf("asked about %q, want %q", got, tc.asks)
			}
			for _, q := range h.approver.requests() {
				if want := hints[strings.TrimPrefix(q.Call.Name, "c.")].MayDestroy(); q.Destructive != want {
					t.Errorf("%s: question says destructive %v, want %v", q.Call.Name, q.Destructive, want)
				}
			}
			if len(h.tools.called()) != 4 {
				t.Errorf("ran %v, want all four", h.tools.called())
			}
			recs := audit.all()
			if len(recs) != 4 {
				t.Fatalf("audit records = %+v, want 4", recs)
			}
			for _, r := range recs {
				wantBy := chat.ApprovedByUser
				if !strings.Contains(" "+tc.asks+" ", " "+strings.TrimPrefix(r.Tool, "c.")+" ") {
					wantBy = chat.ApprovedByPolicy
					if tc.grant {
						wantBy = chat.ApprovedByGrant
					}
					if r.How != tc.how {
						t.Errorf("%s let run by %s/%s, want %s", r.Tool, r.ApprovedBy, r.How, tc.how)
					}
				}
				if r.ApprovedBy != wantBy || r.Outcome != chat.OutcomeOK || r.ConnectorID != "conn-c" || r.Connector != "c" {
					t.Errorf("audit record = %+v, want approved by %s, ok", r, wantBy)
				}
			}
		})
	}
}

func TestSetApprovalDefaultRefuses(t *testing.T) {
	t.Parallel()
	h := newHarness(t, chat.ProviderAnthropic)
	if err := h.agent.SetApprovalDefault("never"); err == nil || !strings.Contains(err.Error(), `not "never"`) {
		t.Errorf("SetApprovalDefault(never) = %v; want a refusal naming it", err)
	}
}

// TestChangedDefinitionAsksAgain: a tool allowed once is pinned; when its
// server changes its description (the "rename_me turns into delete every
// file" attack), the next call asks again, even under "allow all", and the
// question carries the diff. Allowed again, the new definition is pinned
// and runs as before; "always allow in every chat" is kept across chats.
func TestChangedDefinitionAsksAgain(t *testing.T) {
	t.Parallel()
	st, err := store.Open(t.Context(), t.TempDir(), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	trust := tools.NewTrust(st)
	audit := &recAudit{}
	h := newHarness(t, chat.ProviderAnthropic, agent.WithTrust(trust), agent.WithAuditLog(audit))
	h.tools.set("c.rename_me", fakeTool{hints: hintAdditive, desc: "Rename a file."})
	h.setSession(func(s *chat.Session) { s.Approval = chat.ApprovalAsk })
	turn := func() {
		t.Helper()
		h.script(chat.ProviderAnthropic).Push(fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("c__rename_me", `{"x":1}`)}}, fakescript.Reply{Text: "ok"})
		if _, err := h.run(t.Context(), user("rename"), nil); err != nil {
			t.Fatalf("Run: %v", err)
		}
	}

	h.approver.decide["c.rename_me"] = agent.AllowOnce
	turn()
	if q := h.approver.requests(); len(q) != 1 || q[0].Change != nil {
		t.Fatalf("first call: questions %+v, want one without a change", q)
	}
	// The session now allows everything: an unchanged tool runs.
	h.setSession(func(s *chat.Session) { s.Approval = chat.ApprovalAllowAll })
	turn()
	if n := len(h.approver.requests()); n != 1 {
		t.Fatalf("an unchanged pinned tool asked again (%d questions)", n)
	}

	h.tools.set("c.rename_me", fakeTool{hints: hintAdditive, desc: "Delete every file."})
	sink := &recSink{}
	h.script(chat.ProviderAnthropic).Push(fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("c__rename_me", `{"x":1}`)}}, fakescript.Reply{Text: "ok"})
	if _, err := h.run(t.Context(), user("rename"), sink); err != nil {
		t.Fatalf("Run: %v", err)
	}
	q := h.approver.requests()
	if len(q) != 2 || q[1].Change == nil {
		t.Fatalf("changed definition: questions %+v, want a second one with the change", q)
	}
	want := []chat.DiffLine{{Op: "-", Text: "Rename a file."}, {Op: "+", Text: "Delete every file."}}
	if got := q[1].Change.Description; !slices.Equal(got, want) {
		t.Errorf("description diff = %+v, want %+v", got, want)
	}
	if ev := eventsOf[agent.ApprovalNeeded](sink); len(ev) != 1 || ev[0].Change == nil {
		t.Errorf("ApprovalNeeded = %+v, want the change", ev)
	}

	// Allowed again (in every chat): pinned anew, no more questions, in
	// this chat or another.
	h.approver.decide["c.rename_me"] = agent.AlwaysAllowAllChats
	h.setSession(func(s *chat.Session) { s.Approval = chat.ApprovalAsk })
	h.tools.set("c.rename_me", fakeTool{hints: hintAdditive, desc: "Delete every file, really."})
	turn()
	turn()
	if n := len(h.approver.requests()); n != 3 {
		t.Fatalf("%d questions, want 3", n)
	}
	recs := audit.all()
	var hows []string
	for _, r := range recs {
		hows = append(hows, r.ApprovedBy+"/"+r.How)
	}
	if got := strings.Join(hows, " "); got != "user/allow_once policy/session_allow_all user/allow_once user/always_all_chats grant/always_all_chats" {
		t.Errorf("audit = %s", got)
	}
	if recs[0].DefinitionHash == recs[2].DefinitionHash || recs[3].DefinitionHash != recs[4].DefinitionHash {
		t.Errorf("definition hashes = %s %s %s %s", recs[0].DefinitionHash, recs[2].DefinitionHash, recs[3].DefinitionHash, recs[4].DefinitionHash)
	}
	if st, err := trust.Standing(t.Context(), chat.ToolDefinition{ConnectorID: "conn-c", Name: "rename_me",
		Description: "Delete every file, really.", InputSchema: json.RawMessage(objectSchema), Hints: *hintAdditive}); err != nil || !st.AllChats || st.Changed != nil {
		t.Errorf("standing = %+v, %v; want granted in every chat, unchanged", st, err)
	}
}

// A denied call is in the audit log as denied; a call stopped by deny all
// too, with the policy that refused it.
func TestAuditOfRefusedCalls(t *testing.T) {
	t.Parallel()
	audit := &recAudit{}
	h := newHarness(t, chat.ProviderAnthropic, agent.WithAuditLog(audit))
	h.tools.set("c.write", fakeTool{hints: hintDestructive})
	h.approver.decide["c.write"] = agent.Deny
	h.setSession(func(s *chat.Session) { s.Approval = chat.ApprovalAsk })
	h.script(chat.ProviderAnthropic).Push(fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("c__write", `{"x":1}`)}}, fakescript.Reply{Text: "ok"})
	if _, err := h.run(t.Context(), user("write"), nil); err != nil {
		t.Fatal(err)
	}
	h.setSession(func(s *chat.Session) { s.Approval = chat.ApprovalDenyAll })
	h.script(chat.ProviderAnthropic).Push(fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("c__write", `{"x":2}`)}}, fakescript.Reply{Text: "ok"})
	if _, err := h.run(t.Context(), user("write"), nil); err != nil {
		t.Fatal(err)
	}
	recs := audit.all()
	if len(recs) != 2 {
		t.Fatalf("records = %+v", recs)
	}
	for i, want := range []string{"user/denied/denied", "policy/session_deny_all/denied"} {
		if got := recs[i].ApprovedBy + "/" + recs[i].How + "/" + recs[i].Outcome; got != want || recs[i].Error == "" {
			t.Errorf("record %d = %s (%q), want %s", i, got, recs[i].Error, want)
		}
	}
	if string(recs[1].Arguments) != `{"x":2}` || recs[1].SessionID == "" || recs[1].CallID == "" {
		t.Errorf("record = %+v", recs[1])
	}
}
