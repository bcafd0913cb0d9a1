package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"maestro/backend/chat"
)

// Store is the part of backend/store the registry uses.
type Store interface {
	Session(ctx context.Context, id string) (chat.Session, error)
	UpdateSession(ctx context.Context, id string, fn func(*chat.Session) error) (chat.Session, error)
	RegistrySnapshot(ctx context.Context, sessionID string, v any) error
	PutRegistrySnapshot(ctx context.Context, sessionID string, v any) error
}

// maxFound bounds how many search_tools results a session remembers.
const maxFound = 64

// snapshotFormat versions the stored snapshot JSON.
const snapshotFormat = 1

// Registry is the per-session tool registry; see the package doc.
type Registry struct {
	st    Store
	rules *ruleSet
	// onRevision, when set, hears every new revision of a session.
	onRevision func(sessionID string, revision int64)

	mu         sync.Mutex
	connectors map[string]*connector // by connector id
	gone       map[string]bool       // connectors removed since start
	sessions   map[string]*session   // cache, by session id
}

// connector is one connector's live tool list.
type connector struct {
	id, name string
	slug     string
	// tools are prepared once per list (schemas normalised); entries are
	// tools with this connector's canonical names, rebuilt when the slug or
	// the name changes.
	tools   []Entry
	entries []Entry
}

// session is a cached session: its tool settings and current snapshot.
type session struct {
	enabled  []string
	disabled map[string]bool
	snap     Snapshot
}

// Option configures a Registry.
type Option func(*Registry)

// WithRevisionListener calls fn with a session's id and new revision each
// time the revision changes (a toggle, a tool list change, search_tools
// results, or a reconciliation on load), after the change is stored. fn is
// called with the registry's lock held: it must not block and must not call
// back into the Registry (the app emits tools:changed from it).
func WithRevisionListener(fn func(sessionID string, revision int64)) Option {
	return func(r *Registry) { r.onRevision = fn }
}

// NewRegistry returns a registry that persists snapshots in st and names,
// counts and shapes tools by rules, one per provider (at least one; the
// catalog gives every adapter's). Each provider's names and schemas are
// computed up front; a provider without rules gets the first rules'.
func NewRegistry(st Store, rules []chat.ToolRules, opts ...Option) *Registry {
	r := &Registry{
		st:         st,
		rules:      newRuleSet(rules),
		connectors: map[string]*connector{},
		gone:       map[string]bool{},
		sessions:   map[string]*session{},
	}
	for _, o := range opts {
		o(r)
	}
	return r
}

// SetConnectorTools records a connector's current tool list (after
// initialize, list_changed or a reconnect; nil when it has none or failed to
// start) and brings every cached session that enables the connector up to
// date, bumping revisions only where the effective tool set changed.
// Sessions not in the cache pick the list up when they are loaded. The error
// joins the sessions whose update could not be stored; those sessions are
// reloaded on next use.
func (r *Registry) SetConnectorTools(ctx context.Context, connectorID, displayName string, tools []Tool) error {
	if connectorID == "" {
		return fmt.Errorf("tools: set connector tools: empty connector id: %w", chat.ErrInvalid)
	}
	if strings.TrimSpace(displayName) == "" {
		displayName = connectorID
	}
	prepared := prepareTools(tools, r.rules) // the slow part, outside the lock

	r.mu.Lock()
	defer r.mu.Unlock()
	r.connectors[connectorID] = &connector{id: connectorID, name: displayName, tools: prepared}
	delete(r.gone, connectorID)
	return r.refresh(ctx, r.reslug(connectorID))
}

// RemoveConnector forgets a deleted connector: its tools leave every cached
// session that enabled it (and every other session when it is loaded).
func (r *Registry) RemoveConnector(ctx context.Context, connectorID string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.connectors, connectorID)
	r.gone[connectorID] = true
	affected := r.reslug("")
	affected[connectorID] = true
	return r.refresh(ctx, affected)
}

