package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
)

// Caps of the UI resource cache (docs/APPS.md).
const (
	// MaxAppHTML caps one UI resource: a bigger one is not rendered (the
	// card shows the text result).
	MaxAppHTML = 4 << 20
	// appCacheLimit caps the HTML kept for every connector together; past
	// it a resource is read again when a card needs it.
	appCacheLimit = 32 << 20
	// maxAppsPerList caps the resources preloaded for one tool list.
	maxAppsPerList = 32
)

// appCache keeps the UI resources of each connector's current tool list,
// read when the list arrived. An entry belongs to a revision of the
// connector's list: a new list (list_changed, a restart) starts a new
// revision and drops the old one's entries, since the server may have
// changed its UIs with its tools. Safe for concurrent use.
type appCache struct {
	mu    sync.Mutex
	limit int
	used  int
	sets  map[string]*appSet // by connector id
}

type appSet struct {
	rev int64
	res map[string]AppResource // by URI
}

func (c *appCache) capacity() int {
	if c.limit > 0 {
		return c.limit
	}
	return appCacheLimit
}

// begin starts revision rev of a connector's entries, dropping older ones.
func (c *appCache) begin(connectorID string, rev int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropLocked(connectorID)
	if c.sets == nil {
		c.sets = map[string]*appSet{}
	}
	c.sets[connectorID] = &appSet{rev: rev, res: map[string]AppResource{}}
}

// drop forgets a connector's entries.
func (c *appCache) drop(connectorID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropLocked(connectorID)
}

func (c *appCache) dropLocked(connectorID string) {
	if s, ok := c.sets[connectorID]; ok {
		for _, r := range s.res {
			c.used -= len(r.HTML)
		}
		delete(c.sets, connectorID)
	}
}

// put keeps res under its connector's revision rev; it reports false when
// that revision is gone or the cache is full.
func (c *appCache) put(rev int64, res AppResource) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.sets[res.ConnectorID]
	if !ok || s.rev != rev {
		return false
	}
	old, had := s.res[res.URI]
	if c.used-len(old.HTML)+len(res.HTML) > c.capacity() {
		return false
	}
	if had {
		c.used -= len(old.HTML)
	}
	s.res[res.URI] = res
	c.used += len(res.HTML)
	return true
}

func (c *appCache) get(connectorID, uri string) (AppResource, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.sets[connectorID]
	if !ok {
		return AppResource{}, false
	}
	r, ok := s.res[uri]
	return r, ok
}

// size is the HTML bytes kept.
func (c *appCache) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}

// appURIs are the distinct UI resources a tool list names, at most
// maxAppsPerList.
func appURIs(list []mcpgo.Tool) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range list {
		uri := appToolOf(t).ResourceURI
		if uri == "" || seen[uri] || len(out) == maxAppsPerList {
			continue
		}
		seen[uri] = true
		out = append(out, uri)
	}
	return out
}

// preloadApps reads the UI resources a new tool list names, in the
// background, into a new revision of the connector's cache entries. It
// does nothing for a connector with Apps off. A resource that fails to
// read is noted in the connector's log and read again when a card asks.
func (r *runner) preloadApps(ctx context.Context, cfg Connector, l *link, list []mcpgo.Tool) {
	r.mu.Lock()
	r.appsRev++
	rev := r.appsRev
	r.mu.Unlock()
	cache := &r.sup.apps
	cache.begin(cfg.ID, rev)
	uris := appURIs(list)
	if !cfg.AppsOn() || len(uris) == 0 {
		return
	}
	go func() {
		for _, uri := range uris {
			res, err := l.readApp(ctx, uri)
			if err != nil {
				if ctx.Err() == nil {
					r.note("MCP App %s not preloaded: %v", uri, err)
				}
				continue
			}
			if cache.put(rev, res) {
				r.note("MCP App %s preloaded (%s, sha256 %s, csp %s)", uri, humanBytes(len(res.HTML)), res.Hash[:12], cspSummary(res.CSP))
			}
		}
	}()
}

