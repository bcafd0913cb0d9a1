package agent

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"maestro/backend/chat"
)

// DefaultOpenSessions is how many sessions' histories the agent keeps
// decoded (WithOpenSessions).
const DefaultOpenSessions = 8

// histories keeps, per session, the end of its active branch that requests
// need (the tail: back to the latest summary node's span) decoded, with the
// request view built from it, so a run does not read and decode the whole
// session again and a later step only adds what changed. At most max
// sessions are kept, the least recently used going first.
//
// mu guards the map and the order; each entry has its own lock, held by
// the one call (a run, Compact, Context) using it.
type histories struct {
	mu      sync.Mutex
	max     int
	entries map[string]*histEntry
	order   []string // least recently used first
}

// histEntry is one session's decoded tail. head and updated are the
// session's Head and UpdatedAt when the tail was last known to match the
// store: every write to a session's messages moves one of them, so a tail
// whose session shows other values is read again (a branch switch, an
// edit, a write by anyone else).
type histEntry struct {
	mu      sync.Mutex
	loaded  bool
	head    uint64
	updated time.Time
	tail    []chat.Message
	view    view
	// tools caches the estimate of the last overlay declared.
	tools struct {
		provider string
		revision int64
		count    int
		tokens   int64
	}
	// last is the latest measurement, for Context calls made while a run
	// holds the entry; guarded by histories.mu.
	last *ContextUse
}

func newHistories(size int) *histories {
	return &histories{max: max(size, 1), entries: map[string]*histEntry{}}
}

// entry returns the session's entry, making it the most recently used and
// evicting the least recently used beyond max. A call holding an evicted
// entry keeps using it; it is simply not kept.
func (h *histories) entry(sessionID string) *histEntry {
	h.mu.Lock()
	defer h.mu.Unlock()
	e, ok := h.entries[sessionID]
	if ok {
		h.order = slices.DeleteFunc(h.order, func(id string) bool { return id == sessionID })
	} else {
		e = &histEntry{}
		h.entries[sessionID] = e
	}
	h.order = append(h.order, sessionID)
	for len(h.order) > h.max {
		delete(h.entries, h.order[0])
		h.order = h.order[1:]
	}
	return e
}

// forget drops the session's entry.
func (h *histories) forget(sessionID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.entries, sessionID)
	h.order = slices.DeleteFunc(h.order, func(id string) bool { return id == sessionID })
}

func (h *histories) remember(e *histEntry, u ContextUse) {
	h.mu.Lock()
	defer h.mu.Unlock()
	e.last = &u
}

func (h *histories) lastUse(e *histEntry) (ContextUse, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if e.last == nil {
		return ContextUse{}, false
	}
	return *e.last, true
}

// Forget drops what the agent keeps of a session (its decoded history):
// for a deleted session, or to free memory when the app closes it. The
// next run reads it again.
func (a *Agent) Forget(sessionID string) { a.hist.forget(sessionID) }

// tailKeeper walks a branch back from its head for ActiveTail: every
// message down to the latest summary node, and from there down to (not
// including) the last message that node stands for.
func tailKeeper() func(chat.Message) bool {
	var through uint64
	seen := false
	return func(m chat.Message) bool {
		if seen && m.Seq <= through {
			return false
		}
		if !seen && m.Role == chat.RoleSummary && m.Summary != nil && m.Status != StatusSuperseded {
			seen, through = true, m.Summary.Through
		}
		return true
	}
}

// load makes e match the store: it keeps the decoded tail when the
// session's Head and UpdatedAt are those it was read at, and reads it
// again otherwise. It returns the session.
func (a *Agent) load(ctx context.Context, e *histEntry, sessionID string) (chat.Session, error) {
	sess, err := a.store.Session(ctx, sessionID)
	if err != nil {
		return chat.Session{}, fmt.Errorf("agent: load session: %w", err)
	}
	if e.loaded && e.head == sess.Head && e.updated.Equal(sess.UpdatedAt) {
		return sess, nil
	}
	return a.reload(ctx, e, sessionID)
}

// reload reads the tail from the store.
func (a *Agent) reload(ctx context.Context, e *histEntry, sessionID string) (chat.Session, error) {
	sess, tail, err := a.store.ActiveTail(ctx, sessionID, tailKeeper())
	if err != nil {
		e.loaded = false
		return chat.Session{}, fmt.Errorf("agent: load history: %w", err)
	}
	e.tail, e.loaded = tail, true
	e.head, e.updated = sess.Head, sess.UpdatedAt
	e.view.reset()
	return sess, nil
}

// settle records the tail a call leaves behind and the session state it
// matches. It reads the session after the call's last write; when that
// fails the entry is read again next time.
func (a *Agent) settle(ctx context.Context, e *histEntry, sessionID string, tail []chat.Message) {
	sess, err := a.store.Session(context.WithoutCancel(ctx), sessionID)
	if err != nil {
		e.loaded = false
		return
	}
	e.tail, e.head, e.updated = tail, sess.Head, sess.UpdatedAt
}
