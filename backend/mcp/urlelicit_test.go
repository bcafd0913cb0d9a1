package mcp

import (
	"context"
	"strings"
	"sync"
	"testing"
)

func TestElicitTarget(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url, domain string
		puny        bool
		bad         string
	}{
		{url: "https://example.com/connect?x=1", domain: "example.com"},
		{url: "https://Sub.Example.COM:8443/a", domain: "sub.example.com"},
		{url: "http://127.0.0.1:8080/cb", domain: "127.0.0.1"},
		{url: "http://localhost/cb", domain: "localhost"},
		{url: "https://xn--pple-43d.com/login", domain: "xn--pple-43d.com", puny: true},
		{url: "http://example.com/login", bad: "https pages only"},
		{url: "javascript:alert(1)", bad: "not valid"},
		{url: "file:///etc/passwd", bad: "not valid"},
		{url: "https://user:pw@example.com/", bad: "credentials"},
		{url: "not a url", bad: "not valid"},
	} {
		domain, puny, err := elicitTarget(tc.url)
		switch {
		case tc.bad != "":
			if err == nil || !strings.Contains(err.Error(), tc.bad) {
				t.Errorf("elicitTarget(%q) = %q, %v; want an error saying %q", tc.url, domain, err, tc.bad)
			}
		case err != nil || domain != tc.domain || puny != tc.puny:
			t.Errorf("elicitTarget(%q) = %q, %v, %v; want %q, %v", tc.url, domain, puny, err, tc.domain, tc.puny)
		}
	}
}

// urlUser answers URL elicitations as a user would: consent (or not), then
// Continue once the page is open. It records what it was asked.
type urlUser struct {
	action string
	mu     sync.Mutex
	asked  []ElicitationRequest
	waited []string
	opened []string
}

func (u *urlUser) Elicit(_ context.Context, req ElicitationRequest) (ElicitationAnswer, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.asked = append(u.asked, req)
	return ElicitationAnswer{Action: u.action}, nil
}

func (u *urlUser) WaitURL(_ context.Context, req ElicitationRequest, _ <-chan struct{}) (string, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.waited = append(u.waited, req.URL)
	return ActionAccept, nil
}

func (u *urlUser) OpenURL(_ context.Context, url string) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.opened = append(u.opened, url)
	return nil
}

func (u *urlUser) seen() (asked []ElicitationRequest, waited, opened []string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]ElicitationRequest(nil), u.asked...), append([]string(nil), u.waited...), append([]string(nil), u.opened...)
}

// TestServerEverythingURLElicitation: trigger-url-elicitation's request
// path (elicitation/create, url mode) and error path (-32042, a page to
// open first, then the call again) both ask for consent with the server and
// the domain, and open the page only on accept.
func TestServerEverythingURLElicitation(t *testing.T) {
	t.Parallel()
	entry := npmPackage(t, "server-everything")
	for _, tc := range []struct {
		name, args, action, want string
		opened                   []string
	}{
		{"request path, accepted", `{"url":"https://example.com/connect"}`, ActionAccept,
			"User completed the URL elicitation flow", []string{"https://example.com/connect"}},
		{"request path, declined", `{"url":"https://example.com/connect"}`, ActionDecline,
			"User declined to open the URL", nil},
		{"error path", `{"url":"https://example.com/connect","errorPath":true}`, ActionAccept,
			"User completed the URL elicitation flow", []string{"https://modelcontextprotocol.io", "https://example.com/connect"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			user := &urlUser{action: tc.action}
			h := newHarness(t, WithElicitor(user, user))
			c := h.add(Connector{Name: "Everything", Command: "node", Args: []string{entry, "stdio"}})
			sess := h.session(c.ID)
			ctx := t.Context()
			h.waitFor("the URL tool", func() bool {
				snap, _ := h.reg.Snapshot(ctx, sess)
				_, ok := snap.Lookup("everything.trigger-url-elicitation")
				return ok
			})
			got := text(t, h.call(ctx, sess, "everything.trigger-url-elicitation", tc.args, nil))
			if !strings.Contains(got, tc.want) {
				t.Fatalf("result = %s", clip(got, 300))
			}
			asked, _, opened := user.seen()
			if strings.Join(opened, " ") != strings.Join(tc.opened, " ") {
				t.Errorf("opened %q, want %q", opened, tc.opened)
			}
			last := asked[len(asked)-1]
			if last.Mode != ElicitURL || last.Domain != "example.com" || !strings.HasPrefix(last.Server, "mcp-servers/everything") ||
				last.ConnectorName != "Everything" || last.CallID != "call-1" {
				t.Errorf("consent request = %+v", last)
			}
		})
	}
}

// TestURLElicitationOnTheNewEra: a 2026-07-28 server's input_required with
// a URL elicitation is answered after consent, the page and the user's
// Continue; then the retry tells the server.
func TestURLElicitationOnTheNewEra(t *testing.T) {
	t.Parallel()
	user := &urlUser{action: ActionAccept}
	h := newHarness(t, WithElicitor(user, user))
	c := h.add(sdk2Server(t))
	if st := h.settle(c.ID); st.Protocol != ProtocolModern {
		t.Fatalf("protocol %q", st.Protocol)
	}
	got := text(t, h.call(t.Context(), h.session(c.ID), "sdk2.open", `{"url":"https://pay.example.org/checkout"}`, nil))
	if got != "url elicitation: accept" {
		t.Fatalf("open = %q", got)
	}
	asked, waited, opened := user.seen()
	if len(asked) != 1 || asked[0].Domain != "pay.example.org" || len(opened) != 1 || len(waited) != 1 {
		t.Errorf("asked %+v, waited %q, opened %q", asked, waited, opened)
	}
}
