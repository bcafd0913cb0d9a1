package app

import (
	"testing"

	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/providers/fakescript"
)

// startToolChat runs the app with chat (Gemini's fake) and
// connectors (an in-memory keychain, opts added to the supervisor's) on a
// fresh data dir.
func startToolChat(t *testing.T, rt Runtime, opts ...mcp.SupervisorOption) (*connApp, *fakescript.Script) {
	t.Helper()
	gem, script := withGemini(t)
	dir := t.TempDir()
	sec := mcp.NewMemorySecrets()
	a, ev := startApp(t, dir, withRuntime(rt), gem, func(d *Deps) { d.Secrets = sec; d.SupervisorOptions = opts })
	return &connApp{App: a, ev: ev, secrets: sec, dir: dir}, script
}

// chatWith creates a session on Gemini's fake model with the connector on.
func (a *connApp) chatWith(t *testing.T, connectorID string) string {
	t.Helper()
	s, err := a.Sessions.Create("")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Chat.SetSessionModel(s.ID, chat.ProviderGemini, "gemini-2.5-pro"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Connectors.SetSessionConnector(s.ID, connectorID, true); err != nil {
		t.Fatal(err)
	}
	return s.ID
}

// sendAndWait sends text (with attach) in sid, waits for the reply to
// finish without error, and returns what SendMessage did and the body of
// the last request script's provider got.
func (a *connApp) sendAndWait(t *testing.T, script *fakescript.Script, sid, text string, attach []DraftPartDTO) (SendResultDTO, string) {
	t.Helper()
	sent, err := a.Chat.SendMessage(sid, text, attach)
	if err != nil {
		t.Fatal(err)
	}
	fin := a.ev.wait(t, EventRunFinished, func(d any) bool { f, ok := d.(FinishedDTO); return ok && f.RunID == sent.RunID }).(FinishedDTO)
	if fin.Error != nil {
		t.Fatalf("run failed: %+v", fin.Error)
	}
	reqs := script.Requests()
	return sent, string(reqs[len(reqs)-1].Body)
}