// readApp reads one UI resource from the link's server.
func (l *link) readApp(ctx context.Context, uri string) (AppResource, error) {
	ctx, cancel := context.WithTimeout(ctx, l.cfg.CallTimeout())
	defer cancel()
	req := mcpgo.ReadResourceRequest{}
	req.Params.URI = uri
	out, err := l.client.ReadResource(ctx, req)
	if err != nil {
		return AppResource{}, requestError("UI resource "+uri, l, err)
	}
	return appResourceOf(l.cfg.ID, uri, out.Contents, MaxAppHTML)
}

// ErrNoApp says a card's UI cannot be rendered now (Apps off, the
// connector gone or down, the tool without a UI): the card shows its
// static fallback.
var ErrNoApp = errors.New("mcp: no MCP App to render")

// AppResource returns the UI resource uri of a connector for a card to
// render: from the cache, else read now from the running server (a chat
// reopened after a restart, or a resource the cache had no room for). Only
// a resource one of the connector's current tools names is read, so a
// stored result cannot make Maestro read anything else.
func (s *Supervisor) AppResource(ctx context.Context, connectorID, uri string) (AppResource, error) {
	r, err := s.runner(connectorID)
	if err != nil {
		return AppResource{}, chat.E(chat.ErrNotFound, "%w: the connector no longer exists", ErrNoApp)
	}
	cfg := r.config()
	if !cfg.AppsOn() {
		return AppResource{}, chat.E(chat.ErrInvalid, "%w: Apps are off for %s", ErrNoApp, cfg.DisplayName())
	}
	if res, ok := s.apps.get(connectorID, uri); ok {
		return res, nil
	}
	r.mu.Lock()
	rev, list := r.appsRev, r.tools
	r.mu.Unlock()
	if !slices.Contains(appURIs(list), uri) {
		return AppResource{}, chat.E(chat.ErrNotFound, "%w: no tool of %s names %s", ErrNoApp, cfg.DisplayName(), uri)
	}
	l, err := r.ready(ctx)
	if err != nil {
		return AppResource{}, chat.E(chat.ErrUnavailable, "%w: %w", ErrNoApp, err)
	}
	res, err := l.readApp(ctx, uri)
	if err != nil {
		return AppResource{}, err
	}
	s.apps.put(rev, res)
	return res, nil
}

// AppTool returns what a connector's tool says of its UI, and false when
// the connector has no such tool now.
func (s *Supervisor) AppTool(connectorID, tool string) (AppTool, bool) {
	r, err := s.runner(connectorID)
	if err != nil {
		return AppTool{}, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range r.tools {
		if t.Name == tool {
			return appToolOf(t), true
		}
	}
	return AppTool{}, false
}

// AppOfTool is the MCP App of connectorID's tool, nil when the connector
// has Apps off, is unknown, or the tool names no UI: what a tool card may
// draw while the call runs (its result carries the same, ToolResult.App).
func (s *Supervisor) AppOfTool(connectorID, tool string) *chat.ToolApp {
	r, err := s.runner(connectorID)
	if err != nil {
		return nil
	}
	return r.appOfCall(tool)
}

// appOfCall is the chat.ToolApp to stamp on a result of tool: set when the
// connector has Apps on and the tool names a UI.
func (r *runner) appOfCall(tool string) *chat.ToolApp {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.cfg.AppsOn() {
		return nil
	}
	for _, t := range r.tools {
		if t.Name == tool {
			if uri := appToolOf(t).ResourceURI; uri != "" {
				return &chat.ToolApp{ConnectorID: r.id, ResourceURI: uri, Tool: tool}
			}
			return nil
		}
	}
	return nil
}

func cspSummary(c AppCSP) string {
	n := len(c.ConnectDomains) + len(c.ResourceDomains) + len(c.FrameDomains) + len(c.BaseURIDomains)
	if n == 0 {
		return "default"
	}
	return "declares " + humanCount(n, "origin")
}

func humanCount(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
