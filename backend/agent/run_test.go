package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
)

func TestPlainTextTurn(t *testing.T) {
	t.Parallel()
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, p)
			h.script(p).Push(fakescript.Reply{Text: "Hello there, friend.", ChunkRunes: 5})
			sink := &recSink{}
			res, err := h.run(t.Context(), user("hi"), sink)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if res.Steps != 1 {
				t.Errorf("Steps = %d, want 1", res.Steps)
			}
			msgs := h.messages()
			if len(msgs) != 2 || msgs[0].Role != chat.RoleUser || msgs[1].Role != chat.RoleAssistant {
				t.Fatalf("stored %d messages %v, want user then assistant", len(msgs), roles(msgs))
			}
			a := msgs[1]
			if a.Text() != "Hello there, friend." || a.Status != chat.StatusComplete || a.Provider != p || a.Usage == nil {
				t.Errorf("assistant message = %q status %q provider %q usage %v", a.Text(), a.Status, a.Provider, a.Usage)
			}
			var streamed strings.Builder
			for _, d := range eventsOf[agent.TextDelta](sink) {
				streamed.WriteString(d.Text)
			}
			if streamed.String() != a.Text() {
				t.Errorf("streamed %q, stored %q", streamed.String(), a.Text())
			}
			if fin := sink.finished(); fin.Err != nil || fin.Canceled || fin.Usage.OutputTokens == 0 {
				t.Errorf("RunFinished = %+v, want success with usage", fin)
			}
			if n := len(h.requests(p)); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
}

func TestToolCallThenAnswer(t *testing.T) {
	t.Parallel()
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, p)
			h.script(p).Push(
				fakescript.Reply{Text: "Let me check.", ToolCalls: []fakescript.ToolCall{call("srv__echo", `{"x":41}`)}},
				fakescript.Reply{Text: "The answer is 41."},
			)
			sink := &recSink{}
			in := user("echo 41")
			in.RunID = "run-echo"
			if _, err := h.run(t.Context(), in, sink); err != nil {
				t.Fatalf("Run: %v", err)
			}
			if reqs := h.tools.requests(); len(reqs) != 1 || reqs[0].RunID != "run-echo" || reqs[0].SessionID != h.sessID ||
				reqs[0].Provider != p || reqs[0].Server != "srv" || reqs[0].Call.Name != "srv.echo" {
				t.Errorf("Tools.Call got %+v", reqs)
			}
			msgs := h.messages()
			if got := roles(msgs); got != "user,assistant,tool,assistant" {
				t.Fatalf("stored roles %s", got)
			}
			calls := msgs[1].ToolCalls()
			if len(calls) != 1 || calls[0].Name != "srv.echo" || len(calls[0].ID) != 32 {
				t.Fatalf("stored calls %+v, want one srv.echo with a canonical id", calls)
			}
			if p != chat.ProviderGemini && calls[0].ProviderIDs[p] == "" {
				t.Errorf("call has no %s id: %+v", p, calls[0].ProviderIDs)
			}
			res := msgs[2].Parts[0].(chat.ToolResultPart).Result
			if res.CallID != calls[0].ID || !res.Successful || string(res.Data) != `{"x":41}` {
				t.Errorf("stored result %+v", res)
			}
			reqs := h.requests(p)
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want 2", len(reqs))
			}
			if !strings.Contains(string(reqs[1].Body), resultShape[p]) {
				t.Errorf("follow-up request lacks %s: %s", resultShape[p], reqs[1].Body)
			}
			started := eventsOf[agent.ToolCallStarted](sink)
			finished := eventsOf[agent.ToolCallFinished](sink)
			if len(started) != 1 || started[0].CallID != calls[0].ID || started[0].Name != "srv.echo" || started[0].Server != "srv" {
				t.Errorf("ToolCallStarted = %+v", started)
			}
			if len(finished) != 1 || finished[0].CallID != calls[0].ID {
				t.Errorf("ToolCallFinished = %+v", finished)
			}
		})
	}
}

