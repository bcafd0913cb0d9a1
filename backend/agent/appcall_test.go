package agent_test

import (
	"encoding/json"
	"strings"
	"testing"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
)

// TestAppCallApprovals: a call an MCP App asks for goes through the same
// decisions as a model's call, the question saying the app asked, and is
// audited as the app's.
func TestAppCallApprovals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		approval  chat.ApprovalMode
		policy    chat.ToolPolicy
		hints     *chat.ToolHints
		grant     bool
		decision  agent.Decision
		canonical string
		asks, ran bool
		how       string
		outcome   string
	}{
		{name: "ask, allowed", approval: chat.ApprovalAsk, hints: hintNone, decision: agent.AllowOnce,
			asks: true, ran: true, how: chat.HowAllowOnce, outcome: chat.OutcomeOK},
		{name: "ask, denied", approval: chat.ApprovalAsk, hints: hintNone, decision: agent.Deny,
			asks: true, how: chat.HowDenied, outcome: chat.OutcomeDenied},
		{name: "deny all", approval: chat.ApprovalDenyAll, hints: hintReadOnly,
			how: chat.HowSessionDeny, outcome: chat.OutcomeDenied},
		{name: "allow all", approval: chat.ApprovalAllowAll, hints: hintDestructive,
			ran: true, how: chat.HowSessionAllow, outcome: chat.OutcomeOK},
		{name: "read-only policy", approval: chat.ApprovalAsk, policy: chat.PolicyReadOnly, hints: hintReadOnly,
			ran: true, how: chat.HowReadOnly, outcome: chat.OutcomeOK},
		{name: "read-only policy, a writer asks", approval: chat.ApprovalAsk, policy: chat.PolicyReadOnly, hints: hintAdditive,
			decision: agent.AllowOnce, asks: true, ran: true, how: chat.HowAllowOnce, outcome: chat.OutcomeOK},
		{name: "grant in this chat", approval: chat.ApprovalAsk, hints: hintNone, grant: true,
			ran: true, how: chat.HowAlwaysThisChat, outcome: chat.OutcomeOK},
		{name: "unknown tool", approval: chat.ApprovalAllowAll, canonical: "c.nope"},
		{name: "Maestro's own search_tools is not an app's", approval: chat.ApprovalAllowAll, canonical: "search_tools"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			audit := &recAudit{}
			h := newHarness(t, chat.ProviderAnthropic, agent.WithAuditLog(audit))
			h.tools.set("c.app", fakeTool{hints: tc.hints, policy: tc.policy})
			h.tools.set("search_tools", fakeTool{builtin: true})
			h.approver.decide["c.app"] = tc.decision
			h.setSession(func(s *chat.Session) {
				s.Approval = tc.approval
				if tc.grant {
					s.Grants = []string{"c.app"}
				}
			})
			canonical := cmpOr(tc.canonical, "c.app")
			sink := &recSink{}
			res, err := h.agent.AppCall(t.Context(), agent.AppCallInput{RunID: "app-1", SessionID: h.sessID,
				Provider: chat.ProviderAnthropic, CallID: "ac-1", Canonical: canonical, Arguments: json.RawMessage(`{"x":1}`)}, sink)
			if err != nil {
				t.Fatalf("AppCall: %v", err)
			}
			if res.Successful != tc.ran || res.CallID != "ac-1" {
				t.Errorf("result = %+v; want successful %v, call id ac-1", res, tc.ran)
			}
			if got := len(h.tools.called()); got != map[bool]int{true: 1}[tc.ran] {
				t.Errorf("tools called %d times; want ran=%v", got, tc.ran)
			}
			asked := h.approver.requests()
			if (len(asked) == 1) != tc.asks {
				t.Fatalf("asked %d times; want asks=%v", len(asked), tc.asks)
			}
			if tc.asks {
				if asked[0].RequestedBy != chat.RequestedByApp || asked[0].RunID != "app-1" {
					t.Errorf("question = %+v; want requested by the app, run app-1", asked[0])
				}
				needed := eventsOf[agent.ApprovalNeeded](sink)
				if len(needed) != 1 || needed[0].RequestedBy != chat.RequestedByApp {
					t.Errorf("ApprovalNeeded events = %+v; want one requested by the app", needed)
				}
			}
			if len(eventsOf[agent.RunStarted](sink)) != 0 || len(eventsOf[agent.RunFinished](sink)) != 0 {
				t.Error("an app call emitted run events; it is not a turn")
			}
			recs := audit.all()
			if tc.how == "" {
				if len(recs) != 0 {
					t.Errorf("audit = %+v; want none for a call that never reached approval", recs)
				}
				return
			}
			if len(recs) != 1 {
				t.Fatalf("audit = %+v; want one record", recs)
			}
			r := recs[0]
			if r.RequestedBy != chat.RequestedByApp || r.How != tc.how || r.Outcome != tc.outcome || r.Tool != "c.app" || r.CallID != "ac-1" {
				t.Errorf("audit record = %+v; want requested by app, how %s, outcome %s", r, tc.how, tc.outcome)
			}
			if len(h.messages()) != 0 {
				t.Errorf("the conversation has %d messages; an app call stores none", len(h.messages()))
			}
		})
	}
}

// TestAppOnlyTool: a tool whose MCP Apps visibility leaves out the model is
// not declared to it, and a model that calls it anyway is answered "unknown
// tool" (a turn it can repair) without running it; its app still calls it.
func TestAppOnlyTool(t *testing.T) {
	t.Parallel()
	p := chat.ProviderAnthropic
	h := newHarness(t, p)
	h.tools.set("srv.panel", fakeTool{appOnly: true, readOnly: true, trusted: true})
	h.setSession(func(s *chat.Session) { s.Approval = chat.ApprovalAllowAll })
	h.script(p).Push(
		fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("srv__panel", `{}`)}},
		fakescript.Reply{Text: "fine"},
	)
	if _, err := h.run(t.Context(), user("refresh the panel"), nil); err != nil {
		t.Fatalf("Run: %v", err)
	}
	first := string(h.requests(p)[0].Body)
	if strings.Contains(first, "srv__panel") {
		t.Errorf("the first request declares the app-only tool: %s", first)
	}
	res := h.messages()[2].Parts[0].(chat.ToolResultPart).Result
	if res.Successful || !strings.Contains(res.Error, `unknown tool "srv__panel"`) {
		t.Errorf("the model's call of an app-only tool = %+v; want an unknown tool error", res)
	}
	if n := len(h.tools.called()); n != 0 {
		t.Fatalf("the app-only tool ran %d times for the model; want 0", n)
	}
	got, err := h.agent.AppCall(t.Context(), agent.AppCallInput{RunID: "app-1", SessionID: h.sessID, Provider: p,
		CallID: "ac-1", Canonical: "srv.panel", Arguments: json.RawMessage(`{}`)}, &recSink{})
	if err != nil || !got.Successful {
		t.Errorf("its app's call = %+v, %v; want it to run", got, err)
	}
}
