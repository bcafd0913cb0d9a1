package app

import (
	"errors"
	"strings"
	"testing"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
)

// startChatApp runs the app with the chat wired to a Gemini fake (API-key
// mode) and returns the app, its event log and the fake's script.
func startChatApp(t *testing.T) (*App, *eventLog, *fakescript.Script) {
	t.Helper()
	gem, script := withGemini(t)
	a, log := startApp(t, "", gem)
	return a, log, script
}

func finishedFor(runID string) func(any) bool {
	return func(d any) bool { f, ok := d.(FinishedDTO); return ok && f.RunID == runID }
}

func TestChatTurnStreamsAndPersists(t *testing.T) {
	t.Parallel()
	a, log, script := startChatApp(t)
	s, _ := a.Sessions.Create("")
	if _, err := a.Chat.SetSessionModel(s.ID, chat.ProviderGemini, "gemini-2.5-pro"); err != nil {
		t.Fatal(err)
	}
	script.Push(fakescript.Reply{Text: "Hello from the fake Gemini, streamed in small pieces.", ChunkRunes: 4})
	res, err := a.Chat.SendMessage(s.ID, "Say hello", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.RunID == "" || res.Message.Role != "user" || res.Message.Parts[0].Text != "Say hello" {
		t.Fatalf("SendMessage = %+v; want a run id and the stored user message", res)
	}
	fin := log.wait(t, EventRunFinished, finishedFor(res.RunID)).(FinishedDTO)
	if fin.Error != nil || fin.Canceled {
		t.Fatalf("run finished with %+v", fin)
	}
	var text strings.Builder
	log.mu.Lock()
	for _, e := range log.events {
		if d, ok := e.data.(DeltaDTO); ok && d.RunID == res.RunID && d.Kind == "text" {
			text.WriteString(d.Text)
		}
	}
	log.mu.Unlock()
	if got := text.String(); got != "Hello from the fake Gemini, streamed in small pieces." {
		t.Errorf("streamed text = %q", got)
	}
	view, err := a.Sessions.Open(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(view.Messages) != 2 || view.Messages[1].Role != "assistant" || view.Messages[1].Provider != chat.ProviderGemini {
		t.Fatalf("stored messages = %+v; want the user message and Gemini's reply", view.Messages)
	}
	if view.Session.Title != "Say hello" {
		t.Errorf("title = %q, want it taken from the first message", view.Session.Title)
	}
	if n := log.count(EventRunFinished); n != 1 {
		t.Errorf("run:finished sent %d times, want once", n)
	}
}

func TestChatWithoutProviderKeepsTheMessage(t *testing.T) {
	t.Parallel()
	a, log, _ := startChatApp(t)
	s, _ := a.Sessions.Create("")
	if _, err := a.Chat.SetSessionModel(s.ID, chat.ProviderAnthropic, "claude-sonnet-4-5"); err != nil {
		t.Fatal(err)
	}
	res, err := a.Chat.SendMessage(s.ID, "Is anyone there?", nil)
	if err != nil {
		t.Fatal(err)
	}
	fin := log.wait(t, EventRunFinished, finishedFor(res.RunID)).(FinishedDTO)
	if fin.Error == nil || fin.Error.Kind != chat.KindAuthRequired {
		t.Errorf("run:finished error = %+v; want auth_required", fin.Error)
	}
	view, _ := a.Sessions.Open(s.ID)
	if len(view.Messages) == 0 || view.Messages[0].Parts[0].Text != "Is anyone there?" {
		t.Errorf("the user message was lost: %+v", view.Messages)
	}
}

func TestChatStopAndConflict(t *testing.T) {
	t.Parallel()
	a, log, script := startChatApp(t)
	s, _ := a.Sessions.Create("")
	_, _ = a.Chat.SetSessionModel(s.ID, chat.ProviderGemini, "gemini-2.5-pro")
	script.Push(fakescript.Reply{Text: strings.Repeat("slow ", 200), ChunkRunes: 5, DelayMS: 20})
	res, err := a.Chat.SendMessage(s.ID, "Write a lot", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Chat.ActiveRun(s.ID) != res.RunID {
		t.Errorf("ActiveRun = %q, want %q", a.Chat.ActiveRun(s.ID), res.RunID)
	}
	if _, err := a.Chat.SendMessage(s.ID, "another", nil); chat.Kind(err) != chat.KindConflict {
		t.Errorf("second message while running: kind %q, want conflict", chat.Kind(err))
	}
	log.wait(t, EventChatDelta, nil)
	if err := a.Chat.StopRun(res.RunID); err != nil {
		t.Fatal(err)
	}
	fin := log.wait(t, EventRunFinished, finishedFor(res.RunID)).(FinishedDTO)
	if !fin.Canceled {
		t.Errorf("run:finished = %+v; want canceled", fin)
	}
	if err := a.Chat.StopRun(res.RunID); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("stopping a finished run: kind %q, want not_found", chat.Kind(err))
	}
	if a.Chat.ActiveRun(s.ID) != "" {
		t.Error("a stopped run is still active")
	}
}

func TestApprovalRoundTrip(t *testing.T) {
	t.Parallel()
	a, log, _ := startChatApp(t)
	c := approver{a.Chat}
	got := make(chan agent.Decision, 1)
	go func() {
		d, err := c.Approve(t.Context(), agent.ApprovalRequest{RunID: "r1", Call: chat.ToolCall{ID: "c1", Name: "fs.write_file", Arguments: []byte(`{"path":"a"}`)}, Server: "fs"})
		if err != nil {
			t.Error(err)
		}
		got <- d
	}()
	req := log.wait(t, EventApproval, nil).(ApprovalDTO)
	if req.Name != "fs.write_file" || req.Arguments != `{"path":"a"}` {
		t.Errorf("approval:needed = %+v", req)
	}
	if err := a.Chat.AnswerApproval(req.RequestID, "maybe"); chat.Kind(err) != chat.KindInvalid {
		t.Errorf("bad decision: kind %q, want invalid", chat.Kind(err))
	}
	if err := a.Chat.AnswerApproval(req.RequestID, "always_allow"); err != nil {
		t.Fatal(err)
	}
	if d := <-got; d != agent.AlwaysAllow {
		t.Errorf("decision = %v, want always_allow", d)
	}
	if err := a.Chat.AnswerApproval(req.RequestID, "deny"); !errors.Is(err, chat.ErrNotFound) {
		t.Errorf("answering twice: %v, want not found", err)
	}
}

func TestSetSessionModelValidates(t *testing.T) {
	t.Parallel()
	a, _, _ := startChatApp(t)
	s, _ := a.Sessions.Create("")
	if _, err := a.Chat.SetSessionModel(s.ID, "llama", "x"); chat.Kind(err) != chat.KindInvalid {
		t.Errorf("unknown provider: kind %q", chat.Kind(err))
	}
	got, err := a.Chat.SetSessionModel(s.ID, chat.ProviderOpenAI, "gpt-5")
	if err != nil || got.Provider != chat.ProviderOpenAI || got.Model != "gpt-5" {
		t.Errorf("SetSessionModel = %+v, %v", got, err)
	}
	if ms, err := a.Chat.ListModels(); err != nil || len(ms) != 1 || !ms[0].Available {
		t.Errorf("ListModels = %+v, %v", ms, err)
	}
}

func TestNewChatPicksAnAvailableProvider(t *testing.T) {
	t.Parallel()
	a, log, script := startChatApp(t)
	s, _ := a.Sessions.Create("")
	script.Push(fakescript.Reply{Text: "ok"})
	res, err := a.Chat.SendMessage(s.ID, "hello", nil)
	if err != nil {
		t.Fatal(err)
	}
	fin := log.wait(t, EventRunFinished, finishedFor(res.RunID)).(FinishedDTO)
	if fin.Error != nil {
		t.Fatalf("run failed: %+v", fin.Error)
	}
	view, _ := a.Sessions.Open(s.ID)
	if view.Session.Provider != chat.ProviderGemini || view.Session.Model != "gemini-2.5-pro" {
		t.Errorf("session = %s/%s; want the only available provider and its first model", view.Session.Provider, view.Session.Model)
	}
}

// Deleting a chat while its reply streams stops the reply; nothing is
// written back into the deleted chat.
func TestDeleteSessionStopsItsReply(t *testing.T) {
	t.Parallel()
	a, log, script := startChatApp(t)
	s, _ := a.Sessions.Create("")
	_, _ = a.Chat.SetSessionModel(s.ID, chat.ProviderGemini, "gemini-2.5-pro")
	script.Push(fakescript.Reply{Text: strings.Repeat("slow ", 200), ChunkRunes: 5, DelayMS: 20})
	res, err := a.Chat.SendMessage(s.ID, "Write a lot", nil)
	if err != nil {
		t.Fatal(err)
	}
	log.wait(t, EventChatDelta, nil)
	if err := a.Sessions.Delete(s.ID); err != nil {
		t.Fatal(err)
	}
	fin := log.wait(t, EventRunFinished, finishedFor(res.RunID)).(FinishedDTO)
	if !fin.Canceled {
		t.Errorf("run:finished = %+v; want canceled", fin)
	}
	if _, err := a.Sessions.Open(s.ID); chat.Kind(err) != chat.KindNotFound {
		t.Errorf("the deleted chat came back: %v", err)
	}
}
