package app

import (
	"context"
	"net/http/httptest"
	"testing"

	"maestro/backend/agent"
	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/providers/gemini"
	"maestro/backend/providers/gemini/geminifake"
)

// startToolChat runs the app with chat (Gemini's fake as every model) and
// connectors (an in-memory keychain, opts added to the supervisor's) on a
// fresh data dir.
func startToolChat(t *testing.T, rt Runtime, opts ...mcp.SupervisorOption) (*connApp, *geminifake.Server) {
	t.Helper()
	srv := geminifake.New(geminifake.WithAPIKey("test-key"))
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	ev := &connEvents{}
	rt.Emit = ev.emit
	dir := t.TempDir()
	a := New(Config{Version: "test", DataDir: dir, Runtime: rt})
	EnableConnectors(a, ConnectorsDeps{Secrets: mcp.NewMemorySecrets(), Options: opts})
	EnableChat(a, ChatDeps{
		Models: agent.ModelsFunc(func(context.Context, string) (chat.Model, error) {
			return gemini.New(gemini.WithBaseURL(hs.URL), gemini.WithAPIKey("test-key")), nil
		}),
		Tools: AgentTools(a),
	})
	Hooks(a).Startup(t.Context())
	t.Cleanup(func() { Hooks(a).Shutdown(context.Background()) })
	return &connApp{App: a, ev: ev, dir: dir}, srv
}

// chatWith creates a session on Gemini's fake model with the connector on.
func (a *connApp) chatWith(t *testing.T, connectorID string) string {
	t.Helper()
	s, err := a.CreateSession("")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.SetSessionModel(s.ID, chat.ProviderGemini, "gemini-2.5-pro"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SetSessionConnector(s.ID, connectorID, true); err != nil {
		t.Fatal(err)
	}
	return s.ID
}
