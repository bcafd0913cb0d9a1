package mcp

import (
	"context"
	"errors"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// Change notifications on 2026-07-28 (docs/MCP.md): a server sends
// list_changed and resources/updated only on a subscriptions/listen stream
// the client opened for them (the old era's GET stream and
// resources/subscribe are gone). A modern link opens one stream, for the
// list changes its server offers and the resources subscribed to, and
// reopens it when the subscriptions change. The notifications reach
// onNotification like the old era's, so tools/list_changed re-lists tools
// and resources/updated goes wherever the old era's goes.

// listenState is a modern link's subscriptions/listen stream.
type listenState struct {
	mu    sync.Mutex
	stop  func()        // ends the current stream and waits for it
	acked chan struct{} // receives the server's acknowledgement (capacity 1)
}

// listenAckWait bounds how long listen waits for the server to acknowledge
// the stream, so that what changes after the connector is ready is heard.
const listenAckWait = 2 * time.Second

// acknowledged handles notifications/subscriptions/acknowledged.
func (l *link) acknowledged() {
	l.listening.mu.Lock()
	ch := l.listening.acked
	l.listening.mu.Unlock()
	if ch != nil {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// listen opens (or reopens, with the current subscriptions) the link's
// subscriptions/listen stream. It does nothing on an old-era link, or when
// the server offers nothing to listen to.
func (l *link) listen() {
	if !IsModern(l.protocol) {
		return
	}
	filter := l.client.PendingSubscriptionFilter()
	if t := l.caps.Tools; t != nil && t.ListChanged {
		filter.ToolsListChanged = true
	}
	if p := l.caps.Prompts; p != nil && p.ListChanged {
		filter.PromptsListChanged = true
	}
	if r := l.caps.Resources; r != nil && r.ListChanged {
		filter.ResourcesListChanged = true
	}
	l.listening.mu.Lock()
	defer l.listening.mu.Unlock()
	if l.listening.stop != nil {
		l.listening.stop()
		l.listening.stop = nil
	}
	if filter.IsEmpty() || l.gone() {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	acked := make(chan struct{}, 1)
	l.listening.acked = acked
	stop, err := l.client.ListenAsync(ctx, filter, l.listenFailed)
	if err != nil {
		cancel()
		l.r.note("subscriptions/listen: %v", err)
		return
	}
	l.listening.stop = func() { cancel(); stop() }
	l.listening.mu.Unlock()
	t := time.NewTimer(listenAckWait)
	select {
	case <-acked:
	case <-t.C:
		l.r.note("subscriptions/listen: no acknowledgement within %s", listenAckWait)
	}
	t.Stop()
	l.listening.mu.Lock()
}

// listenFailed handles the end of a stream the link did not close: a lost
// connection restarts the server; a server that refuses the stream is
// noted, and its changes are not followed until the next start.
func (l *link) listenFailed(err error) {
	if connectionGone(err) {
		l.markLost(err)
		return
	}
	if !l.gone() {
		l.r.note("subscriptions/listen ended: %v; list changes are not followed until the server restarts", err)
	}
}

// stopListening ends the stream (when the link closes).
func (l *link) stopListening() {
	l.listening.mu.Lock()
	stop := l.listening.stop
	l.listening.stop = nil
	l.listening.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// subscribeResource asks for resources/updated notifications of uri, in
// either era: resources/subscribe in the old one, a reopened
// subscriptions/listen stream naming it in the new one.
func (l *link) subscribeResource(ctx context.Context, uri string) error {
	if l.caps.Resources == nil || !l.caps.Resources.Subscribe {
		return errors.New("the server does not offer resource subscriptions")
	}
	req := mcpgo.SubscribeRequest{}
	req.Params.URI = uri
	if err := l.client.Subscribe(ctx, req); err != nil {
		return err
	}
	l.listen()
	return nil
}

// unsubscribeResource stops resources/updated notifications of uri.
func (l *link) unsubscribeResource(ctx context.Context, uri string) error {
	req := mcpgo.UnsubscribeRequest{}
	req.Params.URI = uri
	if err := l.client.Unsubscribe(ctx, req); err != nil {
		return err
	}
	l.listen()
	return nil
}
