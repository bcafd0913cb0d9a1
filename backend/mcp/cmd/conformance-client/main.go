// Command conformance-client is the client the official MCP conformance
// suite (@modelcontextprotocol/conformance) drives: for each scenario the
// suite starts a test server and runs
//
//	conformance-client <server URL>
//
// with MCP_CONFORMANCE_SCENARIO naming the scenario and, where the
// scenario needs credentials, MCP_CONFORMANCE_CONTEXT holding them as JSON.
// It connects through Maestro's own backend/mcp (supervisor, routing,
// OAuth) and backend/tools (registry), lists the server's tools and calls
// each of them, and exits 0 when all of that worked.
//
// The suite's authorization server redirects at once, so the sign-in is
// done without a browser: the authorization URL is fetched without
// following redirects and the code is read from the Location header.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"sync"
	"time"

	"maestro/backend/chat"
	"maestro/backend/mcp"
	"maestro/backend/tools"
)

// cimdURL is the client metadata document URL the suite accepts as a
// client_id (it does not fetch it).
const cimdURL = "https://conformance-test.local/client-metadata.json"

// toolRules name the tools the client calls; any provider's would do, since
// the names only route the calls back here.
var toolRules = chat.ToolRules{Provider: "conformance", MaxTools: 1000, MaxNameLen: 64, NameEllipsis: "_", Schema: chat.SchemaJSON}

// redirectURI is where the suite's authorization server sends the code.
const redirectURI = "http://localhost:3000/callback"

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: MCP_CONFORMANCE_SCENARIO=<scenario> conformance-client <server URL>")
		os.Exit(2)
	}
	serverURL := os.Args[len(os.Args)-1]
	scenario := os.Getenv("MCP_CONFORMANCE_SCENARIO")
	var cc struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	if raw := os.Getenv("MCP_CONFORMANCE_CONTEXT"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &cc); err != nil {
			fmt.Fprintln(os.Stderr, "conformance-client: MCP_CONFORMANCE_CONTEXT:", err)
			os.Exit(2)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()
	if err := run(ctx, scenario, serverURL, cc.ClientID, cc.ClientSecret); err != nil {
		fmt.Fprintln(os.Stderr, "conformance-client:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, scenario, serverURL, clientID, clientSecret string) error {
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	st := newMemStore()
	reg := tools.NewRegistry(st, []chat.ToolRules{toolRules})
	sup := mcp.NewSupervisor(
		mcp.WithSecrets(mcp.NewMemorySecrets()),
		mcp.WithToolSink(reg),
		mcp.WithEvents(logEvents{logger}),
		mcp.WithAuthorizer(headless{}, true),
		mcp.WithElicitor(acceptDefaults{}, nil),
		mcp.WithClientInfo("maestro-conformance-client", "1.0.0"),
		mcp.WithMaxStartFailures(1),
		mcp.WithLogger(logger),
	)
	defer sup.Close()

	oauth := &mcp.OAuthConfig{ClientMetadataURL: cimdURL}
	switch scenario {
	case "auth/client-credentials-basic", "auth/client-credentials-jwt":
		oauth = &mcp.OAuthConfig{GrantType: mcp.GrantClientCredentials, ClientID: clientID, ClientSecret: clientSecret}
	case "auth/pre-registration":
		oauth.ClientID, oauth.ClientSecret = clientID, clientSecret
	}
	c, err := sup.Add(ctx, mcp.Connector{
		Name: "server", Transport: mcp.TransportHTTP, URL: serverURL, OAuth: oauth, InitTimeoutSeconds: 20,
	})
	if err != nil {
		return err
	}
	if err := sup.WaitSettled(ctx, c.ID); err != nil {
		return err
	}
	status, err := sup.Status(c.ID)
	if err != nil {
		return err
	}
	if status.State != mcp.StateReady {
		return fmt.Errorf("connector %s: %s", status.State, status.Error)
	}
	sess, err := st.CreateSession(c.ID)
	if err != nil {
		return err
	}
	snap, err := reg.Snapshot(ctx, sess)
	if err != nil {
		return err
	}
	for _, e := range snap.Entries {
		args := "{}"
		if e.Tool == "add_numbers" {
			args = `{"a":2,"b":3}`
		}
		res := sup.Call(ctx, snap, mcp.CallRequest{
			SessionID: sess, CallID: chat.NewID(), Provider: toolRules.Provider,
			Name: e.Name(toolRules.Provider), Arguments: json.RawMessage(args),
		})
		if !res.Successful {
			return fmt.Errorf("call %s: %s", e.Canonical, res.Error)
		}
		logger.Info("called", "tool", e.Canonical, "data", string(res.Data))
	}
	return nil
}

// headless signs in without a browser: the suite's authorization server
// redirects at once, so the code is in the Location header.
type headless struct{}

func (headless) Authorize(ctx context.Context, _ string, authURL func(string) (string, error)) (url.Values, error) {
	u, err := authURL(redirectURI)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	defer hc.CloseIdleConnections()
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || loc.String() == "" {
		return nil, fmt.Errorf("the authorization server did not redirect (%s)", resp.Status)
	}
	return loc.Query(), nil
}

// acceptDefaults accepts every form as it is, so the schema defaults fill
// it (what the elicitation-defaults scenario checks).
type acceptDefaults struct{}

func (acceptDefaults) Elicit(context.Context, mcp.ElicitationRequest) (mcp.ElicitationAnswer, error) {
	return mcp.ElicitationAnswer{Action: mcp.ActionAccept, Content: map[string]any{}}, nil
}

type logEvents struct{ l *slog.Logger }

func (e logEvents) ConnectorState(st mcp.ConnectorStatus) {
	e.l.Info("state", "connector", st.Name, "state", st.State, "tools", st.Tools, "error", st.Error)
}

func (e logEvents) ConnectorLog(_ string, line mcp.LogLine) {
	e.l.Info("log", "source", line.Source, "level", line.Level, "text", line.Text)
}

// memStore keeps sessions and registry snapshots in memory.
type memStore struct {
	mu       sync.Mutex
	sessions map[string]chat.Session
	snaps    map[string][]byte
}

func newMemStore() *memStore {
	return &memStore{sessions: map[string]chat.Session{}, snaps: map[string][]byte{}}
}

func (s *memStore) CreateSession(connectors ...string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := chat.NewID()
	s.sessions[id] = chat.Session{ID: id, EnabledConnectors: connectors}
	return id, nil
}

func (s *memStore) Session(_ context.Context, id string) (chat.Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[id]
	if !ok {
		return chat.Session{}, chat.E(chat.ErrNotFound, "no session %q", id)
	}
	return sess, nil
}

func (s *memStore) UpdateSession(_ context.Context, id string, fn func(*chat.Session) error) (chat.Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[id]
	if !ok {
		return chat.Session{}, chat.E(chat.ErrNotFound, "no session %q", id)
	}
	if err := fn(&sess); err != nil {
		return chat.Session{}, err
	}
	s.sessions[id] = sess
	return sess, nil
}

func (s *memStore) RegistrySnapshot(_ context.Context, id string, v any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.snaps[id]
	if !ok {
		return chat.ErrNotFound
	}
	return json.Unmarshal(b, v)
}

func (s *memStore) PutRegistrySnapshot(_ context.Context, id string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.snaps[id] = b
	return nil
}