// SetConnectorEnabled switches a connector on or off for a session and
// returns the session's tools revision. Switching to the current state
// changes nothing and returns the current revision.
func (r *Registry) SetConnectorEnabled(ctx context.Context, sessionID, connectorID string, on bool) (int64, error) {
	if connectorID == "" {
		return 0, fmt.Errorf("tools: toggle connector: empty connector id: %w", chat.ErrInvalid)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.session(ctx, sessionID)
	if err != nil {
		return 0, err
	}
	if slices.Contains(s.enabled, connectorID) == on {
		return s.snap.Revision, nil
	}
	return r.toggle(ctx, sessionID, s, func(cs *chat.Session) {
		cs.EnabledConnectors = toggled(cs.EnabledConnectors, connectorID, on)
	})
}

// SetToolEnabled switches one tool (canonical name server.tool) on or off
// for a session and returns the session's tools revision. A tool can be
// switched off before it exists (it stays off when it appears).
func (r *Registry) SetToolEnabled(ctx context.Context, sessionID, canonical string, on bool) (int64, error) {
	if server, tool := splitCanonical(canonical); server == "" || tool == "" {
		return 0, fmt.Errorf("tools: toggle tool: %q is not a canonical tool name (server.tool): %w", canonical, chat.ErrInvalid)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.session(ctx, sessionID)
	if err != nil {
		return 0, err
	}
	if s.disabled[canonical] == !on {
		return s.snap.Revision, nil
	}
	return r.toggle(ctx, sessionID, s, func(cs *chat.Session) {
		cs.DisabledTools = toggled(cs.DisabledTools, canonical, !on)
	})
}

// Snapshot returns the session's current revision and tools: the
// registry's own immutable snapshot, shared, not copied (package doc).
func (r *Registry) Snapshot(ctx context.Context, sessionID string) (Snapshot, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.session(ctx, sessionID)
	if err != nil {
		return Snapshot{}, err
	}
	return s.snap, nil
}

// SearchTools runs the built-in search_tools for a session: args is the
// call's JSON ({"query": string, "limit"?: integer}). The tools it returns
// are recorded in the session's snapshot (bumping the revision when they are
// new), so they join the overlay from the next step on. Bad arguments give
// an unsuccessful result, not an error; the error is for store failures.
// CallID is left for the caller.
func (r *Registry) SearchTools(ctx context.Context, sessionID, provider string, args json.RawMessage) (chat.ToolResult, error) {
	var in struct {
		Query string `json:"query"`
		Limit int    `json:"limit"`
	}
	if err := ValidateArguments(json.RawMessage(searchToolSchema), args); err != nil {
		return ErrorResult("", SearchToolName, err.Error()), nil
	}
	if len(args) > 0 {
		if err := json.Unmarshal(args, &in); err != nil {
			return ErrorResult("", SearchToolName, "invalid arguments: "+err.Error()), nil
		}
	}
	if strings.TrimSpace(in.Query) == "" {
		return ErrorResult("", SearchToolName, `invalid arguments: "query" is empty; describe the task, a tool name or a server name`), nil
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.session(ctx, sessionID)
	if err != nil {
		return chat.ToolResult{}, err
	}
	found := s.snap.Search(provider, in.Query, in.Limit)
	var fresh []string
	for _, d := range found {
		if !slices.Contains(s.snap.Found, d.canonical) {
			fresh = append(fresh, d.canonical)
		}
	}
	if len(fresh) > 0 {
		next := s.snap
		next.Found = pruneFound(next.byCanonical, append(fresh, s.snap.Found...))
		if err := r.commit(ctx, sessionID, s, next, nil); err != nil {
			return chat.ToolResult{}, err
		}
	}
	note := "These tools can be called from your next step."
	if len(found) == 0 {
		note = "No tool matched. Try other words, a tool name or a server name."
	}
	data, err := json.Marshal(struct {
		Tools []Descriptor `json:"tools"`
		Note  string       `json:"note"`
	}{found, note})
	if err != nil {
		return chat.ToolResult{}, fmt.Errorf("tools: search tools: %w", err)
	}
	return chat.ToolResult{Name: SearchToolName, Successful: true, Data: data}, nil
}

// toggle stores a session settings change with a bumped revision and
// rebuilds the snapshot.
func (r *Registry) toggle(ctx context.Context, sessionID string, s *session, change func(*chat.Session)) (int64, error) {
	if err := r.commit(ctx, sessionID, s, Snapshot{}, change); err != nil {
		return 0, err
	}
	return s.snap.Revision, nil
}

// commit bumps the session's revision (applying change, if any, in the same
// write), then stores next with that revision and caches it. With a change,
// next is ignored and rebuilt from the settings as written. On failure the
// session leaves the cache so it is reconciled on next use.
func (r *Registry) commit(ctx context.Context, sessionID string, s *session, next Snapshot, change func(*chat.Session)) error {
	var rev int64
	sess, err := r.st.UpdateSession(ctx, sessionID, func(cs *chat.Session) error {
		if change != nil {
			change(cs)
		}
		rev = max(cs.ToolsRevision, s.snap.Revision) + 1
		cs.ToolsRevision = rev
		return nil
	})
	if err != nil {
		if errors.Is(err, chat.ErrNotFound) {
			delete(r.sessions, sessionID)
		}
		return fmt.Errorf("tools: update session %s tools: %w", sessionID, err)
	}
	if change != nil {
		s.enabled, s.disabled = sess.EnabledConnectors, setOf(sess.DisabledTools)
		next = r.build(sessionID, rev, r.effective(s, s.snap.Entries), s.snap.Found)
	}
	next.Revision = rev
	if err := r.put(ctx, sessionID, next); err != nil {
		delete(r.sessions, sessionID)
		return err
	}
	s.snap = next
	r.notify(sessionID, rev)
	return nil
}

func (r *Registry) notify(sessionID string, rev int64) {
	if r.onRevision != nil {
		r.onRevision(sessionID, rev)
	}
}

// Slug returns the server slug the registry gives a connector (the part of
// its tools' canonical names before the dot), and whether the registry
// knows the connector (it does once the supervisor has reported it, even
// with no tools). A session can switch a tool off by its canonical name
// before the connector is on in that session.
func (r *Registry) Slug(connectorID string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.connectors[connectorID]
	if !ok {
		return "", false
	}
	return c.slug, true
}

func (r *Registry) put(ctx context.Context, sessionID string, snap Snapshot) error {
	err := r.st.PutRegistrySnapshot(ctx, sessionID, storedSnapshot{
		Format:   snapshotFormat,
		Revision: snap.Revision,
		Entries:  snap.Entries,
		Found:    snap.Found,
	})
	if err != nil {
		return fmt.Errorf("tools: store session %s tools snapshot: %w", sessionID, err)
	}
	return nil
}

// session returns the cached session or loads it. Callers hold r.mu.
func (r *Registry) session(ctx context.Context, sessionID string) (*session, error) {
	if s, ok := r.sessions[sessionID]; ok {
		return s, nil
	}
	s, err := r.load(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	r.sessions[sessionID] = s
	return s, nil
}

// load reads a session and its stored snapshot and reconciles them with the
// live connectors: the revision is the larger of the two stored ones, plus
// one if the effective tools differ from the stored snapshot (unless the
// session's revision is already ahead of the snapshot's).
func (r *Registry) load(ctx context.Context, sessionID string) (*session, error) {
	sess, err := r.st.Session(ctx, sessionID)
	if err != nil {
		return nil, fmt.Errorf("tools: load session %s: %w", sessionID, err)
	}
	var stored storedSnapshot
	if err := r.st.RegistrySnapshot(ctx, sessionID, &stored); err != nil && !errors.Is(err, chat.ErrNotFound) {
		return nil, fmt.Errorf("tools: load session %s tools snapshot: %w", sessionID, err)
	}
	prev := Snapshot{Entries: restoreEntries(stored.Entries, r.rules), Found: stored.Found}
	s := &session{enabled: sess.EnabledConnectors, disabled: setOf(sess.DisabledTools)}
	rev := max(sess.ToolsRevision, stored.Revision)
	next := r.build(sessionID, rev, r.effective(s, prev.Entries), stored.Found)
	// A session ahead of its snapshot means the last snapshot write was
	// lost; that revision was never published with tools, so the rebuilt
	// tools can take it. Otherwise a difference is a change: bump.
	if !sameContent(next, prev) && sess.ToolsRevision <= stored.Revision {
		rev++
	}
	next.Revision = rev
	if rev != sess.ToolsRevision {
		_, err := r.st.UpdateSession(ctx, sessionID, func(cs *chat.Session) error {
			if cs.ToolsRevision > rev { // written meanwhile: never go down
				rev = cs.ToolsRevision
			}
			cs.ToolsRevision = rev
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("tools: update session %s tools: %w", sessionID, err)
		}
		next.Revision = rev
	}
	if rev != stored.Revision || !sameContent(next, prev) {
		if err := r.put(ctx, sessionID, next); err != nil {
			return nil, err
		}
	}
	s.snap = next
	if rev != sess.ToolsRevision {
		r.notify(sessionID, rev)
	}
	return s, nil
}

// refresh rebuilds every cached session that enables one of the affected
// connectors. Callers hold r.mu.
func (r *Registry) refresh(ctx context.Context, affected map[string]bool) error {
	var errs []error
	for id, s := range r.sessions {
		if !slices.ContainsFunc(s.enabled, func(c string) bool { return affected[c] }) {
			continue
		}
		next := r.build(id, s.snap.Revision, r.effective(s, s.snap.Entries), s.snap.Found)
		if sameContent(next, s.snap) {
			continue
		}
		if err := r.commit(ctx, id, s, next, nil); err != nil {
			delete(r.sessions, id)
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// reslug reassigns server slugs over the known connectors, rebuilds the
// entries of connectors whose slug changed (and of force, whose list
// changed) and returns their ids. Callers hold r.mu.
func (r *Registry) reslug(force string) map[string]bool {
	names := make(map[string]string, len(r.connectors))
	for id, c := range r.connectors {
		names[id] = c.name
	}
	affected := map[string]bool{}
	for id, slug := range assignSlugs(names) {
		c := r.connectors[id]
		if c.slug == slug && id != force {
			continue
		}
		c.slug = slug
		c.entries = make([]Entry, len(c.tools))
		for i, t := range c.tools {
			t.Canonical = slug + "." + t.Tool
			t.Server = slug
			t.ServerName = c.name
			t.ConnectorID = id
			c.entries[i] = t
		}
		affected[id] = true
	}
	return affected
}

// effective lists a session's tools: the live tools of its enabled
// connectors, minus its disabled tools. A connector that has not reported
// since start (and was not removed) keeps its entries from prev. Callers
// hold r.mu.
func (r *Registry) effective(s *session, prev []Entry) []Entry {
	var out []Entry
	seen := map[string]bool{}
	var waiting []string
	for _, cid := range s.enabled {
		c, ok := r.connectors[cid]
		if !ok {
			if !r.gone[cid] {
				waiting = append(waiting, cid)
			}
			continue
		}
		for _, e := range c.entries {
			if !s.disabled[e.Canonical] && !seen[e.Canonical] {
				seen[e.Canonical] = true
				out = append(out, e)
			}
		}
	}
	for _, e := range prev {
		if slices.Contains(waiting, e.ConnectorID) && !s.disabled[e.Canonical] && !seen[e.Canonical] {
			seen[e.Canonical] = true
			out = append(out, e)
		}
	}
	return out
}

func toggled(list []string, x string, on bool) []string {
	i := slices.Index(list, x)
	switch {
	case on && i < 0:
		return append(slices.Clone(list), x)
	case !on && i >= 0:
		return slices.Delete(slices.Clone(list), i, i+1)
	}
	return list
}

func setOf(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}
