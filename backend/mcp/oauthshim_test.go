package mcp

import (
	"context"
	"encoding/json"
	"errors"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
	"maestro/backend/tools"
)

// SHIM (issue 13, remove with the OAuth unification): oauth_test.go and
// loopback_test.go belong to the OAuth work running alongside the move of
// the tool registry to backend/tools, so they were left as they were. They
// still name the registry's old home; these test-only names keep them
// compiling until they are moved or rewritten against backend/tools (the
// registry test of loopback_test.go already has its copy there).

type (
	Entry    = tools.Entry
	Snapshot = tools.Snapshot
)

var WithRevisionListener = tools.WithRevisionListener

// shimRegistry is a tools.Registry that takes mcp-go tool lists, as the
// registry did when it lived here.
type shimRegistry struct{ *tools.Registry }

func NewRegistry(st tools.Store, opts ...tools.Option) shimRegistry {
	return shimRegistry{tools.NewRegistry(st, testRules, opts...)}
}

func (r shimRegistry) SetConnectorTools(ctx context.Context, connectorID, displayName string, list []mcpgo.Tool) error {
	return r.Registry.SetConnectorTools(ctx, connectorID, displayName, toolsOf(list))
}

// restoreEntries and build make the snapshot of a session whose entries
// were stored before a restart: a registry loads them from a store that
// has them, their connectors not reported yet.
func restoreEntries(es []Entry) []Entry { return es }

func (shimRegistry) build(sessionID string, rev int64, es []Entry, found []string) Snapshot {
	var enabled []string
	for _, e := range es {
		enabled = append(enabled, e.ConnectorID)
	}
	snap, err := json.Marshal(map[string]any{"format": 1, "revision": rev, "entries": es, "found": found})
	if err != nil {
		panic(err)
	}
	st := &shimStore{sess: chat.Session{ID: sessionID, EnabledConnectors: enabled, ToolsRevision: rev}, snap: snap}
	s, err := tools.NewRegistry(st, testRules).Snapshot(context.Background(), sessionID)
	if err != nil {
		panic(err)
	}
	return s
}

// shimStore holds one session and its stored snapshot.
type shimStore struct {
	sess chat.Session
	snap []byte
}

func (s *shimStore) Session(context.Context, string) (chat.Session, error) { return s.sess, nil }

func (s *shimStore) UpdateSession(_ context.Context, _ string, fn func(*chat.Session) error) (chat.Session, error) {
	err := fn(&s.sess)
	return s.sess, err
}

func (s *shimStore) RegistrySnapshot(_ context.Context, _ string, v any) error {
	if s.snap == nil {
		return chat.ErrNotFound
	}
	return json.Unmarshal(s.snap, v)
}

func (s *shimStore) PutRegistrySnapshot(_ context.Context, _ string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return errors.Join(chat.ErrInvalid, err)
	}
	s.snap = b
	return nil
}
