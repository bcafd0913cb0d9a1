package app

import (
	"reflect"
	"strings"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
)

// chatTexts lists the first text of each message, "" for none.
func chatTexts(ms []MessageDTO) []string {
	out := []string{}
	for _, m := range ms {
		t := ""
		if len(m.Parts) > 0 {
			t = m.Parts[0].Text
		}
		out = append(out, t)
	}
	return out
}

// send sends text and waits for the reply to finish without error.
func send(t *testing.T, a *App, log *eventLog, sessionID, text string) SendResultDTO {
	t.Helper()
	res, err := a.Chat.SendMessage(sessionID, text, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fin := log.wait(t, EventRunFinished, finishedFor(res.RunID)).(FinishedDTO); fin.Error != nil {
		t.Fatalf("run failed: %+v", fin.Error)
	}
	return res
}

func TestEditAndResendBranches(t *testing.T) {
	t.Parallel()
	a, log, script := startChatApp(t)
	s, _ := a.Sessions.Create("")
	script.Push(fakescript.Reply{Text: "Lisbon is lovely in May."}, fakescript.Reply{Text: "Take the train from Porto."})
	first := send(t, a, log, s.ID, "When should I visit Lisbon?")

	res, err := a.Chat.EditAndResend(s.ID, first.Message.Seq, "How do I get to Lisbon?")
	if err != nil {
		t.Fatal(err)
	}
	wantBranch := &BranchDTO{Index: 1, Count: 2, Prev: first.Message.Seq}
	if res.RunID == "" || res.Message.Role != "user" || res.Message.Parts[0].Text != "How do I get to Lisbon?" ||
		!reflect.DeepEqual(res.Message.Branch, wantBranch) {
		t.Fatalf("EditAndResend = %+v (branch %+v); want the new user message, version 2 of 2", res, res.Message.Branch)
	}
	if fin := log.wait(t, EventRunFinished, finishedFor(res.RunID)).(FinishedDTO); fin.Error != nil {
		t.Fatalf("edited run failed: %+v", fin.Error)
	}
	saved := log.wait(t, EventMessageSaved, func(d any) bool {
		e, ok := d.(SavedDTO)
		return ok && e.RunID == res.RunID && e.Message.Role == "user"
	}).(SavedDTO)
	if !reflect.DeepEqual(saved.Message.Branch, wantBranch) {
		t.Errorf("message:saved branch = %+v, want %+v", saved.Message.Branch, wantBranch)
	}

	view, err := a.Sessions.Open(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := chatTexts(view.Messages); !reflect.DeepEqual(got, []string{"How do I get to Lisbon?", "Take the train from Porto."}) {
		t.Fatalf("after the edit the chat shows %q", got)
	}
	if !reflect.DeepEqual(view.Messages[0].Branch, wantBranch) || view.Messages[1].Branch != nil {
		t.Errorf("branches = %+v, %+v; want %+v on the edited message only", view.Messages[0].Branch, view.Messages[1].Branch, wantBranch)
	}

	changed := log.count(EventSessionsChanged)
	back, err := a.Chat.SwitchBranch(s.ID, wantBranch.Prev)
	if err != nil {
		t.Fatal(err)
	}
	if got := chatTexts(back.Messages); !reflect.DeepEqual(got, []string{"When should I visit Lisbon?", "Lisbon is lovely in May."}) {
		t.Fatalf("after switching back the chat shows %q", got)
	}
	if want := (&BranchDTO{Index: 0, Count: 2, Next: res.Message.Seq}); !reflect.DeepEqual(back.Messages[0].Branch, want) {
		t.Errorf("first version's branch = %+v, want %+v", back.Messages[0].Branch, want)
	}
	if log.count(EventSessionsChanged) <= changed {
		t.Error("SwitchBranch did not emit sessions:changed")
	}
	if reopened, _ := a.Sessions.Open(s.ID); !reflect.DeepEqual(chatTexts(reopened.Messages), chatTexts(back.Messages)) {
		t.Errorf("reopened chat shows %q; want the branch switched to", chatTexts(reopened.Messages))
	}
}

// TestEditAndResendValidates: a refused edit changes nothing and starts
// no reply.
func TestEditAndResendValidates(t *testing.T) {
	t.Parallel()
	a, log, script := startChatApp(t)
	s, _ := a.Sessions.Create("")
	script.Push(fakescript.Reply{Text: "Hi."}, fakescript.Reply{Text: "Hello again."})
	first := send(t, a, log, s.ID, "hello")
	edit, err := a.Chat.EditAndResend(s.ID, first.Message.Seq, "hello there")
	if err != nil {
		t.Fatal(err)
	}
	log.wait(t, EventRunFinished, finishedFor(edit.RunID))
	noModel, _ := a.Sessions.Create("")
	script.Push(fakescript.Reply{Text: "ok"})
	other := send(t, a, log, noModel.ID, "hi")
	if _, err := a.Chat.SetSessionModel(noModel.ID, chat.ProviderAnthropic, "claude-sonnet-4-5"); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name    string
		session string
		seq     uint64
		text    string
		want    string
	}{
		{"empty text", s.ID, edit.Message.Seq, "  ", chat.KindInvalid},
		{"unknown message", s.ID, 99, "x", chat.KindNotFound},
		{"unknown session", "nope", 1, "x", chat.KindNotFound},
		{"an assistant message", s.ID, edit.Message.Seq + 1, "x", chat.KindInvalid},
		{"a message on the other branch", s.ID, first.Message.Seq, "x", chat.KindInvalid},
		{"a provider without credentials", noModel.ID, other.Message.Seq, "x", chat.KindAuthRequired},
	}
	for _, tt := range tests {
		before, _ := a.Sessions.Open(tt.session)
		runs := log.count(EventRunStarted)
		_, err := a.Chat.EditAndResend(tt.session, tt.seq, tt.text)
		if got := chat.Kind(err); got != tt.want {
			t.Errorf("%s: kind %q (%v), want %q", tt.name, got, err, tt.want)
		}
		if after, _ := a.Sessions.Open(tt.session); !reflect.DeepEqual(after, before) {
			t.Errorf("%s: the chat changed:\n got %q\nwant %q", tt.name, chatTexts(after.Messages), chatTexts(before.Messages))
		}
		if n := log.count(EventRunStarted); n != runs {
			t.Errorf("%s: %d runs started, want none", tt.name, n-runs)
		}
	}
}

// TestBranchingRefusedWhileRunning: neither an edit nor a switch may move
// the branch a running reply is writing to.
func TestBranchingRefusedWhileRunning(t *testing.T) {
	t.Parallel()
	a, log, script := startChatApp(t)
	s, _ := a.Sessions.Create("")
	script.Push(fakescript.Reply{Text: "Hi."}, fakescript.Reply{Text: "Hello again."})
	first := send(t, a, log, s.ID, "hello")
	edit, err := a.Chat.EditAndResend(s.ID, first.Message.Seq, "hello there")
	if err != nil {
		t.Fatal(err)
	}
	log.wait(t, EventRunFinished, finishedFor(edit.RunID))

	script.Push(fakescript.Reply{Text: strings.Repeat("slow ", 200), ChunkRunes: 5, DelayMS: 20})
	running, err := a.Chat.SendMessage(s.ID, "write a lot", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Chat.EditAndResend(s.ID, edit.Message.Seq, "changed my mind"); chat.Kind(err) != chat.KindConflict {
		t.Errorf("edit while running: kind %q (%v), want conflict", chat.Kind(err), err)
	}
	if _, err := a.Chat.SwitchBranch(s.ID, first.Message.Seq); chat.Kind(err) != chat.KindConflict {
		t.Errorf("switch while running: kind %q (%v), want conflict", chat.Kind(err), err)
	}
	if err := a.Chat.StopRun(running.RunID); err != nil {
		t.Fatal(err)
	}
	log.wait(t, EventRunFinished, finishedFor(running.RunID))
	view, err := a.Chat.SwitchBranch(s.ID, first.Message.Seq)
	if err != nil {
		t.Fatalf("switch after the reply stopped: %v", err)
	}
	if got := chatTexts(view.Messages); !reflect.DeepEqual(got, []string{"hello", "Hi."}) {
		t.Errorf("switched to %q, want the first version", got)
	}
	if _, err := a.Chat.SwitchBranch(s.ID, 99); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("switch to an unknown message: kind %q, want not_found", chat.Kind(err))
	}
}

// TestEditAndResendNeedsAModel: signed in nowhere, the first message is
// kept (its reply fails: no model to answer), but an edit is refused
// before anything changes, and the only branch stays as it is.
func TestEditAndResendNeedsAModel(t *testing.T) {
	t.Parallel()
	a, log := startApp(t, "")
	s, _ := a.Sessions.Create("")
	sent, err := a.Chat.SendMessage(s.ID, "hello", nil)
	if err != nil {
		t.Fatal(err)
	}
	fin := log.wait(t, EventRunFinished, finishedFor(sent.RunID)).(FinishedDTO)
	if fin.Error == nil {
		t.Errorf("run:finished = %+v; want it failed: no model to answer", fin)
	}
	if _, err := a.Chat.EditAndResend(s.ID, sent.Message.Seq, "hi"); chat.Kind(err) != chat.KindAuthRequired {
		t.Errorf("EditAndResend with no model: kind %q, want auth_required", chat.Kind(err))
	}
	view, err := a.Chat.SwitchBranch(s.ID, sent.Message.Seq)
	if err != nil || len(view.Messages) != 2 || view.Messages[0].Branch != nil || view.Messages[1].Status != "failed" {
		t.Errorf("SwitchBranch to the only branch = %+v, %v; want it unchanged: the message and the failed reply", view.Messages, err)
	}
}
