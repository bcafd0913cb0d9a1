package mcp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// URL-mode elicitation (docs/MCP.md): a server sends the user to a web page
// (a third party's sign-in, a payment) that must not pass through Maestro.
// The Elicitor is asked for consent with the server's name, the full URL
// and its domain (Punycode flagged); only on accept does URLOpener open the
// page, in the system browser, where neither Maestro nor the model sees it.
// Maestro never prefetches the URL and never reads anything from it, and it
// never takes such a page for its own sign-in: a connector's OAuth is
// app-side (oauth.go) and ignores elicitations.
//
// Then the server learns the outcome its own way:
//
//   - 2025-11-25, asked with elicitation/create: the server waits by itself
//     and may send notifications/elicitation/complete, which reaches an
//     Elicitor that implements URLDoneNotifier.
//   - 2025-11-25, a call refused with URLElicitationRequiredError (-32042):
//     Maestro asks for each page, waits for the server's completion
//     notification or the user's Continue (URLWaiter), and calls again.
//   - 2026-07-28 (Multi Round-Trip): there is no notification; the request
//     is retried, after the user's Continue (URLWaiter) when the Elicitor
//     offers it.

// URLWaiter is implemented by an Elicitor that can show, after a page was
// opened, that Maestro waits for the user to finish there, with Continue
// and Cancel. WaitURL returns ActionAccept on Continue, ActionCancel on
// Cancel, or ctx's error; a nil done channel never fires, else done closes
// when the server says the interaction is complete (the UI may then move
// on by itself).
type URLWaiter interface {
	WaitURL(ctx context.Context, req ElicitationRequest, done <-chan struct{}) (string, error)
}

// URLDoneNotifier is implemented by an Elicitor that wants to know when a
// server says an out-of-band interaction is complete (2025-11-25's
// notifications/elicitation/complete).
type URLDoneNotifier interface {
	URLElicitationDone(connectorID, elicitationID string)
}

// maxURLElicitationRetries bounds how often a call refused with
// URLElicitationRequiredError is made again.
const maxURLElicitationRetries = 3

// elicitTarget checks a URL elicitation's target and returns its domain
// for the consent UI, and whether a label is Punycode (a look-alike
// domain can hide there). Only https is accepted, and http to a loopback
// host (a server in development); a URL with credentials is refused.
func elicitTarget(raw string) (domain string, punycode bool, err error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "", false, errors.New("the URL is not valid")
	}
	host := u.Hostname()
	switch {
	case u.User != nil:
		return "", false, errors.New("the URL carries credentials")
	case u.Scheme == "https":
	case u.Scheme == "http" && loopbackHost(host):
	default:
		return "", false, fmt.Errorf("Maestro opens https pages only, not %s", u.Scheme)
	}
	for _, label := range strings.Split(strings.ToLower(host), ".") {
		if strings.HasPrefix(label, "xn--") {
			punycode = true
		}
	}
	return strings.ToLower(host), punycode, nil
}

func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// elicitURL asks for consent to open a page, opens it on accept and, where
// the server learns of completion by a retry (2026-07-28), waits for the
// user's Continue. It returns the action to answer the server with.
func (h handlers) elicitURL(ctx context.Context, er ElicitationRequest) (string, error) {
	sup := h.l.r.sup
	domain, puny, err := elicitTarget(er.URL)
	if err != nil {
		h.l.r.note("URL elicitation declined without asking: %v", err)
		return ActionDecline, nil
	}
	er.Domain, er.Punycode, er.Server = domain, puny, h.l.serverName()
	ans, err := sup.elicitor.Elicit(ctx, er)
	if err != nil {
		return "", err
	}
	if ans.Action != ActionAccept {
		return ans.Action, nil
	}
	if err := sup.opener.OpenURL(ctx, er.URL); err != nil {
		return "", fmt.Errorf("open %s: %w", er.URL, err)
	}
	w, ok := sup.elicitor.(URLWaiter)
	if !ok || !IsModern(h.l.protocol) {
		return ActionAccept, nil
	}
	return w.WaitURL(ctx, er, nil)
}

// urlDone is the link's record of URL elicitations waiting for the
// server's completion notification, by elicitation id.
type urlDone struct {
	mu      sync.Mutex
	waiting map[string]chan struct{}
}

// wait returns a channel closed when the server says id is complete.
func (d *urlDone) wait(id string) <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.waiting == nil {
		d.waiting = map[string]chan struct{}{}
	}
	ch, ok := d.waiting[id]
	if !ok {
		ch = make(chan struct{})
		d.waiting[id] = ch
	}
	return ch
}

// complete handles notifications/elicitation/complete: it ends the wait
// for id and tells the Elicitor. Unknown ids are told too (the request
// path's elicitation was answered before the notification came).
func (l *link) urlComplete(id string) {
	if id == "" {
		return
	}
	l.urlDone.mu.Lock()
	if ch, ok := l.urlDone.waiting[id]; ok {
		close(ch)
		delete(l.urlDone.waiting, id)
	}
	l.urlDone.mu.Unlock()
	if n, ok := l.r.sup.elicitor.(URLDoneNotifier); ok {
		n.URLElicitationDone(l.cfg.ID, id)
	}
}

// urlRequired handles a call refused with URLElicitationRequiredError: it
// asks the user about each page, opens the accepted ones, and waits for
// each to be complete (the server's notification or the user's Continue).
// It returns nil when the call should be made again.
func (h handlers) urlRequired(ctx context.Context, e mcpgo.URLElicitationRequiredError) error {
	sup := h.l.r.sup
	if sup.elicitor == nil || sup.opener == nil || len(e.Elicitations) == 0 {
		return e
	}
	origin, ctx, stop := h.l.requestScope(ctx)
	defer stop()
	for _, p := range e.Elicitations {
		er := ElicitationRequest{Origin: origin, Mode: ElicitURL, Message: p.Message, URL: p.URL, ElicitationID: p.ElicitationID}
		done := h.l.urlDone.wait(p.ElicitationID)
		action, err := h.elicitURL(ctx, er)
		if err != nil {
			return err
		}
		if action != ActionAccept {
			return fmt.Errorf("the user did not open %s (%s)", er.URL, action)
		}
		if err := h.awaitURL(ctx, er, done); err != nil {
			return err
		}
	}
	return nil
}

// awaitURL waits until the server says an opened page's interaction is
// complete, or the user says Continue.
func (h handlers) awaitURL(ctx context.Context, er ElicitationRequest, done <-chan struct{}) error {
	if w, ok := h.l.r.sup.elicitor.(URLWaiter); ok {
		action, err := w.WaitURL(ctx, er, done)
		if err != nil {
			return err
		}
		if action != ActionAccept {
			return fmt.Errorf("the user gave up on %s", er.URL)
		}
		return nil
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
