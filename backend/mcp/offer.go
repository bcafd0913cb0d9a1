package mcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
)

// Prompts and resources are offered per session, by the same rule as
// tools: a session sees the prompts, resources and templates of the
// connectors it enables (chat.Session.EnabledConnectors), read through a
// SessionReader. Every method that reads or uses one takes the session,
// and refuses a connector the session does not enable.
//
// A link keeps the prompt and template lists it read (featureLists) until
// the server says they changed (list_changed), then reads them again at
// the next use; FeatureEvents hears of the change so the UI can ask. The
// lists are bounded (maxListPages pages, maxListed items, descriptions cut
// to maxDescription bytes), so a server that pages forever or sends huge
// lists cannot hold a request or the memory.

// Bounds on what the lists keep from a server.
const (
	maxListPages   = 50
	maxListed      = 2000
	maxDescription = 4 << 10
	maxName        = 512
)

// SessionReader reads a session's settings (backend/store).
type SessionReader interface {
	Session(ctx context.Context, id string) (chat.Session, error)
}

// WithSessions lets the supervisor check which connectors a session
// enables, for prompts and resources. Without it those methods fail.
func WithSessions(sr SessionReader) SupervisorOption {
	return func(s *Supervisor) { s.sessions = sr }
}

// FeatureEvents hears changes to what servers offer beyond tools. Its
// methods are called from the transports' reader goroutines: they must
// not block and must not call back into the Supervisor.
type FeatureEvents interface {
	// PromptsChanged: a connector's prompt list changed since it was last
	// read (once per read: a flood of list_changed is one event).
	PromptsChanged(connectorID string)
	// ResourcesChanged: a connector's resource or template list changed
	// since it was last read (once per read, likewise).
	ResourcesChanged(connectorID string)
	// ResourceUpdated: a resource sessions subscribed to changed; the
	// sessions are those that follow it (Subscribe).
	ResourceUpdated(connectorID, uri string, sessionIDs []string)
}

// WithFeatureEvents receives prompt and resource changes.
func WithFeatureEvents(e FeatureEvents) SupervisorOption {
	return func(s *Supervisor) { s.featureEvents = e }
}

// ConnectorOffer is what one connector a session enables offers besides
// tools, as its server declared at initialize.
type ConnectorOffer struct {
	ConnectorID string `json:"connectorId"`
	Server      string `json:"server"`
	// State is the connector's state; the rest is known while it is ready.
	State       State `json:"state"`
	Prompts     bool  `json:"prompts"`
	Resources   bool  `json:"resources"`
	Subscribe   bool  `json:"subscribe"`
	Completions bool  `json:"completions"`
}

// Unavailable is a connector whose prompts or resources could not be
// listed, and why.
type Unavailable struct {
	ConnectorID string `json:"connectorId"`
	Server      string `json:"server"`
	Error       string `json:"error"`
}