func TestParallelCalls(t *testing.T) {
	t.Parallel()
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, p)
			// Each call waits until all three run at once, so a sequential
			// loop would time out.
			var inFlight atomic.Int32
			all := make(chan struct{})
			h.tools.set("srv.par", fakeTool{fn: func(ctx context.Context, args json.RawMessage, _ func(agent.ToolUpdate)) chat.ToolResult {
				if inFlight.Add(1) == 3 {
					close(all)
				}
				select {
				case <-all:
					return chat.ToolResult{Successful: true, Data: args}
				case <-time.After(5 * time.Second):
					return chat.ToolResult{Error: "calls did not run in parallel"}
				}
			}})
			h.script(p).Push(
				fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("srv__par", `{"x":1}`), call("srv__par", `{"x":2}`), call("srv__par", `{"x":3}`)}},
				fakescript.Reply{Text: "done"},
			)
			if _, err := h.run(t.Context(), user("three at once"), nil); err != nil {
				t.Fatalf("Run: %v", err)
			}
			msgs := h.messages()
			calls := msgs[1].ToolCalls()
			if len(calls) != 3 || len(msgs[2].Parts) != 3 {
				t.Fatalf("got %d calls and %d results, want 3 and 3", len(calls), len(msgs[2].Parts))
			}
			for i, part := range msgs[2].Parts {
				res := part.(chat.ToolResultPart).Result
				want := fmt.Sprintf(`{"x":%d}`, i+1)
				if res.CallID != calls[i].ID || !res.Successful || string(res.Data) != want {
					t.Errorf("result %d = %+v, want the result of call %s with %s", i, res, calls[i].ID, want)
				}
			}
			reqs := h.requests(p)
			if n := strings.Count(string(reqs[1].Body), resultShape[p]); n < 3 {
				t.Errorf("follow-up request has %d %s, want 3", n, resultShape[p])
			}
		})
	}
}

func TestApprovals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		mode      chat.ApprovalMode
		tool      string
		decision  agent.Decision
		wantAsked bool
		wantRun   bool
		wantError string
	}{
		{"denied", chat.ApprovalAsk, "srv.write", agent.Deny, true, false, "the user denied this tool call"},
		{"allowed once", chat.ApprovalAsk, "srv.write", agent.AllowOnce, true, true, ""},
		// A server's readOnlyHint is a claim: it grants nothing by itself.
		{"read-only hint still asks", chat.ApprovalAsk, "srv.read", agent.AllowOnce, true, true, ""},
		{"read-only hint denied", chat.ApprovalAsk, "srv.read", agent.Deny, true, false, "the user denied this tool call"},
		{"allow all", chat.ApprovalAllowAll, "srv.write", agent.Deny, false, true, ""},
		{"deny all", chat.ApprovalDenyAll, "srv.write", agent.AllowOnce, false, false, "turned off in this session"},
		{"deny all denies a read-only hint", chat.ApprovalDenyAll, "srv.read", agent.Deny, false, false, "turned off in this session"},
		// The user chose to believe one connector's read-only hints.
		{"trusted read-only hint runs", chat.ApprovalAsk, "trusted.read", agent.Deny, false, true, ""},
		{"trust without a hint asks", chat.ApprovalAsk, "trusted.write", agent.Deny, true, false, "the user denied this tool call"},
		{"deny all denies a trusted read-only hint", chat.ApprovalDenyAll, "trusted.read", agent.Deny, false, false, "turned off in this session"},
		{"built-in runs in deny all", chat.ApprovalDenyAll, "search_tools", agent.Deny, false, true, ""},
	}
	for _, tt := range tests {
		for _, p := range allProviders {
			t.Run(tt.name+"/"+p, func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, p)
				h.setSession(func(s *chat.Session) { s.Approval = tt.mode })
				h.tools.set("search_tools", fakeTool{builtin: true})
				if tt.wantAsked {
					h.approver.decide[tt.tool] = tt.decision
				}
				h.script(p).Push(fakescript.Reply{ToolCalls: []fakescript.ToolCall{call(exposed(tt.tool), `{"x":7}`)}}, fakescript.Reply{Text: "ok"})
				sink := &recSink{}
				if _, err := h.run(t.Context(), user("do it"), sink); err != nil {
					t.Fatalf("Run: %v", err)
				}
				if asked := len(h.approver.questions()) > 0; asked != tt.wantAsked {
					t.Errorf("approver asked: %v, want %v", asked, tt.wantAsked)
				}
				if asked := len(eventsOf[agent.ApprovalNeeded](sink)) > 0; asked != tt.wantAsked {
					t.Errorf("ApprovalNeeded sent: %v, want %v", asked, tt.wantAsked)
				}
				// The question says when the server claims the tool only reads.
				wantHint := strings.HasSuffix(tt.tool, ".read")
				for _, q := range h.approver.requests() {
					if q.ReadOnlyHint != wantHint {
						t.Errorf("ApprovalRequest.ReadOnlyHint = %v, want %v", q.ReadOnlyHint, wantHint)
					}
				}
				for _, ev := range eventsOf[agent.ApprovalNeeded](sink) {
					if ev.ReadOnlyHint != wantHint {
						t.Errorf("ApprovalNeeded.ReadOnlyHint = %v, want %v", ev.ReadOnlyHint, wantHint)
					}
				}
				if ran := len(h.tools.called()) > 0; ran != tt.wantRun {
					t.Errorf("tool ran: %v, want %v", ran, tt.wantRun)
				}
				res := h.messages()[2].Parts[0].(chat.ToolResultPart).Result
				if res.Successful != tt.wantRun || !strings.Contains(res.Error, tt.wantError) {
					t.Errorf("result = %+v, want successful=%v error containing %q", res, tt.wantRun, tt.wantError)
				}
				if tt.wantError != "" {
					// The model receives the error envelope.
					if body := string(h.requests(p)[1].Body); !strings.Contains(body, tt.wantError) {
						t.Errorf("follow-up request lacks %q: %s", tt.wantError, body)
					}
				}
			})
		}
	}
}

