package app

import (
	"errors"
	"reflect"
	"testing"

	"maestro/backend/chat"
	"maestro/backend/providers/fakescript"
)

// TestRegenerateThroughTheApp: Regenerate starts a run that answers the
// turn again; the new answer arrives as message:saved with its versions,
// carries the usage the fake reported, and the session shows it.
func TestRegenerateThroughTheApp(t *testing.T) {
	t.Parallel()
	a, log, script := startChatApp(t)
	s, _ := a.Sessions.Create("")
	if _, err := a.Chat.SetSessionModel(s.ID, chat.ProviderGemini, "gemini-2.5-pro"); err != nil {
		t.Fatal(err)
	}
	script.Push(fakescript.Reply{Text: "Lisbon is lovely in May."}, fakescript.Reply{Text: "Try September."})
	send(t, a, log, s.ID, "When should I visit Lisbon?")
	view, err := a.Sessions.Open(s.ID)
	if err != nil || len(view.Messages) != 2 {
		t.Fatalf("Open = %d messages, %v; want the question and its answer", len(view.Messages), err)
	}
	old := view.Messages[1]
	if old.Usage == nil || old.Usage.InputTokens == 0 {
		t.Errorf("answer usage = %+v; want what the fake reported", old.Usage)
	}

	runID, err := a.Chat.Regenerate(s.ID, old.Seq)
	if err != nil {
		t.Fatal(err)
	}
	if fin := log.wait(t, EventRunFinished, finishedFor(runID)).(FinishedDTO); fin.Error != nil {
		t.Fatalf("regenerated run failed: %+v", fin.Error)
	}
	saved := log.wait(t, EventMessageSaved, func(d any) bool {
		e, ok := d.(SavedDTO)
		return ok && e.RunID == runID && e.Message.Status == "complete"
	}).(SavedDTO)
	want := &BranchDTO{Index: 1, Count: 2, Prev: old.Seq}
	if saved.Message.Parts[0].Text != "Try September." || !reflect.DeepEqual(saved.Message.Branch, want) {
		t.Errorf("message:saved = %q, branch %+v; want the new answer, version 2 of 2", saved.Message.Parts[0].Text, saved.Message.Branch)
	}
	if log.count(EventContextMeasured) == 0 {
		t.Errorf("no context:measured during the run")
	}
	view, err = a.Sessions.Open(s.ID)
	if err != nil || len(view.Messages) != 2 || view.Messages[1].Parts[0].Text != "Try September." {
		t.Fatalf("Open after Regenerate = %+v, %v; want the question and the new answer", view.Messages, err)
	}
	if view.Session.Usage == nil || view.Session.Usage.InputTokens <= old.Usage.InputTokens {
		t.Errorf("session usage = %+v; want both answers counted", view.Session.Usage)
	}

	// A user message is no answer: the run says so, and nothing changes.
	bad, err := a.Chat.Regenerate(s.ID, view.Messages[0].Seq)
	if err != nil {
		t.Fatal(err)
	}
	if fin := log.wait(t, EventRunFinished, finishedFor(bad)).(FinishedDTO); fin.Error == nil || fin.Error.Kind != chat.KindInvalid {
		t.Errorf("Regenerate of a user message finished with %+v; want invalid", fin.Error)
	}
	if _, err := a.Chat.Regenerate(s.ID, 0); !errors.Is(err, chat.ErrInvalid) {
		t.Errorf("Regenerate(0) = %v; want invalid", err)
	}
}

// TestContextAndCompactNow: ContextUse measures the chat against its
// model's window; CompactNow on a chat with a single turn has nothing to
// summarise and says so in run:finished; the threshold is kept.
func TestContextAndCompactNow(t *testing.T) {
	t.Parallel()
	a, log, script := startChatApp(t)
	s, _ := a.Sessions.Create("")
	if _, err := a.Chat.SetSessionModel(s.ID, chat.ProviderGemini, "gemini-2.5-pro"); err != nil {
		t.Fatal(err)
	}
	script.Push(fakescript.Reply{Text: "Hello."})
	send(t, a, log, s.ID, "Hi")
	use, err := a.Chat.ContextUse(s.ID)
	if err != nil || use.Window <= 0 || use.Tokens <= 0 || use.Limit >= use.Window || use.Threshold >= use.Limit {
		t.Fatalf("ContextUse = %+v, %v; want a measurement within the model's window", use, err)
	}
	runID, err := a.Chat.CompactNow(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	fin := log.wait(t, EventRunFinished, finishedFor(runID)).(FinishedDTO)
	if fin.Error == nil || fin.Error.Kind != chat.KindInvalid {
		t.Errorf("CompactNow of a one-turn chat finished with %+v; want invalid: nothing to compact", fin.Error)
	}
}
