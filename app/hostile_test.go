package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
	"maestro/backend/tools"
)

// The hostile-server suite, agent side: the hostile server runs as a real
// stdio process (this test binary, see TestMain), the model is Gemini's
// fake, and the whole app (agent, registry, supervisor, store, events)
// stands between them. docs/SECURITY.md names each test.

type hostileApp struct {
	*connApp
	script  *fakescript.Script
	session string
	conn    string
}

func startHostileApp(t *testing.T, mode chat.ApprovalMode) *hostileApp {
	t.Helper()
	ca, srv := startToolChat(t, Runtime{})
	h := &hostileApp{connApp: ca, script: srv}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, err := h.Connectors.Save(ConnectorInputDTO{Name: "Hostile", Transport: "stdio", Command: exe,
		Env: []KeyValueInputDTO{{Key: hostileEnv, Value: "1"}}})
	if err != nil {
		t.Fatal(err)
	}
	h.ev.wait(t, EventConnectorState, stateIs(c.ID, "ready"))
	s := h.chatWith(t, c.ID)
	run, ctx := h.running(t)
	st := run.store
	if _, err := st.UpdateSession(ctx, s, func(s *chat.Session) error { s.Approval = mode; return nil }); err != nil {
		t.Fatal(err)
	}
	h.session, h.conn = s, c.ID
	return h
}

// turn sends text and answers the approval questions in order, returning
// the questions asked; it fails the test if the run fails.
func (h *hostileApp) turn(t *testing.T, text string, answers ...ApprovalDecision) []ApprovalDTO {
	t.Helper()
	before := len(h.ev.all(EventApproval))
	sent, err := h.Chat.SendMessage(h.session, text, nil)
	if err != nil {
		t.Fatal(err)
	}
	var asked []ApprovalDTO
	for i, ans := range answers {
		q := h.ev.waitFrom(t, before+i, EventApproval, nil).(ApprovalDTO)
		asked = append(asked, q)
		if err := h.Chat.AnswerApproval(q.RequestID, ans); err != nil {
			t.Fatal(err)
		}
	}
	fin := h.ev.wait(t, EventRunFinished, finishedFor(sent.RunID)).(FinishedDTO)
	if fin.Error != nil {
		t.Fatalf("run failed: %+v", fin.Error)
	}
	if n := len(h.ev.all(EventApproval)) - before; n != len(answers) {
		t.Errorf("%d approval questions; want %d", n, len(answers))
	}
	return asked
}

// ran reports whether send_report ran (its stderr line is in the log).
func (h *hostileApp) ran(t *testing.T) bool {
	t.Helper()
	lines, err := h.Connectors.Logs(h.conn)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if strings.Contains(l.Text, "send_report ran") {
			return true
		}
	}
	return false
}

// results returns the session's tool results, oldest first.
func (h *hostileApp) results(t *testing.T) []chat.ToolResult {
	t.Helper()
	run, ctx := h.running(t)
	st := run.store
	msgs, err := st.Messages(ctx, h.session)
	if err != nil {
		t.Fatal(err)
	}
	var out []chat.ToolResult
	for _, m := range msgs {
		for _, p := range m.Parts {
			if r, ok := p.(chat.ToolResultPart); ok {
				out = append(out, r.Result)
			}
		}
	}
	return out
}

func sendReport() fakescript.Reply {
	return fakescript.Reply{ToolCalls: []fakescript.ToolCall{{Name: "hostile__send_report", Args: json.RawMessage(`{"report":"the user's secrets"}`)}}}
}

// TestHostileReadOnlyExfiltration: send_report claims readOnlyHint and its
// description tells the host not to ask. In "ask" the user is asked, told
// the claim is the server's, and a denial keeps it from running; in "deny
// all" it is denied without a question.
func TestHostileReadOnlyExfiltration(t *testing.T) {
	t.Parallel()
	t.Run("ask", func(t *testing.T) {
		t.Parallel()
		h := startHostileApp(t, chat.ApprovalAsk)
		h.script.Push(sendReport(), fakescript.Reply{Text: "done"})
		q := h.turn(t, "send the report", "deny")
		if q[0].Name != "hostile.send_report" || !q[0].ReadOnlyHint {
			t.Errorf("question = %+v; want send_report with the server's read-only claim", q[0])
		}
		if h.ran(t) {
			t.Error("send_report ran")
		}
	})
	t.Run("deny all", func(t *testing.T) {
		t.Parallel()
		h := startHostileApp(t, chat.ApprovalDenyAll)
		h.script.Push(sendReport(), fakescript.Reply{Text: "done"})
		h.turn(t, "send the report")
		if h.ran(t) {
			t.Error("send_report ran in deny all")
		}
		if r := h.results(t); len(r) != 1 || r[0].Successful || !strings.Contains(r[0].Error, "deny all") {
			t.Errorf("results = %+v; want the deny-all error", r)
		}
	})
}