// Offers lists what each connector the session enables offers, sorted by
// name.
func (s *Supervisor) Offers(ctx context.Context, sessionID string) ([]ConnectorOffer, error) {
	runners, err := s.sessionRunners(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	out := make([]ConnectorOffer, 0, len(runners))
	for _, r := range runners {
		st := r.statusCopy()
		o := ConnectorOffer{ConnectorID: r.id, Server: st.Name, State: st.State}
		if l := r.current(); l != nil {
			caps := l.caps
			o.Prompts = caps.Prompts != nil
			o.Resources = caps.Resources != nil
			o.Subscribe = caps.Resources != nil && caps.Resources.Subscribe
			o.Completions = caps.Completions != nil
		}
		out = append(out, o)
	}
	return out, nil
}

// sessionRunners returns the runners of the connectors the session
// enables that exist, sorted by name.
func (s *Supervisor) sessionRunners(ctx context.Context, sessionID string) ([]*runner, error) {
	sess, err := s.session(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	var out []*runner
	for _, id := range sess.EnabledConnectors {
		if r, err := s.runner(id); err == nil {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b *runner) int {
		if c := compareFold(a.config().DisplayName(), b.config().DisplayName()); c != 0 {
			return c
		}
		return compareFold(a.id, b.id)
	})
	return out, nil
}

func (s *Supervisor) session(ctx context.Context, sessionID string) (chat.Session, error) {
	if s.sessions == nil {
		return chat.Session{}, chat.E(chat.ErrUnavailable, "mcp: prompts and resources need the sessions (WithSessions)")
	}
	sess, err := s.sessions.Session(ctx, sessionID)
	if err != nil {
		return chat.Session{}, fmt.Errorf("mcp: read session %s: %w", sessionID, err)
	}
	return sess, nil
}

// sessionLink returns the ready link of a connector the session enables,
// waiting for it while it starts (as a tool call does).
func (s *Supervisor) sessionLink(ctx context.Context, sessionID, connectorID string) (*runner, *link, error) {
	sess, err := s.session(ctx, sessionID)
	if err != nil {
		return nil, nil, err
	}
	r, err := s.runner(connectorID)
	if err != nil {
		return nil, nil, err
	}
	if !slices.Contains(sess.EnabledConnectors, connectorID) {
		return nil, nil, chat.E(chat.ErrNotFound, "the %s connector is not on in this chat", r.config().DisplayName())
	}
	l, err := r.ready(ctx)
	if err != nil {
		return nil, nil, err
	}
	return r, l, nil
}

// current returns the connector's link if it is ready, without waiting.
func (r *runner) current() *link {
	r.mu.Lock()
	l := r.link
	r.mu.Unlock()
	if l == nil || l.gone() {
		return nil
	}
	return l
}

// featureLists is a link's cache of its server's prompt and template
// lists. mu guards every field.
type featureLists struct {
	mu                 sync.Mutex
	prompts, templates listState
	// resourcesRead: a resource list was read since the last
	// ResourcesChanged event, so the next list_changed is worth one.
	resourcesRead bool
}

// listState is one cached list: fresh until the server says it changed.
type listState struct {
	items any // []mcpgo.Prompt or []mcpgo.ResourceTemplate
	fresh bool
	read  time.Time
}

// wait is how long a read of a stale list waits: until relistEvery has
// passed since the last read, so a flood of list_changed costs at most
// one list per relistEvery whoever asks.
func (ls *listState) wait() time.Duration {
	if ls.items == nil || ls.fresh {
		return 0
	}
	return max(0, relistEvery-time.Since(ls.read))
}

// stale marks the list out of date and reports whether it was fresh.
func (ls *listState) stale() bool {
	was := ls.fresh
	ls.fresh = false
	return was
}

// onFeatureNotification handles the prompt and resource notifications, on
// the transport's reader goroutine.
func (l *link) onFeatureNotification(method string, params map[string]any) {
	ev := l.r.sup.featureEvents
	switch method {
	case string(mcpgo.MethodNotificationPromptsListChanged):
		l.lists.mu.Lock()
		was := l.lists.prompts.stale()
		l.lists.mu.Unlock()
		if was && ev != nil {
			ev.PromptsChanged(l.cfg.ID)
		}
	case string(mcpgo.MethodNotificationResourcesListChanged):
		l.lists.mu.Lock()
		was := l.lists.templates.stale() || l.lists.resourcesRead
		l.lists.resourcesRead = false
		l.lists.mu.Unlock()
		if was && ev != nil {
			ev.ResourcesChanged(l.cfg.ID)
		}
	case string(mcpgo.MethodNotificationResourceUpdated):
		uri, _ := params["uri"].(string)
		l.r.resourceUpdated(uri)
	}
}

// readList returns a fresh cached list, or reads it with read and caches
// it.
func readList[T any](ctx context.Context, l *link, pick func(*featureLists) *listState, read func() ([]T, error)) ([]T, error) {
	l.lists.mu.Lock()
	ls := pick(l.lists)
	items, fresh, wait := ls.items, ls.fresh, ls.wait()
	l.lists.mu.Unlock()
	if fresh {
		return items.([]T), nil
	}
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	list, err := read()
	if err != nil {
		return nil, err
	}
	l.lists.mu.Lock()
	*pick(l.lists) = listState{items: list, fresh: true, read: time.Now()}
	l.lists.mu.Unlock()
	return list, nil
}

// pages follows a list's cursors, at most maxListPages pages and maxListed
// items; a cursor seen before ends it (a server that does not advance).
func pages[T any](ctx context.Context, page func(cursor mcpgo.Cursor) ([]T, mcpgo.Cursor, error)) ([]T, error) {
	var out []T
	seen := map[mcpgo.Cursor]bool{}
	var cursor mcpgo.Cursor
	for range maxListPages {
		items, next, err := page(cursor)
		if err != nil {
			return nil, err
		}
		out = append(out, items...)
		if len(out) >= maxListed {
			return out[:maxListed], nil
		}
		if next == "" || seen[next] {
			return out, nil
		}
		seen[next] = true
		cursor = next
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// eachReady runs fn on the ready link of every runner that offers what
// has says, in parallel, and collects the runners it could not reach.
func eachReady(ctx context.Context, runners []*runner, has func(mcpgo.ServerCapabilities) bool,
	fn func(ctx context.Context, r *runner, l *link) error) []Unavailable {
	var mu sync.Mutex
	var gaps []Unavailable
	var wg sync.WaitGroup
	for _, r := range runners {
		l := r.current()
		if l == nil {
			st := r.statusCopy()
			if st.State != StateStopped {
				mu.Lock()
				gaps = append(gaps, Unavailable{ConnectorID: r.id, Server: st.Name, Error: unavailableReason(st)})
				mu.Unlock()
			}
			continue
		}
		if !has(l.caps) {
			continue
		}
		wg.Go(func() {
			lctx, cancel := context.WithTimeout(ctx, l.cfg.InitTimeout())
			defer cancel()
			if err := fn(lctx, r, l); err != nil {
				mu.Lock()
				gaps = append(gaps, Unavailable{ConnectorID: r.id, Server: l.cfg.DisplayName(), Error: err.Error()})
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	slices.SortFunc(gaps, func(a, b Unavailable) int { return compareFold(a.Server, b.Server) })
	return gaps
}

func unavailableReason(st ConnectorStatus) string {
	if st.Error != "" {
		return fmt.Sprintf("%s: %s", st.State, st.Error)
	}
	return string(st.State)
}

// requestError words a failed prompt or resource request with the server's
// own message, which the UI shows (an unknown prompt, a bad argument).
func requestError(what string, l *link, err error) error {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return chat.E(chat.ErrUnavailable, "%s: the %s server did not answer in time", what, l.cfg.DisplayName())
	case errors.Is(err, context.Canceled):
		return chat.E(chat.ErrCanceled, "%s: cancelled", what)
	case connectionGone(err):
		l.markLost(err) // the runner restarts the server
		return chat.E(chat.ErrUnavailable, "%s: the %s server stopped (%s)", what, l.cfg.DisplayName(), l.lostReason(err))
	}
	return chat.E(chat.ErrInvalid, "%s: the %s server said: %w", what, l.cfg.DisplayName(), err)
}

func compareFold(a, b string) int { return cmp.Compare(strings.ToLower(a), strings.ToLower(b)) }

// short cuts a server's text to n bytes, never splitting a character.
func short(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return cutUTF8(s, n) + "…"
}

// gather lists one kind of item from every ready connector the runners
// offer it on, in parallel, sorted by server and name, and the connectors
// that could not list theirs.
func gather[S, T any](ctx context.Context, runners []*runner, has func(mcpgo.ServerCapabilities) bool,
	list func(*link, context.Context) ([]S, error), conv func(*link, S) T, key func(T) (server, name string)) ([]T, []Unavailable) {
	var mu sync.Mutex
	out := []T{}
	gaps := eachReady(ctx, runners, has, func(ctx context.Context, _ *runner, l *link) error {
		items, err := list(l, ctx)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		for _, it := range items {
			out = append(out, conv(l, it))
		}
		return nil
	})
	slices.SortFunc(out, func(a, b T) int {
		as, an := key(a)
		bs, bn := key(b)
		return cmp.Or(compareFold(as, bs), strings.Compare(an, bn))
	})
	return out, gaps
}

// cachedList reads a list through the link's cache (readList), following
// its pages (pages); method names it in errors.
func cachedList[T any](ctx context.Context, l *link, pick func(*featureLists) *listState, method string,
	page func(ctx context.Context, cursor mcpgo.Cursor) ([]T, mcpgo.Cursor, error)) ([]T, error) {
	return readList(ctx, l, pick, func() ([]T, error) {
		return pages(ctx, func(cursor mcpgo.Cursor) ([]T, mcpgo.Cursor, error) {
			items, next, err := page(ctx, cursor)
			if err != nil {
				return nil, "", requestError(method, l, err)
			}
			return items, next, nil
		})
	})
}
