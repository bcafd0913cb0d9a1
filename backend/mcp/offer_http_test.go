package mcp

import (
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/server"
)

// TestPromptsListChangedOverStreamableHTTP: a prompt added on a server
// reached over streamable HTTP is listed after its prompts/list_changed, in
// both protocol eras (2026-07-28 sends it on the subscriptions/listen
// stream). server-everything never changes its prompts, so its tests cover
// resources/list_changed over stdio and HTTP (offer_npm_test.go); this one
// covers prompts over HTTP, TestPromptsListChanged in process.
func TestPromptsListChangedOverStreamableHTTP(t *testing.T) {
	t.Parallel()
	for _, protocol := range []string{ProtocolLegacy, ProtocolModern} {
		t.Run(protocol, func(t *testing.T) {
			t.Parallel()
			var subs, unsubs atomic.Int32
			srv := promptServer(&subs, &unsubs)
			hs := httptest.NewServer(server.NewStreamableHTTPServer(srv))
			t.Cleanup(hs.Close)
			rec := newFeatureRec()
			h := newHarness(t, WithFeatureEvents(rec))
			c := h.add(Connector{Name: "Prompts", Transport: TransportHTTP, URL: hs.URL + "/mcp", ProtocolVersion: protocol})
			sess := h.session(c.ID)
			if got := promptNames(t, h, sess); !slices.Equal(got, []string{"one"}) {
				t.Fatalf("prompts = %v; want [one]", got)
			}
			addPrompt(srv, "two")
			h.waitFor("PromptsChanged", func() bool { n, _ := rec.counts(c.ID); return n >= 1 })
			if got := promptNames(t, h, sess); !slices.Equal(got, []string{"one", "two"}) {
				t.Errorf("prompts after list_changed = %v; want [one two]", got)
			}
		})
	}
}