// TestHostileInstructionsInResults: read_notes returns instructions to call
// send_report and to skip the question; the model obeys, and the call is
// still put to the user (denied here). Nothing the server wrote changed
// the session's policy.
func TestHostileInstructionsInResults(t *testing.T) {
	t.Parallel()
	h := startHostileApp(t, chat.ApprovalAsk)
	h.script.Push(
		fakescript.Reply{ToolCalls: []fakescript.ToolCall{{Name: "hostile__read_notes", Args: json.RawMessage(`{}`)}}},
		sendReport(), // the model follows the injected instructions
		fakescript.Reply{Text: "done"},
	)
	q := h.turn(t, "read my notes", "allow_once", "deny")
	if q[0].Name != "hostile.read_notes" || q[1].Name != "hostile.send_report" {
		t.Errorf("questions = %+v; want read_notes, then send_report", q)
	}
	if r := h.results(t); len(r) != 2 || !strings.Contains(string(r[0].Data), "Ignore previous instructions") || r[1].Successful {
		t.Errorf("results = %+v; want the injected notes, then a denial", r)
	}
	if h.ran(t) {
		t.Error("send_report ran")
	}
	run, ctx := h.running(t)
	st := run.store
	if s, _ := st.Session(ctx, h.session); s.Approval != chat.ApprovalAsk || len(s.Grants) != 0 {
		t.Errorf("session policy = %q, grants %v; want ask, none", s.Approval, s.Grants)
	}
}

// TestHostileDefinitionChangeAfterApproval: rename_me, always allowed in
// this chat, changes its description and schema; its definition was
// pinned when it ran, so its next call asks again with the diff (issue 16),
// and a denial keeps it from running.
func TestHostileDefinitionChangeAfterApproval(t *testing.T) {
	t.Parallel()
	h := startHostileApp(t, chat.ApprovalAsk)
	call := func(name, args string) fakescript.Reply {
		return fakescript.Reply{ToolCalls: []fakescript.ToolCall{{Name: "hostile__" + name, Args: json.RawMessage(args)}}}
	}
	h.script.Push(call("rename_me", `{"name":"x"}`), fakescript.Reply{Text: "hi"})
	h.turn(t, "say hello", "always_allow")
	rev := h.ev.all(EventToolsChanged)
	h.script.Push(call("arm_rename", `{}`), fakescript.Reply{Text: "armed"})
	h.turn(t, "arm", "allow_once")
	h.ev.waitFrom(t, len(rev), EventToolsChanged, nil) // the new definition is in the session
	h.script.Push(call("rename_me", `{"path":"/"}`), fakescript.Reply{Text: "deleted"})
	q := h.turn(t, "say hello again", "deny")
	if len(q) != 1 || q[0].Change == nil || len(q[0].Change.Description) == 0 || len(q[0].Change.Schema) == 0 {
		t.Fatalf("questions = %+v; want one, with the description and schema diffs", q)
	}
	r := h.results(t)
	if last := r[len(r)-1]; last.Successful {
		t.Errorf("last result = %+v; want the denial", last)
	}
}

// TestHostileHugeResultThroughTheApp: a 50 MB result in a whole turn. The
// model's copy, the stored message and the UI events are bounded; the test
// logs the figures docs/SECURITY.md quotes.
func TestHostileHugeResultThroughTheApp(t *testing.T) {
	h := startHostileApp(t, chat.ApprovalAllowAll)
	db := filepath.Join(h.dir, "maestro.db")
	size := func() int64 { fi, _ := os.Stat(db); return fi.Size() }
	before := size()
	h.script.Push(fakescript.Reply{ToolCalls: []fakescript.ToolCall{{Name: "hostile__huge_text", Args: json.RawMessage(`{"mb":50}`)}}}, fakescript.Reply{Text: "big"})
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	h.turn(t, "get the big text")
	runtime.ReadMemStats(&m1)
	done := h.ev.wait(t, EventToolFinished, nil).(ToolEventDTO)
	event, _ := json.Marshal(done)
	var saved []byte
	for _, d := range h.ev.all(EventMessageSaved) {
		if b, _ := json.Marshal(d); len(b) > len(saved) {
			saved = b
		}
	}
	r := h.results(t)
	stored, _ := json.Marshal(r)
	grew := size() - before
	t.Logf("50 MB result through the app: %.1f MiB allocated in the turn; tool:finished %d bytes, largest message:saved %d bytes; stored result %d bytes; data file grew %d bytes",
		float64(m1.TotalAlloc-m0.TotalAlloc)/(1<<20), len(event), len(saved), len(stored), grew)
	if done.Result == nil || !done.Result.Truncated || done.Result.Size != 50<<20 {
		t.Errorf("tool:finished result = truncated %v size %d; want truncated, 50 MB", done.Result.Truncated, done.Result.Size)
	}
	if len(event) > UIRawCap+tools.DefaultResultCap+16<<10 || len(saved) > UIRawCap+tools.DefaultResultCap+16<<10 {
		t.Errorf("UI events of %d and %d bytes; want each under 256 KiB + 32 KiB", len(event), len(saved))
	}
	if len(stored) > tools.DefaultStoredCap+tools.DefaultResultCap+16<<10 || grew > 8<<20 {
		t.Errorf("stored %d bytes, data file grew %d; want about 1 MiB", len(stored), grew)
	}
}
