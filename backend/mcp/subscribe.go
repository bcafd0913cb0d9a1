package mcp

import (
	"context"
	"maps"
	"slices"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"maestro/backend/chat"
)

// A connector's server runs once for every session, so a resource is
// subscribed to once (resources/subscribe) when the first session follows
// it and unsubscribed when the last one stops; the runner keeps who
// follows what across reconnects and subscribes again on every new link.
// notifications/resources/updated for a followed resource reaches
// FeatureEvents with the sessions that follow it, at most updateBurst at
// once and updateRate a second per connector; one for a resource nobody
// follows is ignored.
//
// On a connection of protocol 2026-07-28, mcp-go's Subscribe only records
// the URI for a subscriptions/listen stream (the negotiation's owner opens
// it); the bookkeeping here is the same.

// Bounds on subscriptions and their notifications, per connector.
const (
	maxSubscriptions = 1000
	updateBurst      = 20
	updateRate       = 5
)

// subscriptions are the resources sessions follow on one connector. op
// serialises subscribe and unsubscribe requests (held across the request;
// never taken by the reader goroutine); mu guards uris.
type subscriptions struct {
	op      sync.Mutex
	mu      sync.Mutex
	uris    map[string]map[string]bool // uri → session ids
	updates *tokenBucket
}

func newSubscriptions() *subscriptions {
	return &subscriptions{uris: map[string]map[string]bool{}, updates: newTokenBucket(updateBurst, updateRate)}
}

// followers returns the sessions that follow uri.
func (s *subscriptions) followers(uri string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Sorted(maps.Keys(s.uris[uri]))
}

// Subscribe makes the session follow a resource of a connector it
// enables: FeatureEvents.ResourceUpdated names it when the server says the
// resource changed, until Unsubscribe.
func (s *Supervisor) Subscribe(ctx context.Context, sessionID, connectorID, uri string) error {
	r, l, err := s.sessionLink(ctx, sessionID, connectorID)
	if err != nil {
		return err
	}
	if l.caps.Resources == nil || !l.caps.Resources.Subscribe {
		return chat.E(chat.ErrInvalid, "the %s server does not offer resource subscriptions", l.cfg.DisplayName())
	}
	subs := r.subs
	subs.op.Lock()
	defer subs.op.Unlock()
	subs.mu.Lock()
	following, first := subs.uris[uri], len(subs.uris[uri]) == 0
	if first && len(subs.uris) >= maxSubscriptions {
		subs.mu.Unlock()
		return chat.E(chat.ErrInvalid, "the %s connector already has %d resource subscriptions", l.cfg.DisplayName(), maxSubscriptions)
	}
	subs.mu.Unlock()
	if following[sessionID] {
		return nil
	}
	if first {
		rctx, cancel := contextWithTimeout(ctx, l)
		defer cancel()
		if err := l.subscribeResource(rctx, uri); err != nil {
			return requestError("subscribe to "+uri, l, err)
		}
	}
	subs.mu.Lock()
	if subs.uris[uri] == nil {
		subs.uris[uri] = map[string]bool{}
	}
	subs.uris[uri][sessionID] = true
	subs.mu.Unlock()
	return nil
}

// Unsubscribe stops the session following a resource; the last session to
// stop unsubscribes on the server. Following nothing is not an error.
func (s *Supervisor) Unsubscribe(ctx context.Context, sessionID, connectorID, uri string) error {
	r, err := s.runner(connectorID)
	if err != nil {
		return err
	}
	subs := r.subs
	subs.op.Lock()
	defer subs.op.Unlock()
	subs.mu.Lock()
	following := subs.uris[uri][sessionID]
	delete(subs.uris[uri], sessionID)
	last := following && len(subs.uris[uri]) == 0
	if last {
		delete(subs.uris, uri)
	}
	subs.mu.Unlock()
	l := r.current()
	if !last || l == nil {
		return nil // a new link will not subscribe it again
	}
	rctx, cancel := contextWithTimeout(ctx, l)
	defer cancel()
	if err := l.unsubscribeResource(rctx, uri); err != nil {
		return requestError("unsubscribe from "+uri, l, err)
	}
	return nil
}

// resubscribe subscribes a new link to every resource sessions follow; a
// refusal is noted in the connector's log.
func (r *runner) resubscribe(ctx context.Context, cfg Connector, l *link) {
	r.subs.op.Lock()
	defer r.subs.op.Unlock()
	r.subs.mu.Lock()
	uris := slices.Sorted(maps.Keys(r.subs.uris))
	r.subs.mu.Unlock()
	if len(uris) == 0 || l.caps.Resources == nil || !l.caps.Resources.Subscribe {
		return
	}
	for _, uri := range uris {
		rctx, cancel := context.WithTimeout(ctx, cfg.InitTimeout())
		err := l.client.Subscribe(rctx, mcpgo.SubscribeRequest{Params: mcpgo.SubscribeParams{URI: uri}})
		cancel()
		if err != nil {
			r.note("resources/subscribe %s after reconnecting failed: %v", uri, err)
		}
	}
	if IsModern(l.protocol) {
		l.listen() // 2026-07-28: the subscriptions go on the listen stream (listen.go)
	}
}

// resourceUpdated tells FeatureEvents which sessions follow a resource the
// server says changed (on the reader goroutine: it must not block).
func (r *runner) resourceUpdated(uri string) {
	ev := r.sup.featureEvents
	if ev == nil || uri == "" {
		return
	}
	sessions := r.subs.followers(uri)
	if len(sessions) == 0 {
		return
	}
	if ok, _ := r.subs.updates.take(); !ok {
		return
	}
	ev.ResourceUpdated(r.id, uri, sessions)
}

// UnsubscribeSession stops the session following every resource on the
// given connectors, or on every connector when none is given: the app
// calls it when a chat turns a connector off and when a chat is deleted,
// so a server is not left sending updates nobody reads. Each resource
// whose last follower this was is unsubscribed on the server (Unsubscribe);
// the first failure is returned after the rest are tried.
func (s *Supervisor) UnsubscribeSession(ctx context.Context, sessionID string, connectorIDs ...string) error {
	s.mu.Lock()
	runners := make([]*runner, 0, len(s.runners))
	for id, r := range s.runners {
		if len(connectorIDs) == 0 || slices.Contains(connectorIDs, id) {
			runners = append(runners, r)
		}
	}
	s.mu.Unlock()
	var first error
	for _, r := range runners {
		for _, uri := range r.subs.followed(sessionID) {
			if err := s.Unsubscribe(ctx, sessionID, r.id, uri); err != nil && first == nil {
				first = err
			}
		}
	}
	return first
}

// followed returns the resources the session follows, sorted.
func (s *subscriptions) followed(sessionID string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for uri, sessions := range s.uris {
		if sessions[sessionID] {
			out = append(out, uri)
		}
	}
	slices.Sort(out)
	return out
}