// TestDenyAllOverridesGrant: "deny all" denies a tool the session granted
// "Always allow" before.
func TestDenyAllOverridesGrant(t *testing.T) {
	t.Parallel()
	h := newHarness(t, chat.ProviderAnthropic)
	h.setSession(func(s *chat.Session) { s.Approval, s.Grants = chat.ApprovalDenyAll, []string{"srv.write"} })
	h.script(chat.ProviderAnthropic).Push(fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("srv__write", `{"x":1}`)}}, fakescript.Reply{Text: "ok"})
	if _, err := h.run(t.Context(), user("write"), nil); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if c := h.tools.called(); len(c) != 0 {
		t.Errorf("tools ran: %v, want none", c)
	}
	res := h.messages()[2].Parts[0].(chat.ToolResultPart).Result
	if res.Successful || !strings.Contains(res.Error, "deny all") {
		t.Errorf("result = %+v, want the deny-all error", res)
	}
}

func TestAlwaysAllowPersistsGrant(t *testing.T) {
	t.Parallel()
	h := newHarness(t, chat.ProviderAnthropic)
	h.setSession(func(s *chat.Session) { s.Approval = chat.ApprovalAsk })
	h.approver.decide["srv.write"] = agent.AlwaysAllow
	h.script(chat.ProviderAnthropic).Push(
		fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("srv__write", `{"x":1}`)}},
		fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("srv__write", `{"x":2}`)}},
		fakescript.Reply{Text: "written twice"},
	)
	if _, err := h.run(t.Context(), user("write twice"), nil); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if q := h.approver.questions(); len(q) != 1 {
		t.Errorf("asked %v, want one question", q)
	}
	if g := h.session().Grants; len(g) != 1 || g[0] != "srv.write" {
		t.Errorf("session grants = %v, want [srv.write]", g)
	}
	if c := h.tools.called(); len(c) != 2 {
		t.Errorf("tool ran %d times, want 2", len(c))
	}
}

func TestUnknownToolAndPanic(t *testing.T) {
	t.Parallel()
	// Gemini's fake refuses calls to undeclared functions, as the service
	// does, so the unknown tool is exercised on the other two.
	for _, p := range []string{chat.ProviderAnthropic, chat.ProviderOpenAI} {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, p)
			h.tools.set("srv.boom", fakeTool{readOnly: true, fn: func(context.Context, json.RawMessage, func(agent.ToolUpdate)) chat.ToolResult {
				panic("kaboom")
			}})
			h.script(p).Push(
				fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("srv__boom", `{}`), call("srv__nope", `{}`)}},
				fakescript.Reply{Text: "recovered"},
			)
			if _, err := h.run(t.Context(), user("break things"), nil); err != nil {
				t.Fatalf("Run: %v", err)
			}
			parts := h.messages()[2].Parts
			boom, nope := parts[0].(chat.ToolResultPart).Result, parts[1].(chat.ToolResultPart).Result
			if boom.Successful || !strings.Contains(boom.Error, "tool panicked: kaboom") {
				t.Errorf("panicking tool result = %+v", boom)
			}
			if nope.Successful || !strings.Contains(nope.Error, `unknown tool "srv__nope"`) {
				t.Errorf("unknown tool result = %+v", nope)
			}
			body := string(h.requests(p)[1].Body)
			for _, want := range []string{"tool panicked: kaboom", "unknown tool"} {
				if !strings.Contains(body, want) {
					t.Errorf("follow-up request lacks %q", want)
				}
			}
		})
	}
}

func TestStepCapThenRetry(t *testing.T) {
	t.Parallel()
	p := chat.ProviderOpenAI
	h := newHarness(t, p, agent.WithMaxSteps(2))
	h.script(p).Push(
		fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("srv__echo", `{"x":1}`)}},
		fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("srv__echo", `{"x":2}`)}},
	)
	_, err := h.run(t.Context(), user("loop"), nil)
	if !errors.Is(err, agent.ErrStepLimit) || !strings.Contains(err.Error(), "after 2 steps") {
		t.Fatalf("Run error = %v, want the step limit", err)
	}
	msgs := h.messages()
	last := msgs[len(msgs)-1]
	if last.Status != chat.StatusFailed || !strings.Contains(last.Error, "after 2 steps") {
		t.Errorf("last stored message = %+v, want the visible failure", last)
	}
	// Retrying continues from the stored calls and results.
	h.script(p).Push(fakescript.Reply{Text: "finally"})
	if _, err := h.run(t.Context(), agent.RunInput{Retry: true}, nil); err != nil {
		t.Fatalf("Retry: %v", err)
	}
	reqs := h.requests(p)
	if len(reqs) != 3 || strings.Count(string(reqs[2].Body), resultShape[p]) != 2 {
		t.Errorf("retry request: %d requests, body %s", len(reqs), reqs[len(reqs)-1].Body)
	}
	if n := countText(h.messages(), chat.RoleUser, "loop"); n != 1 {
		t.Errorf("user message stored %d times, want once", n)
	}
	// A complete turn has nothing to retry.
	if _, err := h.run(t.Context(), agent.RunInput{Retry: true}, nil); !errors.Is(err, chat.ErrInvalid) {
		t.Errorf("retry of a finished turn: %v, want ErrInvalid", err)
	}
}

func TestToolsChangeBetweenSteps(t *testing.T) {
	t.Parallel()
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, p)
			h.tools.set("srv.doomed", fakeTool{})
			h.tools.set("srv.toggle", fakeTool{fn: func(_ context.Context, args json.RawMessage, _ func(agent.ToolUpdate)) chat.ToolResult {
				// The user switches tools while this step's call runs.
				h.tools.set("srv.fresh", fakeTool{})
				h.tools.remove("srv.doomed")
				return chat.ToolResult{Successful: true, Data: args}
			}})
			h.script(p).Push(fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("srv__toggle", `{}`)}}, fakescript.Reply{Text: "ok"})
			sink := &recSink{}
			if _, err := h.run(t.Context(), user("toggle"), sink); err != nil {
				t.Fatalf("Run: %v", err)
			}
			reqs := h.requests(p)
			first, second := string(reqs[0].Body), string(reqs[1].Body)
			if !strings.Contains(first, "srv__doomed") || strings.Contains(first, "srv__fresh") {
				t.Errorf("first request should declare srv__doomed only")
			}
			if strings.Contains(second, "srv__doomed") || !strings.Contains(second, "srv__fresh") {
				t.Errorf("second request should declare srv__fresh and not srv__doomed: %s", second)
			}
			steps := eventsOf[agent.StepStarted](sink)
			if len(steps) != 2 || steps[1].ToolsRevision <= steps[0].ToolsRevision {
				t.Errorf("StepStarted revisions %+v, want a newer revision in step 2", steps)
			}
		})
	}
}

func roles(msgs []chat.Message) string {
	var rs []string
	for _, m := range msgs {
		rs = append(rs, string(m.Role))
	}
	return strings.Join(rs, ",")
}

// TestRefusedImageNoteReachesTheModel: an image Maestro refused (too large
// for the providers) is an attachment with no data and a note; every
// provider's follow-up request carries the note as text.
func TestRefusedImageNoteReachesTheModel(t *testing.T) {
	t.Parallel()
	const note = "[image/png left out: the server sent 26 MiB of base64, more than Maestro reads]"
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, p)
			h.tools.set("srv.shot", fakeTool{fn: func(context.Context, json.RawMessage, func(agent.ToolUpdate)) chat.ToolResult {
				return chat.ToolResult{Successful: true, Data: json.RawMessage(`{"text":"a picture"}`),
					Attachments: []chat.Attachment{{Type: "image", MIMEType: "image/png", Text: note}}}
			}})
			h.script(p).Push(fakescript.Reply{ToolCalls: []fakescript.ToolCall{call("srv__shot", `{}`)}}, fakescript.Reply{Text: "ok"})
			if _, err := h.run(t.Context(), user("screenshot"), nil); err != nil {
				t.Fatalf("Run: %v", err)
			}
			if body := string(h.requests(p)[1].Body); !strings.Contains(body, "more than Maestro reads") {
				t.Errorf("follow-up request lacks the note: %s", body)
			}
		})
	}
}
